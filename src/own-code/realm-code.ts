/**
 * A realm's compiled user code: each file of a user module compiled once in the realm's `vm`
 * context, as a function that the loader calls once per process (loader.ts), so that a new
 * process gets new module instances while V8 keeps the code it compiled and optimized for the
 * earlier processes of the realm (the type feedback of a function made by one compiled
 * function is shared by every closure it makes). CommonJS files are functions already
 * (Node's module wrapper); ES modules become functions when esm-function.ts can make them so.
 *
 * The objects user code can reach that the loader makes (module namespaces, their getters,
 * `import.meta`) are made by the realm's own helpers, so every one of them, and every function
 * among them, belongs to the realm, as V8's own module objects do.
 */
import vm from 'node:vm';
import type { EsmFunction } from './esm-function.js';
import type { Source } from './module-resolution.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** What the helpers make, in the realm. */
export interface RealmHelpers {
  /** A module namespace object (ECMA-262 10.4.6): null prototype, `names` in the order given, each read through its getter, @@toStringTag "Module", not extensible. */
  namespace(names: string[], getters: Array<() => unknown>): object;
  /** A getter of `object[name]`, read when called. */
  reader(object: any, name: string): () => unknown;
  /** A getter of a fixed value. */
  constant(value: unknown): () => unknown;
  /** The default export of `export default <expression>`: its setter (naming an anonymous function "default" when `names`) and its getter. */
  defaultCell(names: boolean): [(value: unknown) => void, () => unknown];
  /** Names the binding of an anonymous `export default function` "default", as ECMA-262 SetFunctionName does. */
  nameDefault(fn: unknown): void;
  /** `import.meta`: a null-prototype object with `url`. */
  meta(url: string): object;
}

/**
 * Compiled in each realm before any user code runs: it holds the realm's own Object functions,
 * so a module that changes `Object.defineProperty` later changes nothing here.
 */
const HELPERS_SCRIPT = new vm.Script(`(function () {
  'use strict';
  const create = Object.create, defineProperty = Object.defineProperty, preventExtensions = Object.preventExtensions;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor, toStringTag = Symbol.toStringTag;
  // An anonymous function definition's own name is '' (ECMA-262 SetFunctionName is skipped when a class has a static 'name').
  const nameAnonymous = (fn) => {
    if (typeof fn !== 'function') return;
    const own = getOwnPropertyDescriptor(fn, 'name');
    if (own === undefined || (own.value === '' && own.configurable)) defineProperty(fn, 'name', { value: 'default', configurable: true });
  };
  return {
    namespace(names, getters) {
      const ns = create(null);
      for (let i = 0; i < names.length; i++) defineProperty(ns, names[i], { get: getters[i], enumerable: true, configurable: false });
      defineProperty(ns, toStringTag, { value: 'Module' });
      preventExtensions(ns);
      return ns;
    },
    reader: (object, name) => () => object[name],
    constant: (value) => () => value,
    defaultCell(names) {
      let value;
      return [(v) => { if (names) nameAnonymous(v); value = v; }, () => value];
    },
    nameDefault: (fn) => defineProperty(fn, 'name', { value: 'default', configurable: true }),
    meta(url) {
      const m = create(null);
      m.url = url;
      return m;
    },
  };
})()`, { filename: 'lock-sim:own-code/realm-code.js' });

/** CommonJS's module wrapper parameters (Node lib/internal/modules/cjs/loader.js wrapSafe). */
const CJS_PARAMS = ['exports', 'require', 'module', '__filename', '__dirname'];

export class RealmCode {
  readonly helpers: RealmHelpers;
  private readonly esm = new Map<string, (...args: unknown[]) => void>();
  private readonly cjs = new Map<string, (...args: unknown[]) => void>();
  /** A compiled CommonJS file's import() goes to the process running in the realm now (its loader). */
  dynamicImport: ((specifier: string, fromFile: string) => Promise<unknown>) | null = null;

  constructor(private readonly context: vm.Context) {
    this.helpers = HELPERS_SCRIPT.runInContext(context) as RealmHelpers;
  }

  /** The function form of the ES module `file` (esm-function.ts), compiled in the realm once. */
  esmFunction(file: string, url: string, fn: EsmFunction, source: Source): (...args: unknown[]) => void {
    let f = this.esm.get(file);
    if (f === undefined) {
      const script = new vm.Script(fn.source, { filename: url, lineOffset: -1, cachedData: source.functionCache });
      if (source.functionCache === undefined || script.cachedDataRejected) source.functionCache = script.createCachedData();
      f = script.runInContext(this.context) as (...args: unknown[]) => void;
      this.esm.set(file, f);
    }
    return f;
  }

  /** The CommonJS file `file` as Node's module wrapper function, compiled in the realm once. */
  cjsFunction(file: string, source: Source): (...args: unknown[]) => void {
    let f = this.cjs.get(file);
    if (f === undefined) {
      const compiled = vm.compileFunction(source.text.startsWith('#!') ? '//' + source.text : source.text, CJS_PARAMS, {
        filename: file,
        parsingContext: this.context,
        cachedData: source.dynamicImport ? undefined : source.cachedData,
        produceCachedData: !source.cachedData && !source.dynamicImport,
        importModuleDynamically: ((specifier: string) => {
          if (this.dynamicImport === null) throw new Error('lock-sim: import() outside a process');
          return this.dynamicImport(specifier, file);
        }) as any,
      }) as ((...args: unknown[]) => void) & { cachedData?: Buffer; cachedDataProduced?: boolean };
      if (!source.cachedData && compiled.cachedDataProduced) source.cachedData = compiled.cachedData;
      f = compiled;
      this.cjs.set(file, f);
    }
    return f;
  }
}
