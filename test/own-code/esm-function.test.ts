/**
 * An ES module's function form (src/own-code/esm-function.ts): what it imports and exports as
 * ECMA-262 lists them, every line and column of the rest of the file kept (a stack frame of the
 * function names the module's own position), and each reason to leave a module to the module
 * path, next to a module that has none.
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { analyzeModule, type EsmFunction } from '../../src/own-code/esm-function.js';

function fnOf(text: string): EsmFunction {
  const a = analyzeModule(text);
  if (!a.ok) throw new Error(`declined: ${a.ineligible}`);
  return a.fn;
}

const MODULE = [
  "#!/usr/bin/env node",
  "import def, { a as b, 'quoted name' as q } from './dep.mjs';",
  "import * as ns from 'node:crypto';",
  "import './side-effect.mjs';",
  "export { x as y } from './dep.mjs';",
  "export * from './stars.mjs';",
  "export * as all from './dep.mjs';",
  "export const c = 1, { d, e: [f] } = { d: 2, e: [3] };",
  "export let counter = 0; counter += 1;",
  "export function later() { counter = 10; }",
  "export class K {}",
  "const hidden = import.meta.url;",
  "export { hidden as 'shown name', b as rebound };",
  "export default (() => hidden);",
].join('\n');

describe('an ES module as a function', () => {
  it('lists its requests in order, once each, its imports and its exports', () => {
    const fn = fnOf(MODULE);
    expect(fn.requests).toEqual(['./dep.mjs', 'node:crypto', './side-effect.mjs', './stars.mjs']);
    expect(fn.imports).toEqual([
      { local: 'def', specifier: './dep.mjs', imported: 'default' },
      { local: 'b', specifier: './dep.mjs', imported: 'a' },
      { local: 'q', specifier: './dep.mjs', imported: 'quoted name' },
      { local: 'ns', specifier: 'node:crypto', imported: null },
    ]);
    expect(fn.exports).toEqual([
      { kind: 'indirect', exported: 'y', specifier: './dep.mjs', imported: 'x' },
      { kind: 'star', specifier: './stars.mjs' },
      { kind: 'namespace', exported: 'all', specifier: './dep.mjs' },
      { kind: 'local', exported: 'c', local: 'c' },
      { kind: 'local', exported: 'd', local: 'd' },
      { kind: 'local', exported: 'f', local: 'f' },
      { kind: 'local', exported: 'counter', local: 'counter' },
      { kind: 'local', exported: 'later', local: 'later' },
      { kind: 'local', exported: 'K', local: 'K' },
      { kind: 'local', exported: 'shown name', local: 'hidden' },
      { kind: 'local', exported: 'rebound', local: 'b' },
      { kind: 'default' },
    ]);
    // Assigned in a function (after the module ran): an importer's copy could go stale.
    expect([...fn.reassigned]).toEqual(['counter']);
    expect(fn.defaultNamesAnonymous).toBe(true);
  });

  it('keeps every line and column of the module: a frame of its function names its position in the file', () => {
    const text = MODULE + '\n' + ['function where() {', '  return new Error(\'here\');', '}', 'export const made = where();'].join('\n');
    const fn = fnOf(text);
    const f = new vm.Script(fn.source, { filename: 'file:///m.mjs', lineOffset: -1 }).runInNewContext() as (...args: unknown[]) => void;
    let exported: Array<() => unknown> = [];
    f(...fn.imports.map(() => ({})), { url: 'file:///m.mjs' }, () => undefined, (getters: Array<() => unknown>) => { exported = getters; });
    const made = exported[fn.exports.filter((e) => e.kind === 'local').findIndex((e) => e.kind === 'local' && e.exported === 'made')]() as Error;
    const line = text.split('\n').findIndex((l) => l.includes("new Error('here')")) + 1;
    const column = text.split('\n')[line - 1].indexOf('new Error') + 1;
    expect(made.stack).toContain(`file:///m.mjs:${line}:${column}`);
    // Lines with module syntax keep their length; the rest are the file's own lines. The one
    // exception: `export default <expression>` gains a parenthesis after its expression.
    const body = fn.source.split('\n').slice(1, -1);
    const lengths = text.split('\n').map((l) => l.length);
    lengths[14 - 1] += 1;
    expect(body.map((l) => l.length)).toEqual(lengths);
    expect(body[14 - 1]).toBe('__lsmDefault(  (() => hidden));');
    expect(body[12 - 1]).toBe('const hidden = __lsmMeta__.url;');
    expect(body[8 - 1]).toBe('       const c = 1, { d, e: [f] } = { d: 2, e: [3] };');
  });

  it('names an anonymous default function declaration through a binding of its own, in place', () => {
    const fn = fnOf('export default async function* () { yield 1; }\n');
    expect(fn.source.split('\n')[1]).toBe('async function* __lsmDfn       () { yield 1; }');
    expect(fn.exports).toEqual([{ kind: 'local', exported: 'default', local: '__lsmDfn' }]);
  });

  it.each([
    ['a top-level await', 'await Promise.resolve();', 'a top-level await'],
    ['a for await at the top', 'for await (const x of []) {}', 'a top-level await'],
    ['a dynamic import', 'export const m = () => import("./x.mjs");', 'a dynamic import()'],
    ['a direct eval', 'export const v = eval("1");', 'a direct eval'],
    ['arguments at the top', 'export const n = typeof arguments;', '`arguments` outside a function'],
    ['an HTML-like comment', 'export const n = 1;\n--> not a comment in a module', 'an HTML-like comment'],
    ['a name of lock-sim\'s', 'export const __lsmX = 1;', 'an identifier starting with __lsm'],
    ['an anonymous default class', 'export default class {}', 'an anonymous default class'],
    ['an assignment to an import', 'import { a } from "./a.mjs";\nexport function f() { a = 2; }', 'an assignment to the imported binding a'],
  ])('leaves a module with %s to the module path', (_what, text, reason) => {
    expect(analyzeModule(text)).toEqual({ ok: false, ineligible: reason });
  });

  it('... while the same code inside functions, and arguments of a function, are no reason', () => {
    const a = analyzeModule('export async function f() { await g(); for await (const x of []) {} return arguments.length; }\nexport default class Named {}\n');
    expect(a.ok).toBe(true);
  });

  it('leaves what acorn cannot parse to V8, whose error the module path reports', () => {
    expect(analyzeModule('export const = 1;')).toMatchObject({ ok: false, ineligible: expect.stringMatching(/^acorn: /) });
  });
});
