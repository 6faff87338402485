/**
 * An ES module graph loaded as functions (src/own-code/esm-graph.ts) gives what the module path
 * (vm.SourceTextModule) gives: for generated graphs of ES modules, CommonJS files and a
 * builtin, with every form of import and export, default exports of every kind, live and
 * reassigned bindings, ambiguous star exports, missing names, top-level awaits and load-time
 * continuations, both paths leave the same log (the order the modules ran and what each saw),
 * the same root namespace (names, values, what its functions return) or the same error. The
 * graphs the function path declines (esm-function.ts, esm-graph.ts say why) load as modules,
 * and a share of the generated ones must take the function path for the test to mean anything.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Load {
  names?: string[];
  tag?: string;
  extensible?: boolean;
  values?: string[];
  error?: string;
  log: string[];
  unhandled: string[];
  asFunctions: boolean;
}

let worker: Worker;
let seq = 0;
const waiting = new Map<number, { resolve: (r: { functions: Load; modules: Load }) => void; reject: (err: unknown) => void }>();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lock-sim-esm-graph-'));
  worker = new Worker(new URL('./harness/module-paths.mjs', import.meta.url), { execArgv: ['--experimental-vm-modules', '--no-warnings'] });
  worker.on('message', (m: { id: number; functions: Load; modules: Load }) => waiting.get(m.id)?.resolve(m));
  // A harness that dies fails the waiting load instead of leaving it pending.
  worker.on('error', (err) => { for (const w of waiting.values()) w.reject(err); });
});

afterAll(async () => {
  await worker.terminate();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the files of a graph into a folder of their own and loads its m0.mjs both ways. */
function loadBothWays(files: Record<string, string>): Promise<{ functions: Load; modules: Load }> {
  const id = ++seq;
  const folder = join(dir, `g${id}`);
  mkdirSync(folder);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, root: join(folder, 'm0.mjs') });
  });
}

// ---- a generated graph ----

type DefaultKind = 'none' | 'number' | 'anonymous-function' | 'arrow' | 'named-function' | 'anonymous-declaration' | 'anonymous-class' | 'parenthesized' | 'class-expression';
type ImportForm = 'default' | 'named' | 'missing' | 'namespace' | 'bare' | 'star' | 'reexport' | 'namespace-export';

interface ModuleSpec {
  defaultKind: DefaultKind;
  /** Exports `let l<i>` with a setter function: an importer's copy could go stale. */
  reassignedLater: boolean;
  /** Exports `dup` too: two star exports of it are ambiguous. */
  dup: boolean;
  topLevelAwait: boolean;
  /** Imports of later modules: [module index, form]. */
  imports: Array<[number, ImportForm]>;
  /** Imports of CommonJS files: [file index, form]. */
  cjs: Array<[number, 'default' | 'x' | 'missing' | 'namespace']>;
  builtin: 'none' | 'named' | 'namespace';
}

const DEFAULTS: Record<DefaultKind, (i: number) => string> = {
  none: () => '',
  number: (i) => `export default ${i} * 10;`,
  'anonymous-function': (i) => `export default function () { return 'anon ${i}'; }`,
  arrow: (i) => `export default (() => 'arrow ${i}');`,
  'named-function': (i) => `export default function named${i}() { return 'named ${i}'; }`,
  'anonymous-declaration': (i) => `export default async function () { return ${i}; }`,
  'anonymous-class': (i) => `export default class { static v = ${i}; }`,
  parenthesized: (i) => `export default (function () { return ${i}; });`,
  'class-expression': (i) => `export default (class { static v = ${i}; });`,
};

