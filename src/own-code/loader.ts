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
 * Every file is parsed once per process: V8 code cache (`cachedData`) per file, made on the
 * first load, so later runs compile from it instead of parsing the packages again.
 */
import { readFileSync } from 'node:fs';
import { hasModuleSyntax, isTypeScript, stripTypes, typeScriptTwin } from './typescript.js';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** `vm.SourceTextModule` and friends: present when Node runs with --experimental-vm-modules. */
type VmModule = any;
const vmModules = vm as unknown as { SourceTextModule?: any; SyntheticModule?: any };


interface Source {
  text: string;
  cachedData?: Buffer;
  /** The file may call import(): V8's code cache loses the dynamic-import callback (measured on Node 20.20.2: "A dynamic import callback was not specified"), so it is compiled without one. */
  dynamicImport: boolean;
}
/** Per process: each file's text and its V8 code cache. */
const sources = new Map<string, Source>();

function sourceOf(file: string): Source {
  let s = sources.get(file);
  if (!s) {
    const raw = readFileSync(file, 'utf8');
    const text = isTypeScript(file) ? stripTypes(raw, file) : raw;
    s = { text, dynamicImport: /\bimport\s*\(/.test(text) };
    sources.set(file, s);
  }
  return s;
}

const typeCache = new Map<string, string>();
/** The nearest package.json's "type" ("commonjs" when none). */
function packageType(dir: string): string {
  const known = typeCache.get(dir);
  if (known !== undefined) return known;
  let type = 'commonjs';
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    type = pkg.type === 'module' ? 'module' : 'commonjs';
  } catch {
    const parent = dirname(dir);
    type = parent === dir ? 'commonjs' : packageType(parent);
  }
  typeCache.set(dir, type);
  return type;
}

function isEsm(file: string): boolean {
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.mts')) return true;
  if (file.endsWith('.cjs') || file.endsWith('.cts') || file.endsWith('.json')) return false;
  if (packageType(dirname(file)) === 'module') return true;
  return isTypeScript(file) && hasModuleSyntax(sourceOf(file).text);
}

/** A package's "import" entry when `require.resolve` finds no CommonJS one (an import-only package). */
function resolveImportOnly(specifier: string, fromFile: string): string | null {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const subpath = '.' + specifier.slice(name.length);
  for (let dir = dirname(fromFile); ; dir = dirname(dir)) {
    const pkgDir = join(dir, 'node_modules', name);
    let pkg: any = null;
    try {
      pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    } catch {
      pkg = null;
    }
    if (pkg) {
      let entry: any = typeof pkg.exports === 'object' && pkg.exports !== null && !Array.isArray(pkg.exports) && Object.keys(pkg.exports)[0]?.startsWith('.') ? pkg.exports[subpath] : subpath === '.' ? pkg.exports : undefined;
      for (let i = 0; i < 5 && entry && typeof entry === 'object'; i++) entry = entry.import ?? entry.node ?? entry.default;
      if (typeof entry === 'string') return join(pkgDir, entry);
      if (subpath === '.' && typeof pkg.module === 'string') return join(pkgDir, pkg.module);
      return null;
    }
    if (dirname(dir) === dir) return null;
  }
}

/** Where `specifier` imported from `fromFile` is: a file, or `node:<name>` for a builtin. */
function resolveSpecifier(specifier: string, fromFile: string): string {
  if (specifier.startsWith('node:')) return specifier;
  if (isBuiltin(specifier)) return `node:${specifier}`;
  if (specifier.startsWith('file:')) return fileURLToPath(specifier);
  try {
    return createRequire(fromFile).resolve(specifier);
  } catch (err) {
    // A TypeScript file imports another by the name of what it compiles to (`./x.js` for x.ts).
    const twin = /^[./]/.test(specifier) && isTypeScript(fromFile) ? typeScriptTwin(specifier) : null;
    if (twin !== null) {
      try {
        return createRequire(fromFile).resolve(twin);
      } catch {
        // not there either: the original error
      }
    }
    const found = /^[./]/.test(specifier) ? null : resolveImportOnly(specifier, fromFile);
    if (found) return found;
    throw err;
  }
}

interface LoaderHost {
  context: vm.Context;
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

/** One run's module graph in one context. */
export class ModuleLoader {
  private readonly esm = new Map<string, VmModule>();
  private readonly cjs = new Map<string, { exports: any; loaded: boolean }>();
  private readonly synthetic = new Map<string, VmModule>();

  constructor(private readonly host: LoaderHost) {}

