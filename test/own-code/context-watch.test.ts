/**
 * The watch that tells whether user code changed a vm context's shared objects
 * (src/own-code/context-watch.ts): a context is kept for the module's next run only when it
 * did not. Work that only uses the built-ins leaves the watch unchanged; a change to the global
 * object, to a built-in constructor, prototype or namespace, or to one of the glue's objects
 * does not.
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ContextWatch } from '../../src/own-code/context-watch.js';

function watched(): { run: (code: string) => unknown; watch: ContextWatch; extra: Record<string, unknown> } {
  const context = vm.createContext({ console });
  const extra = vm.runInContext('({ nextTick() {}, Sloppy: function Sloppy() { return Sloppy.caller; } })', context) as Record<string, unknown>;
  const [global, objectPrototype] = vm.runInContext('[globalThis, Object.prototype]', context) as [object, object];
  const watch = new ContextWatch(global, objectPrototype, [extra]);
  return { run: (code) => vm.runInContext(code, context), watch, extra };
}

describe('ContextWatch', () => {
  it('reads unchanged after code that only uses the built-ins (objects, arrays, promises, classes, regular expressions, errors)', () => {
    const { run, watch } = watched();
    run(`
      const m = new Map([[1, { a: [1, 2, 3] }]]);
      class Lock { constructor() { this.held = false; } }
      new Lock();
      /a(b)/.exec('ab');
      Promise.resolve(1).then((x) => x + 1);
      try { null.x; } catch (e) { String(e); }
      JSON.stringify({ m: [...m.keys()] });
      Math.max(1, 2);
      (function () { var local = 1; return local; })();
    `);
    expect(watch.unchanged()).toBe(true);
  });

  it.each([
    ['a new global', 'globalThis.seenRuns = 1'],
    ['a sloppy-mode global', 'leaked = 1'],
    ['a property of a built-in constructor', 'Error.__BluebirdErrorTypes__ = {}'],
    ['a changed static value', 'Error.stackTraceLimit = 50'],
    ['a prototype method', 'Array.prototype.last = function () { return this[this.length - 1]; }'],
    ['a replaced method', 'Promise.prototype.then = function () {}'],
    ['a namespace member', 'Math.random = () => 0.5'],
    ['a deleted global', 'delete globalThis.Reflect'],
    ['a frozen prototype', 'Object.freeze(Object.prototype)'],
    ['a changed [[Prototype]]', 'Object.setPrototypeOf(Map.prototype, null)'],
    ['a non-extensible namespace', 'Object.preventExtensions(JSON)'],
    ['a property of an Intl constructor', 'Intl.Collator.extra = 1'],
  ])('reads changed after %s', (_what, code) => {
    const { run, watch } = watched();
    run(code);
    expect(watch.unchanged()).toBe(false);
  });

  it('reads changed after a change to one of the glue objects it was given, unchanged after a call of it', () => {
    const a = watched();
    a.run('');
    (a.extra.nextTick as () => void)();
    expect(a.watch.unchanged()).toBe(true);
    const b = watched();
    b.extra.patched = true;
    expect(b.watch.unchanged()).toBe(false);
  });

  // A sloppy-mode function's `arguments` and `caller` are fixed properties the check does not read again (context-watch.ts).
  it('reads a sloppy-mode constructor of the glue unchanged after calls of it, changed after a change to it or to its prototype', () => {
    const a = watched();
    const Sloppy = a.extra.Sloppy as () => unknown;
    Sloppy();
    a.run('[1, 2].map(function (x) { return x; })');
    expect(a.watch.unchanged()).toBe(true);
    for (const change of [(f: any) => { f.extra = 1; }, (f: any) => { f.prototype.method = () => 0; }, (f: any) => { delete f.prototype.constructor; }]) {
      const b = watched();
      change(b.extra.Sloppy);
      expect(b.watch.unchanged()).toBe(false);
    }
  });
});