function moduleText(i: number, m: ModuleSpec, count: number, reassigned: boolean[]): string {
  const lines: string[] = [];
  const sees: string[] = [];
  for (const [j, form] of m.imports) {
    if (j <= i || j >= count) continue;
    const from = `'./m${j}.mjs'`;
    switch (form) {
      case 'default': lines.push(`import d${j} from ${from};`); sees.push(`typeof d${j} === 'function' ? d${j}.name : d${j}`); break;
      case 'named':
        lines.push(`import { c${j} as a${j}, f${j} } from ${from};`);
        sees.push(`a${j}`, `f${j}()`);
        // A copy of a binding its module reassigns later would go stale: the probe sets it, then reads it.
        if (reassigned[j]) lines.push(`import { l${j} as live${j}, set${j} } from ${from};`, `probes.push(() => { set${j}('set by m${i}'); return 'm${i} reads ' + live${j}; });`);
        break;
      case 'missing': lines.push(`import { nothing${j} } from ${from};`); sees.push(`nothing${j}`); break;
      case 'namespace': lines.push(`import * as ns${j} from ${from};`); sees.push(`Object.keys(ns${j}).join()`, `ns${j}.l${j}`); break;
      case 'bare': lines.push(`import ${from};`); break;
      case 'star': lines.push(`export * from ${from};`); break;
      case 'reexport': lines.push(`export { c${j} as r${i}_${j}, default as rd${i}_${j} } from ${from};`); break;
      case 'namespace-export': lines.push(`export * as sub${j} from ${from};`); break;
    }
  }
  for (const [k, form] of m.cjs) {
    const from = `'./c${k}.cjs'`;
    if (form === 'default') { lines.push(`import cjs${k} from ${from};`); sees.push(`cjs${k}.x`); }
    else if (form === 'x') { lines.push(`import { x as x${k} } from ${from};`); sees.push(`x${k}`); }
    else if (form === 'namespace') { lines.push(`import * as cns${k} from ${from};`); sees.push(`Object.keys(cns${k}).join()`); }
    else { lines.push(`import { z as z${k} } from ${from};`); sees.push(`z${k}`); }
  }
  if (m.builtin === 'named') { lines.push(`import { join } from 'node:path';`); sees.push(`join('a', 'b')`); }
  if (m.builtin === 'namespace') { lines.push(`import * as path from 'node:path';`); sees.push(`Object.keys(path).join()`); }
  lines.push(`log.push('m${i} starts');`);
  lines.push(`export const c${i} = ${i + 1};`);
  lines.push(`export let l${i} = ${i};`, `l${i} += 100;`);
  lines.push(`export function f${i}() { return 'f${i} ' + l${i}; }`);
  lines.push(`export class K${i} { static n = ${i}; }`);
  if (m.reassignedLater) lines.push(`export function set${i}(v) { l${i} = v; }`);
  if (m.dup) lines.push(`export const dup = 'dup of m${i}';`);
  lines.push(DEFAULTS[m.defaultKind](i));
  if (m.topLevelAwait) lines.push(`await Promise.resolve();`, `log.push('m${i} after its await');`);
  lines.push(`Promise.resolve().then(() => log.push('m${i} continuation'));`);
  lines.push(`log.push('m${i} sees ' + JSON.stringify([${sees.join(', ')}]));`);
  return lines.join('\n') + '\n';
}

const cjsText = (k: number, shape: 'object' | 'exports'): string =>
  [`log.push('c${k} runs');`, `Promise.resolve().then(() => log.push('c${k} continuation'));`,
    // Keys out of order: a namespace lists its names sorted.
    shape === 'object' ? `module.exports = { x: 'x of c${k}', y: ${k}, b: 'b' };` : `exports.x = 'x of c${k}'; exports.y = ${k}; exports.b = 'b';`].join('\n') + '\n';

const moduleSpec = fc.record({
  defaultKind: fc.constantFrom<DefaultKind>('none', 'number', 'anonymous-function', 'arrow', 'named-function', 'anonymous-declaration', 'anonymous-class', 'parenthesized', 'class-expression'),
  reassignedLater: fc.boolean(),
  dup: fc.boolean(),
  topLevelAwait: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  imports: fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom<ImportForm>('default', 'named', 'named', 'named', 'namespace', 'bare', 'star', 'star', 'reexport', 'namespace-export', 'missing')), { maxLength: 4 }),
  cjs: fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.constantFrom<'default' | 'x' | 'missing' | 'namespace'>('default', 'x', 'x', 'namespace', 'missing')), { maxLength: 2 }),
  builtin: fc.constantFrom<'none' | 'named' | 'namespace'>('none', 'named', 'namespace'),
});

const graph = fc.record({
  modules: fc.array(moduleSpec, { minLength: 1, maxLength: 5 }),
  cjsShapes: fc.tuple(fc.constantFrom<'object' | 'exports'>('object', 'exports'), fc.constantFrom<'object' | 'exports'>('object', 'exports')),
});

function filesOf(g: { modules: ModuleSpec[]; cjsShapes: ['object' | 'exports', 'object' | 'exports'] }): Record<string, string> {
  const files: Record<string, string> = {};
  // Most modules' setters are dropped: reassigned bindings are a reason to decline, not the rule.
  const reassigned = g.modules.map((m, i) => m.reassignedLater && i % 2 === 1);
  g.modules.forEach((m, i) => { files[`m${i}.mjs`] = moduleText(i, { ...m, reassignedLater: reassigned[i] }, g.modules.length, reassigned); });
  g.cjsShapes.forEach((shape, k) => { files[`c${k}.cjs`] = cjsText(k, shape); });
  return files;
}

