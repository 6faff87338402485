/**
 * The house's one rule, checked on every file of src/: imports run one way, down the layers
 * ARCHITECTURE.md draws (type imports, dynamic imports and worker files started by URL
 * included), and no two files import each other through a chain of imports that run when a
 * module loads (a class and the interface of its collaborator in one folder, such as the
 * engine's Simulation and Process, may name each other's types). The layers are listed
 * here once; ARCHITECTURE.md must draw the same folders in the same order.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Bottom to top; the folders of one layer do not import each other. `.` is a file directly in src/. */
export const LAYERS: readonly (readonly string[])[] = [
  ['engine', 'version.ts'],
  ['spec', 'history'],
  ['world', 'checker'],
  ['variants', 'faults'],
  ['own-code'],
  ['workload'],
  ['runner'],
  ['backends'],
  ['scenario'],
  ['explore', 'shrink'],
  ['sweep'],
  ['agree'],
  ['report'],
  ['cli', 'bench'],
  ['index.ts'],
];

const SRC = resolve('src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

export interface Import {
  path: string;
  /** `import type` / `export type`, or every name imported with `type`: gone from the emitted JavaScript. */
  typeOnly: boolean;
}

/** What `file` imports from src/: static, type-only and dynamic imports, re-exports and worker files by URL. */
export function importsOf(file: string, text: string): Import[] {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamesTypes = !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly) && !clause?.name;
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: !!clause && (clause.isTypeOnly || allNamesTypes) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const allNamesTypes = !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || allNamesTypes });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    } else if (
      ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL' &&
      node.arguments?.length === 2 && ts.isStringLiteralLike(node.arguments[0]!) && /^\.{1,2}\/.*\.js$/.test(node.arguments[0].text) &&
      node.arguments[1]!.getText(source) === 'import.meta.url'
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found
    .filter((f) => f.specifier.startsWith('.'))
    .map((f) => ({ path: resolve(dirname(file), f.specifier).replace(/\.js$/, '.ts'), typeOnly: f.typeOnly }))
    .filter((i) => i.path.startsWith(SRC + sep));
}

/** A file's unit of the rule: its top folder under src/, or its own name for a file directly in src/. */
export const unitOf = (file: string): string => relative(SRC, file).split(sep)[0]!;

export interface Edge {
  from: string;
  to: string;
  typeOnly?: boolean;
}

/** The imports that break the layering: to a unit of a higher layer, to a peer of the same layer, or to a unit no layer names. */
export function upwardImports(edges: readonly Edge[], layers: readonly (readonly string[])[]): string[] {
  const rank = new Map<string, number>();
  layers.forEach((units, i) => units.forEach((u) => rank.set(u, i)));
  const broken: string[] = [];
  for (const { from, to } of edges) {
    const [a, b] = [unitOf(from), unitOf(to)];
    if (a === b) continue;
    const [ra, rb] = [rank.get(a), rank.get(b)];
    if (ra === undefined || rb === undefined) broken.push(`${relative(SRC, from)} -> ${relative(SRC, to)}: ${ra === undefined ? a : b} is in no layer`);
    else if (rb >= ra) broken.push(`${relative(SRC, from)} -> ${relative(SRC, to)}: ${a} (layer ${ra}) imports ${b} (layer ${rb})`);
  }
  return broken;
}

/** Every file cycle, each as the chain of files that closes it (Tarjan's strongly connected components). */
export function fileCycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) cycles.push(component.map((f) => relative(SRC, f)).sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

const files = sourceFiles(SRC);
const edges: Edge[] = files.flatMap((from) => importsOf(from, readFileSync(from, 'utf8')).map((i) => ({ from, to: i.path, typeOnly: i.typeOnly })));

describe('the import rule on src/', () => {
  it('names every folder of src/ in exactly one layer', () => {
    const units = [...new Set(files.map(unitOf))].sort();
    expect(units).toEqual(LAYERS.flat().slice().sort());
  });

  it('has no import that runs up a layer or across one', () => {
    expect(upwardImports(edges, LAYERS)).toEqual([]);
  });

  it('has no circle of files through the imports that run (a type import inside one folder may point back)', () => {
    expect(fileCycles(edges.filter((e) => !e.typeOnly))).toEqual([]);
  });

  it('is the layering ARCHITECTURE.md draws, in its order', () => {
    const drawing = readFileSync('ARCHITECTURE.md', 'utf8');
    const drawn = [...drawing.matchAll(/^src\/([a-z-]+)\//gm)].map((m) => m[1]);
    expect(drawn).toEqual(LAYERS.flat().filter((u) => !u.endsWith('.ts')));
  });
});

describe('the rule itself, on hand-made graphs', () => {
  const f = (path: string): string => join(SRC, path);
  const layers = [['engine'], ['world'], ['runner']];

  it('flags an import up a layer and one into a folder no layer names, and passes one down', () => {
    const broken = upwardImports(
      [
        { from: f('world/a.ts'), to: f('engine/b.ts') },
        { from: f('engine/b.ts'), to: f('runner/c.ts') },
        { from: f('runner/c.ts'), to: f('stray/d.ts') },
      ],
      layers,
    );
    expect(broken).toEqual(['engine/b.ts -> runner/c.ts: engine (layer 0) imports runner (layer 2)', 'runner/c.ts -> stray/d.ts: stray is in no layer']);
  });

  it('flags two peers of one layer that import each other', () => {
    expect(upwardImports([{ from: f('world/a.ts'), to: f('checker/b.ts') }], [['engine'], ['world', 'checker']])).toHaveLength(1);
  });

  it('finds a circle of three files and not a chain', () => {
    const [a, b, c] = [f('world/a.ts'), f('world/b.ts'), f('world/c.ts')];
    expect(fileCycles([{ from: a, to: b }, { from: b, to: c }, { from: c, to: a }])).toEqual([['world/a.ts', 'world/b.ts', 'world/c.ts']]);
    expect(fileCycles([{ from: a, to: b }, { from: b, to: c }])).toEqual([]);
  });

  it('reads type-only, dynamic and worker-URL imports, and which are gone from the JavaScript', () => {
    const text = [
      "import type { A } from '../engine/a.js';",
      "import { type B, c } from '../engine/b.js';",
      "import { type D } from '../engine/d.js';",
      "export type { E } from './e.js';",
      "const m = await import('./m.js');",
      "new Worker(new URL('./w.js', import.meta.url));",
      "let t: import('./t.js').T;",
    ].join('\n');
    expect(importsOf(f('world/x.ts'), text).map((i) => `${relative(SRC, i.path)}${i.typeOnly ? ' (type)' : ''}`)).toEqual([
      'engine/a.ts (type)',
      'engine/b.ts',
      'engine/d.ts (type)',
      'world/e.ts (type)',
      'world/m.ts',
      'world/w.ts',
      'world/t.ts (type)',
    ]);
  });
});
