/**
 * The sandbox of one realm (user-code.ts): the globals and builtin modules a lock module sees,
 * each virtualized per simulated process, passed through frozen because it is pure, or
 * refused (builtins.ts names every builtin module, globals.ts every global Node adds to
 * JavaScript's own). The realm's own objects (its process, console, crypto, performance, Date,
 * Intl) are made once per realm, read the process running in it when called, and are watched
 * by the context's watch; a module's views are made afresh for each process that loads it.
 */
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { existsSync } from 'node:fs';
import vm from 'node:vm';
import type { GlueApi, GluePrims } from '../realm-bridge.js';
import type { ModuleLoader } from '../loader.js';
import { BUILTINS, pureView, refusedView } from './builtins.js';
import { makeLocalRealm } from './globals.js';
import { makeRefuser, type Intrinsics, type SandboxEnv, type SandboxProcess } from './env.js';
import { firstUserFrame } from './frames.js';
import { makeConsole, makeProcess } from './process.js';
import { makePerformance, VIRTUAL_MODULES, type ViewContext } from './virtual-modules.js';

export type { SandboxProcess } from './env.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const hostRequire = createRequire(import.meta.url);
const INTRINSICS_SCRIPT = new vm.Script('({ Object, Error, TypeError, RangeError, Promise, Date, Intl, Number, String, Array, BigInt, WeakRef, FinalizationRegistry, Symbol, Uint8Array })', { filename: 'lock-sim:own-code/intrinsics.js' });
/** Simulated time 0 reads 2024-01-01T00:00:00Z (realm-bridge.ts EPOCH_MS): performance.timeOrigin. */
const EPOCH_MS = 1_704_067_200_000;

/** Where user code's console output goes: nowhere, unless LOCK_SIM_USER_CONSOLE asks for stderr (a run's output stays the same). */
const CONSOLE_TO_STDERR = process.env.LOCK_SIM_USER_CONSOLE === 'stderr';

/** Package roots by file, looked up once for the worker's life (the files do not change during a run). */
const packageRoots = new Map<string, string>();

/** The nearest directory holding a package.json (a package's root), or the file's own directory. */
function packageRoot(file: string): string {
  let root = packageRoots.get(file);
  if (root === undefined) {
    root = dirname(file);
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'package.json'))) {
        root = dir;
        break;
      }
      if (dirname(dir) === dir) break;
    }
    packageRoots.set(file, root);
  }
  return root;
}

/** Exports of refused modules Node does not load in a worker thread (trace_events: "Trace events are unavailable"). */
const WORKER_UNAVAILABLE: Record<string, string[]> = { trace_events: ['createTracing', 'getEnabledCategories'] };

function hostModule(name: string): any {
  try {
    return hostRequire(`node:${name}`);
  } catch {
    return Object.fromEntries((WORKER_UNAVAILABLE[name] ?? []).map((k) => [k, () => undefined]));
  }
}

export class Sandbox {
  private readonly intrinsics: Intrinsics;
  private prims: GluePrims | null = null;
  private current: SandboxProcess = { client: -1, name: '', incarnation: 0, baseDir: '', timeZone: 'UTC', locale: 'en-US' };
  private isLoading = false;
  private views = new Map<string, unknown>();
  private loader: ModuleLoader | null = null;
  private roots: string[] = [];
  /** The loaded files whose packages `roots` already holds (each file's package looked up once). */
  private rootsOf = new Set<string>();
  private readonly env: SandboxEnv;
  private realmObjects: { process: any; console: any; webcrypto: any; performance: any } | null = null;

  constructor(private readonly context: vm.Context, private readonly file: string) {
    this.intrinsics = INTRINSICS_SCRIPT.runInContext(context) as Intrinsics;
    const sandbox = this;
    this.env = {
      intrinsics: this.intrinsics,
      get prims() { return sandbox.prims!; },
      who: () => this.current,
      pid: () => 1000 + this.current.client,
      loading: () => this.isLoading,
      refuser: makeRefuser(this.intrinsics, () => this.prims!, () => this.current.baseDir),
      write: (stream, text) => {
        if (CONSOLE_TO_STDERR) process.stderr.write(`[${this.current.name} ${stream}] ${text}`);
      },
    } as SandboxEnv;
  }

