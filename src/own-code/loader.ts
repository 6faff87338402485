/**
 * Loads a user lock module and what it imports INTO a run's `vm` context, so every function
 * of it (and of the npm packages it uses) is compiled there and sees that context's globals
 * and the glue's simulated time and randomness (user-code.ts). Resolution follows Node's:
 * - ESM (`.mjs`, `.js` under `"type": "module"`) -> `vm.SourceTextModule`, linked by
 *   specifier: relative paths and file URLs from the importing file, bare names as
 *   `require.resolve` finds them from there (node_modules, package `exports` with the
 *   "require"/"node"/"default" conditions, `main`) or, for an import-only `exports`, its
 *   "import" entry; `import.meta.url` is the file's URL.
 * - CommonJS -> `vm.compileFunction(wrapper, { parsingContext })` with a small `require`
 *   (`module.createRequire(file).resolve`, JSON, cycles through the module cache,
 *   `module.exports`); imported from ESM as its `module.exports` (default) and its keys
 *   (named exports: Node finds them with cjs-module-lexer, we read the evaluated object, so
 *   CommonJS runs when the graph is linked).
 * - Node builtins -> the host's module objects (`node:crypto`, `node:timers`, `process`,
 *   `perf_hooks` are the context's simulated ones).
 * Each file is compiled once per realm, not per process, where it can be: a CommonJS file's
 * wrapper function, and an ES module graph as functions (esm-graph.ts; else each module as a
 * `vm.SourceTextModule` per process, from a V8 code cache made on the first load), each called
 * once per process (realm-code.ts).
 */
import { dirname } from 'node:path';
import { createRequire, isBuiltin } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { analyzeModule, type EsmFunction } from './esm-function.js';
import { instantiateGraph, planGraph, type GraphPlan, type SyntheticExports } from './esm-graph.js';
import { isEsm, resolveSpecifier, sourceOf, type Source } from './module-resolution.js';
import type { RealmCode } from './realm-code.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** `vm.SourceTextModule` and friends: present when Node runs with --experimental-vm-modules. */
type VmModule = any;
const vmModules = vm as unknown as { SourceTextModule?: any; SyntheticModule?: any };

interface LoaderHost {
  context: vm.Context;
  /** The realm's compiled code (realm-code.ts): each file compiled there once, called per process. */
  realm: RealmCode;
  /** A builtin module's object as user code sees it (sandbox/builtins.ts), imported from `fromFile`. */
  builtin(name: string, fromFile: string, loader: ModuleLoader): any;
  /** Runs the promise continuations queued so far (linking and a dynamic import settle in them). */
  drain(): void;
}

/** A top-level await that has not settled once the module's load instant is over. */
class UnsettledTopLevelAwait extends Error {
  constructor(file: string) {
    super(`${file} has a top-level await that does not settle when the module loads (lock-sim loads a process's module at one simulated instant, with no time passing): move the wait into the factory, which may return a promise`);
    this.name = 'UnsettledTopLevelAwait';
  }
}

/**
 * Each root's graph plan (esm-graph.ts), or null (the module path): made by the first process
 * that loads the root, kept for the worker's life as the files are (module-resolution.ts).
 */
const plans = new Map<string, GraphPlan | null>();
/** `module.createRequire(file)` per file: Node's require, for its `resolve`. */
const nodeRequires = new Map<string, NodeRequire>();

/** An identifier-like own key of a CommonJS export object or builtin: a named export of its synthetic module. */
const EXPORT_NAME = /^[A-Za-z_$][\w$]*$/;

/** One process's module graph in its realm. */
export class ModuleLoader {
  private readonly esm = new Map<string, VmModule>();
  /** ES modules instantiated as functions (esm-graph.ts): their namespaces. */
  private readonly functions = new Map<string, object>();
  private readonly cjs = new Map<string, { exports: any; loaded: boolean }>();
  private readonly synthetic = new Map<string, VmModule>();
  /** A builtin's or CommonJS file's value and export names, as first linked (both paths read these). */
  private readonly syntheticValues = new Map<string, SyntheticExports>();
  /** The import() calls made so far (esm-graph.ts: one made while CommonJS code links sends the graph to the module path). */
  private dynamicImports = 0;

  /** `asFunctions` false: every ES module graph takes the module path (a test compares the two paths). */
  constructor(private readonly host: LoaderHost, private readonly asFunctions = true) {
    host.realm.dynamicImport = (specifier, fromFile) => this.dynamicImport(specifier, fromFile);
  }

  /** The files this process loaded as functions (esm-graph.ts). */
  functionFiles(): string[] {
    return [...this.functions.keys()];
  }

  /** The files of the graph loaded so far. */
  files(): string[] {
    return [...this.esm.keys(), ...this.functions.keys(), ...this.cjs.keys()];
  }