describe('an ES module graph loaded as functions', () => {
  it('gives what the module path gives, on generated graphs, and takes the function path for most of them', async () => {
    let asFunctions = 0;
    let runs = 0;
    let probed = 0;
    await fc.assert(
      fc.asyncProperty(graph, async (g) => {
        const { functions, modules } = await loadBothWays(filesOf(g));
        runs++;
        if (functions.asFunctions) asFunctions++;
        if (modules.log.some((line) => / reads /.test(line))) probed++;
        expect(modules.asFunctions).toBe(false);
        expect({ ...functions, asFunctions: undefined }).toEqual({ ...modules, asFunctions: undefined });
      }),
      { numRuns: 400, seed: 20261207 },
    );
    expect(asFunctions).toBeGreaterThan(runs / 3);
    // Graphs where a module reads a binding another reassigns later, after the load.
    expect(probed).toBeGreaterThan(5);
  });

  it('... on hand-written graphs: a diamond, a chain of re-exports, an ambiguous star, a missing CommonJS name', async () => {
    const cases: Array<Record<string, string>> = [
      {
        'm0.mjs': `import { a } from './m1.mjs'; import { b } from './m2.mjs'; import * as all from './m3.mjs';\nlog.push(['m0', a, b, Object.keys(all).join()].join(' '));\nexport { a, b };\nexport default all;\n`,
        'm1.mjs': `import { shared } from './m3.mjs';\nexport const a = 'a+' + shared;\nlog.push('m1');\n`,
        'm2.mjs': `import { shared } from './m3.mjs';\nexport const b = 'b+' + shared;\nlog.push('m2');\n`,
        'm3.mjs': `export let shared = 's'; shared += '!';\nlog.push('m3');\n`,
      },
      {
        'm0.mjs': `export * from './m1.mjs';\nexport { z as renamed } from './m1.mjs';\n`,
        'm1.mjs': `export * from './m2.mjs';\nexport const z = 'z';\n`,
        'm2.mjs': `export const deep = 'deep'; export default 'not re-exported by a star';\n`,
      },
      {
        'm0.mjs': `export * from './m1.mjs'; export * from './m2.mjs';\nexport const own = 1;\n`,
        'm1.mjs': `export const same = 1; export const one = 1;\n`,
        'm2.mjs': `export const same = 2; export const two = 2;\n`,
      },
      {
        'm0.mjs': `import { missing } from './c0.cjs';\nlog.push(String(missing));\n`,
        'c0.cjs': `log.push('c0 runs'); module.exports = { present: 1 };\n`,
      },
      {
        'm0.mjs': `import { l1 as live1, set1 } from './m1.mjs';\nprobes.push(() => { set1('set later'); return 'm0 reads ' + live1; });\n`,
        'm1.mjs': `export let l1 = 'as loaded';\nexport function set1(v) { l1 = v; }\n`,
      },
      {
        // CommonJS code that imports a module of the graph while it loads: the graph's own instance.
        'm0.mjs': `import * as m1 from './m1.mjs';\nimport './c0.cjs';\nlog.push('m0 sees ' + m1.n);\nprobes.push(() => 'n is ' + m1.n);\n`,
        'm1.mjs': `log.push('m1 runs');\nexport let n = 0;\nexport function inc() { n++; return n; }\n`,
        'c0.cjs': `log.push('c0 runs');\nimport('./m1.mjs').then((ns) => log.push('c0 imported, inc ' + ns.inc() + ', n ' + ns.n));\n`,
      },
    ];
    const took: boolean[] = [];
    for (const files of cases) {
      const { functions, modules } = await loadBothWays(files);
      took.push(functions.asFunctions);
      expect({ ...functions, asFunctions: undefined }).toEqual({ ...modules, asFunctions: undefined });
    }
    // The diamond, the re-exports and the ambiguous star (left out of the namespace) take the
    // function path; the missing CommonJS name goes back to the module path, whose linking
    // fails, and so do an import of a binding its module reassigns after loading and a graph
    // whose CommonJS code called import() while it loaded.
    expect(took).toEqual([true, true, true, false, false, false]);
  });
});
