/**
 * Whether a run's user code left a mark on its `vm` context's shared objects: the global
 * object, the built-in constructors and namespaces reachable from it (Object, Array, Promise,
 * Math, JSON, ...), their prototypes, and the objects the glue hands to user code (its
 * process, crypto, timers, performance, and its client classes). A context is kept for the
 * next run of the same module only when none of them changed (user-code.ts): a fresh module
 * instance in an unchanged context starts exactly as it would in a new context, so runs stay
 * independent of each other and of the order they run in.
 *
 * What is compared, per watched object: its [[Prototype]], whether it is extensible, and its
 * own keys in order with each property's attributes and value (by identity) or accessor
 * pair. Reading a descriptor runs no user getter. Objects of the host realm that the context
 * was given (console, Buffer, URL, ...) are compared as values of the global but not walked:
 * they are the host's, shared by every context alike.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

export class ContextWatch {
  private readonly objects: object[] = [];
  /** Per object, in `objects` order: prototype, extensible, key count, then per key: key, value/get, set, flags. */
  private readonly snapshot: unknown[] = [];
  /** Whether `objects[i]` is the global object (whose properties a contextified global's interceptors report: compared in full). */
  private readonly isGlobal: boolean[] = [];

  /**
   * `global` is the context's global object, `objectPrototype` its Object.prototype (what
   * tells the context's own objects from the host's), `extra` the glue's objects user code
   * can reach other than through the global.
   */
  constructor(global: object, objectPrototype: object, extra: readonly object[]) {
    const seen = new Set<object>();
    const own = (o: object): boolean => {
      for (let p: object | null = o; p !== null; p = Reflect.getPrototypeOf(p)) if (p === objectPrototype) return true;
      return false;
    };
    // The global's values, the plain objects under them (prototypes, namespaces like Math and
    // Intl, Symbol.unscopables) and the constructors among them (functions with a prototype
    // object); methods are values compared by identity, not walked.
    const watch = (o: object): void => {
      if (seen.has(o)) return;
      seen.add(o);
      this.objects.push(o);
      this.isGlobal.push(o === global);
      for (const key of Reflect.ownKeys(o)) {
        const v = Reflect.getOwnPropertyDescriptor(o, key)!.value;
        if (v === null || (typeof v !== 'object' && typeof v !== 'function') || !own(v)) continue;
        if (typeof v === 'object' || o === global || typeof Reflect.getOwnPropertyDescriptor(v, 'prototype')?.value === 'object') watch(v);
      }
      const proto = Reflect.getPrototypeOf(o);
      if (proto !== null && own(proto)) watch(proto);
    };
    watch(global);
    for (const o of extra) watch(o);
    for (const o of this.objects) this.record(o, this.snapshot);
  }

  private record(o: object, out: unknown[]): void {
    out.push(Reflect.getPrototypeOf(o), Reflect.isExtensible(o));
    const keys = Reflect.ownKeys(o);
    out.push(keys.length);
    for (const key of keys) {
      const d = Reflect.getOwnPropertyDescriptor(o, key)!;
      const flags = (d.enumerable ? 1 : 0) | (d.configurable ? 2 : 0) | (d.writable ? 4 : 0) | ('value' in d ? 8 : 0);
      out.push(key, 'value' in d ? d.value : d.get, d.set, flags);
    }
  }

  /**
   * Every watched object reads as it did when the watch was made. Compared in place, against
   * the snapshot. A property that was a non-configurable, non-writable data property is not
   * read again: its key is still there (compared in order), and ECMAScript's invariants of
   * ordinary objects (ECMA-262 6.1.7.3, Invariants of the Essential Internal Methods) keep
   * such a property's value and attributes as they were. Not reading it matters: a sloppy-mode
   * function's `arguments` and `caller` are such properties, and V8 computes their value by
   * walking the stack at every read (measured on Node 20.20.2: about half of this check's
   * time on the twin scenario, about 570 such functions a realm). The global object, whose
   * properties a contextified global's interceptors report, is compared in full.
   */
  unchanged(): boolean {
    const before = this.snapshot;
    let i = 0;
    const same = (a: unknown): boolean => {
      const b = before[i++];
      // NaN stays NaN (a global's value): Object.is.
      return a === b || (a !== a && b !== b);
    };
    const objects = this.objects;
    for (let n = 0; n < objects.length; n++) {
      const o = objects[n];
      if (!same(Reflect.getPrototypeOf(o)) || !same(Reflect.isExtensible(o))) return false;
      const keys = Reflect.ownKeys(o);
      if (!same(keys.length)) return false;
      const full = this.isGlobal[n];
      for (const key of keys) {
        if (before[i] !== key) return false;
        const flags = before[i + 3] as number;
        if (!full && (flags & 14) === 8) {
          i += 4; // a non-configurable, non-writable data property: as it was
          continue;
        }
        i++;
        const d = Reflect.getOwnPropertyDescriptor(o, key)!;
        const isData = 'value' in d;
        if (!same(isData ? d.value : d.get) || !same(d.set)) return false;
        if (!same((d.enumerable ? 1 : 0) | (d.configurable ? 2 : 0) | (d.writable ? 4 : 0) | (isData ? 8 : 0))) return false;
      }
    }
    return i === before.length;
  }
}