  /**
   * Loads `file` (ESM or CommonJS) and what it imports, links and evaluates it now, and gives
   * its namespace (CommonJS: `{ default: module.exports, ...keys }`). An ES module graph runs
   * as functions when esm-graph.ts can plan it so; else as modules: linking is Node's
   * asynchronous `link`, whose steps all settle in the microtask queue when every import is
   * at hand (no I/O: files are read synchronously), so one drain finishes it; so does a
   * top-level await on what is already settled. One still pending after the drain is refused
   * (UnsettledTopLevelAwait): nothing could settle it before the first call.
   */
  load(file: string): Record<string, unknown> {
    if (!isEsm(file)) {
      const exports = this.require(file);
      return { ...(exports && typeof exports === 'object' ? exports : {}), default: exports };
    }
    const plan = this.asFunctions ? this.planOf(file) : null;
    if (plan !== null) {
      const graph = instantiateGraph(plan, {
        realm: this.host.realm,
        synthetic: (target, from) => this.syntheticExports(target, from),
        drain: () => this.host.drain(),
        dynamicImports: () => this.dynamicImports,
      });
      if (graph !== 'module-path') {
        for (const [f, ns] of graph.namespaces) this.functions.set(f, ns);
        return graph.root as Record<string, unknown>;
      }
    }
    return this.loadModule(file);
  }

  private planOf(root: string): GraphPlan | null {
    let plan = plans.get(root);
    if (plan === undefined) {
      plan = planGraph(root, { resolve: resolveSpecifier, isEsm, functionOf: (f) => this.functionOf(f) });
      plans.set(root, plan);
    }
    return plan;
  }

  /** `file` as a function (esm-function.ts), once V8 compiled it as a module: null when it stays a module. */
  private functionOf(file: string): { fn: EsmFunction; source: Source } | null {
    const source = sourceOf(file);
    if (source.compiles === undefined) {
      try {
        this.compileModule(file, source);
        source.compiles = true;
      } catch {
        source.compiles = false;
      }
    }
    if (!source.compiles) return null;
    source.analysis ??= analyzeModule(source.text);
    return source.analysis.ok ? { fn: source.analysis.fn, source } : null;
  }

  /** The module path: a vm.SourceTextModule per module of the graph. */
  private loadModule(file: string): Record<string, unknown> {
    const m = this.esmModule(file);
    this.linkNow(m);
    let state = 'pending' as 'pending' | 'done' | 'failed';
    let failure: unknown = null;
    if (m.status === 'linked') {
      m.evaluate().then(() => { state = 'done'; }, (err: unknown) => { state = 'failed'; failure = err; });
      this.host.drain();
    } else if (m.status === 'evaluated') {
      state = 'done';
    }
    if (m.status === 'errored') throw m.error;
    if (state === 'failed') throw failure;
    if (state === 'pending') throw new UnsettledTopLevelAwait(file);
    return m.namespace;
  }

  /** Links `m` and its graph before returning (see load). */
  private linkNow(m: VmModule): void {
    if (m.status !== 'unlinked') return;
    let failure: unknown = null;
    let failed = false;
    m.link((specifier: string, referrer: VmModule) => this.link(specifier, referrer)).catch((err: unknown) => { failed = true; failure = err; });
    this.host.drain();
    if (failed) throw failure;
    if (m.status === 'linking') throw new Error('lock-sim: a module graph did not link synchronously');
  }

  private link(specifier: string, referrer: VmModule): VmModule {
    const from = fileURLToPath(referrer.identifier);
    const target = resolveSpecifier(specifier, from);
    if (isEsm(target)) return this.esmModule(target);
    return this.syntheticOf(target, from);
  }

  private compileModule(file: string, source: Source): VmModule {
    const url = pathToFileURL(file).href;
    // Only the user-code worker (backends/worker) runs with --experimental-vm-modules: a caller
    // that ran a lock module in its own thread picked the wrong backend (default-backend.ts).
    if (vmModules.SourceTextModule === undefined) throw new Error(`lock-sim: ${file} is an ES module, which loads only in the user-code worker (Node's --experimental-vm-modules); run it through backends/default-backend.ts runSimulated, not runner's runVariant`);
    const m = new vmModules.SourceTextModule(source.text, {
      identifier: url,
      context: this.host.context,
      cachedData: source.dynamicImport ? undefined : source.cachedData,
      initializeImportMeta: (meta: any) => { meta.url = url; },
      importModuleDynamically: (specifier: string) => this.dynamicImport(specifier, file),
    });
    if (!source.cachedData && !source.dynamicImport) source.cachedData = m.createCachedData();
    return m;
  }

  private esmModule(file: string): VmModule {
    let m = this.esm.get(file);
    if (m) return m;
    m = this.compileModule(file, sourceOf(file));
    this.esm.set(file, m);
    return m;
  }