  /** The files of the graph loaded so far. */
  files(): string[] {
    return [...this.esm.keys(), ...this.cjs.keys()];
  }

  /**
   * Loads `file` (ESM or CommonJS) and what it imports, links and evaluates it now, and gives
   * its namespace (CommonJS: `{ default: module.exports, ...keys }`). Linking is Node's
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
    if (target.startsWith('node:')) return this.syntheticOf(target, this.host.builtin(target.slice(5), from, this));
    if (isEsm(target)) return this.esmModule(target);
    return this.syntheticOf(`cjs:${target}`, this.require(target));
  }

  private esmModule(file: string): VmModule {
    let m = this.esm.get(file);
    if (m) return m;
    const source = sourceOf(file);
    const url = pathToFileURL(file).href;
    // Only the user-code worker (backends/worker) runs with --experimental-vm-modules: a caller
    // that ran a lock module in its own thread picked the wrong backend (default-backend.ts).
    if (vmModules.SourceTextModule === undefined) throw new Error(`lock-sim: ${file} is an ES module, which loads only in the user-code worker (Node's --experimental-vm-modules); run it through backends/default-backend.ts runSimulated, not runner's runVariant`);
    m = new vmModules.SourceTextModule(source.text, {
      identifier: url,
      context: this.host.context,
      cachedData: source.dynamicImport ? undefined : source.cachedData,
      initializeImportMeta: (meta: any) => { meta.url = url; },
      importModuleDynamically: (specifier: string) => this.dynamicImport(specifier, file),
    });
    if (!source.cachedData && !source.dynamicImport) source.cachedData = m.createCachedData();
    this.esm.set(file, m);
    return m;
  }

  private async dynamicImport(specifier: string, fromFile: string): Promise<VmModule> {
    const target = resolveSpecifier(specifier, fromFile);
    if (target.startsWith('node:')) {
      const s = this.syntheticOf(target, this.host.builtin(target.slice(5), fromFile, this));
      if (s.status === 'unlinked') await s.link(() => { throw new Error('no imports'); });
      if (s.status === 'linked') void s.evaluate().catch(() => undefined);
      return s;
    }
    if (!isEsm(target)) {
      const s = this.syntheticOf(`cjs:${target}`, this.require(target));
      if (s.status === 'unlinked') await s.link(() => { throw new Error('no imports'); });
      if (s.status === 'linked') void s.evaluate().catch(() => undefined);
      return s;
    }
    const m = this.esmModule(target);
    if (m.status === 'unlinked') await m.link((sp: string, ref: VmModule) => this.link(sp, ref));
    if (m.status === 'linked') void m.evaluate().catch(() => undefined);
    if (m.status === 'errored') throw m.error;
    return m;
  }

  private syntheticOf(key: string, value: any): VmModule {
    let m = this.synthetic.get(key);
    if (m) return m;
    const names = value !== null && (typeof value === 'object' || typeof value === 'function') ? Object.keys(value).filter((k) => k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k)) : [];
    m = new vmModules.SyntheticModule!(['default', ...names], function (this: any) {
      this.setExport('default', value);
      for (const n of names) this.setExport(n, value[n]);
    }, { identifier: key, context: this.host.context });
    this.synthetic.set(key, m);
    return m;
  }

  /** The `require` of code in `file` (a CommonJS module's, or `module.createRequire(file)`'s). */
  requireFunction(file: string): any {
    const resolveFrom = createRequire(file);
    const req = (specifier: string): any => {
      const target = resolveSpecifier(String(specifier), file);
      if (target.startsWith('node:')) return this.host.builtin(target.slice(5), file, this);
      return this.require(target);
    };
    req.resolve = (specifier: string) => (isBuiltin(specifier) ? specifier : resolveFrom.resolve(specifier));
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
    const source = sourceOf(file);
    const fn = vm.compileFunction(source.text.startsWith('#!') ? '//' + source.text : source.text, ['exports', 'require', 'module', '__filename', '__dirname'], {
      filename: file,
      parsingContext: this.host.context,
      cachedData: source.dynamicImport ? undefined : source.cachedData,
      produceCachedData: !source.cachedData && !source.dynamicImport,
      importModuleDynamically: ((specifier: string) => this.dynamicImport(specifier, file)) as any,
    }) as ((...args: any[]) => void) & { cachedData?: Buffer; cachedDataProduced?: boolean };
    if (!source.cachedData && fn.cachedDataProduced) source.cachedData = fn.cachedData;
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