  /** What the glue asks of the sandbox while it runs. */
  glueSide(): { frameOf(err: unknown): string | null } {
    return {
      frameOf: (err) => {
        try {
          return err !== null && typeof err === 'object' ? firstUserFrame((err as { stack?: unknown }).stack, this.current.baseDir) : null;
        } catch {
          return null;
        }
      },
    };
  }

  /** Builds the realm's own globals on the glue's primitives (once per realm, before any user code). */
  attach(api: GlueApi): void {
    this.prims = api.prims;
    const env = this.env;
    const performance = makePerformance(env, EPOCH_MS);
    const console = makeConsole(env, globalThis.console);
    const process = makeProcess(env, this.file, (name) => this.builtinByName(name));
    const webcrypto = makeLocalRealm(this.context, env, { process, console, performance });
    this.realmObjects = { process, console, webcrypto, performance };
  }

  /** The realm's own objects, for the context's watch: a run that changed one does not hand the realm on. */
  watched(): object[] {
    const r = this.realmObjects!;
    return [r.process, r.console, r.webcrypto, r.performance, r.process.env, r.process.hrtime];
  }

  /** A process starts in the realm: its identity, new views, loading until the factory runs. */
  begin(who: SandboxProcess): void {
    this.current = who;
    this.views = new Map();
    this.isLoading = true;
    this.roots = [packageRoot(this.file) + sep];
    this.rootsOf = new Set();
  }

  /** The module loaded: reads of its files are over (user-code.ts calls it after the load). */
  loaded(loadedFiles: Iterable<string>): void {
    for (const f of loadedFiles) this.roots.push(packageRoot(f) + sep);
  }

  /**
   * Whether `path` is in the module's package or in a package of a file its graph has loaded so
   * far. The packages are those of the files as the loader resolved them (Node's real paths), so
   * a dependency reached through a symbolic link (a linked `node_modules`, `npm link`, a
   * workspace package outside the project) may read its own files while it loads.
   */
  private readable(path: string): boolean {
    const within = (root: string): boolean => path.startsWith(root) || path + sep === root;
    if (this.roots.some(within)) return true;
    for (const f of this.loader?.files() ?? []) {
      if (this.rootsOf.has(f)) continue;
      this.rootsOf.add(f);
      const root = packageRoot(f) + sep;
      if (!this.roots.includes(root)) this.roots.push(root);
    }
    return this.roots.some(within);
  }

  /** The factory runs from now on: no file reads. */
  running(): void {
    this.isLoading = false;
  }

  end(): void {
    this.views = new Map();
    this.loader = null;
    this.isLoading = false;
  }

  /** A builtin's view for code in `fromFile` (the loader asks). */
  builtin(name: string, _fromFile: string, loader: ModuleLoader): unknown {
    this.loader = loader;
    return this.builtinByName(name);
  }

  private builtinByName(name: string): unknown {
    const known = this.views.get(name);
    if (known !== undefined) return known;
    const treatment = BUILTINS[name];
    let view: unknown;
    const host = treatment === undefined || name === 'test' || name === 'sea' ? {} : hostModule(name);
    if (treatment === 'pure') view = pureView(name, host);
    else if (treatment === 'virtual') {
      const spec = VIRTUAL_MODULES[name];
      const built = spec.build(this.viewContext(), host) as Record<string, unknown>;
      // The exports the builder passes as the host's, named in its `pure` list.
      if (Array.isArray(spec.pure)) for (const key of spec.pure) if (!(key in built)) built[key] = host[key];
      view = built;
    }
    else view = refusedView(this.env, treatment === 'refused' ? name : 'vm', host);
    this.views.set(name, view);
    return view;
  }

  private viewContext(): ViewContext {
    const r = this.realmObjects!;
    return {
      env: this.env,
      ...r,
      requireFrom: (file) => {
        if (!this.loader) throw new this.intrinsics.Error('lock-sim: module.createRequire outside a module load');
        return this.loader.requireFunction(file);
      },
      readable: (path) => this.readable(path),
      view: (name) => this.builtinByName(name),
    };
  }
}