  private async dynamicImport(specifier: string, fromFile: string): Promise<VmModule> {
    this.dynamicImports++;
    const target = resolveSpecifier(specifier, fromFile);
    if (!isEsm(target)) {
      const s = this.syntheticOf(target, fromFile);
      if (s.status === 'unlinked') await s.link(() => { throw new Error('no imports'); });
      if (s.status === 'linked') void s.evaluate().catch(() => undefined);
      return s;
    }
    const instantiated = this.functions.get(target);
    if (instantiated !== undefined) return this.mirror(target, instantiated);
    const m = this.esmModule(target);
    if (m.status === 'unlinked') await m.link((sp: string, ref: VmModule) => this.link(sp, ref));
    if (m.status === 'linked') void m.evaluate().catch(() => undefined);
    if (m.status === 'errored') throw m.error;
    return m;
  }

  /**
   * A module that the graph instantiated as functions, imported dynamically (by CommonJS code):
   * a synthetic module of its namespace's values now, so import() gives the same instance (its
   * bindings as they are at the import; esm-graph.ts took it as a function only if no
   * importer's copy of them could go stale, which import() of it from CommonJS does not check).
   */
  private async mirror(file: string, namespace: object): Promise<VmModule> {
    const key = `mirror:${file}`;
    let m = this.synthetic.get(key);
    if (m === undefined) {
      const names = Object.keys(namespace);
      m = new vmModules.SyntheticModule!(names, function (this: any) {
        for (const n of names) this.setExport(n, (namespace as Record<string, unknown>)[n]);
      }, { identifier: key, context: this.host.context });
      this.synthetic.set(key, m);
    }
    if (m.status === 'unlinked') await m.link(() => { throw new Error('no imports'); });
    if (m.status === 'linked') void m.evaluate().catch(() => undefined);
    return m;
  }

  /** A builtin's view (`node:<name>`) or a CommonJS file's exports (run now, once), and its export names as of now. */
  private syntheticExports(target: string, fromFile: string): SyntheticExports {
    let s = this.syntheticValues.get(target);
    if (s === undefined) {
      const value = target.startsWith('node:') ? this.host.builtin(target.slice(5), fromFile, this) : this.require(target);
      const names = value !== null && (typeof value === 'object' || typeof value === 'function') ? Object.keys(value).filter((k) => k !== 'default' && EXPORT_NAME.test(k)) : [];
      s = { value, names: ['default', ...names] };
      this.syntheticValues.set(target, s);
    }
    return s;
  }

  private syntheticOf(target: string, fromFile: string): VmModule {
    let m = this.synthetic.get(target);
    if (m) return m;
    const { value, names } = this.syntheticExports(target, fromFile);
    m = new vmModules.SyntheticModule!(names, function (this: any) {
      for (const n of names) this.setExport(n, n === 'default' ? value : value[n]);
    }, { identifier: target.startsWith('node:') ? target : `cjs:${target}`, context: this.host.context });
    this.synthetic.set(target, m);
    return m;
  }

  /** The `require` of code in `file` (a CommonJS module's, or `module.createRequire(file)`'s). */
  requireFunction(file: string): any {
    let resolveFrom = nodeRequires.get(file);
    if (resolveFrom === undefined) nodeRequires.set(file, (resolveFrom = createRequire(file)));
    const req = (specifier: string): any => {
      const target = resolveSpecifier(String(specifier), file);
      if (target.startsWith('node:')) return this.host.builtin(target.slice(5), file, this);
      return this.require(target);
    };
    req.resolve = (specifier: string) => (isBuiltin(specifier) ? specifier : resolveFrom!.resolve(specifier));
    req.cache = Object.create(null);
    req.main = undefined;
    return req;
  }

  /** CommonJS `require` from the context: builtins, JSON, cached modules (cycles see the partial exports). */
  require(file: string): any {
    const known = this.cjs.get(file);
    if (known) return known.exports;
    if (file.endsWith('.json')) {
      const exports = JSON.parse(sourceOf(file).text);
      this.cjs.set(file, { exports, loaded: true });
      return exports;
    }
    if (isEsm(file)) {
      throw Object.assign(new Error(`require() of ES Module ${file} not supported (as in Node 20): import it instead`), { code: 'ERR_REQUIRE_ESM' });
    }
    const fn = this.host.realm.cjsFunction(file, sourceOf(file));
    const module = { exports: {} as any, id: file, filename: file, loaded: false, children: [], paths: [], path: dirname(file), require: null as any };
    const entry = { exports: module.exports, loaded: false };
    this.cjs.set(file, entry);
    const req = this.requireFunction(file);
    module.require = req;
    // A module that replaces module.exports while loading: later requires (cycles) see the new object.
    Object.defineProperty(module, 'exports', {
      get: () => entry.exports,
      set: (v) => { entry.exports = v; },
      enumerable: true,
    });
    fn.call(entry.exports, entry.exports, req, module, file, dirname(file));
    entry.loaded = true;
    module.loaded = true;
    return entry.exports;
  }
}
