/**
 * An ES module graph instantiated as functions (esm-function.ts, realm-code.ts) for one
 * process, in the order V8 and Node's vm modules give the module path (loader.ts), so both
 * paths run the same code at the same points:
 * - plan: the graph of ES modules from the root, each made a function, with no cycle, and
 *   every name an importer takes from another ES module found, not ambiguous, and never
 *   reassigned later (the importer holds a copy); else null, and the module path loads it;
 * - link: the graph's CommonJS files run and the builtins' views are made in the order Node's
 *   `SourceTextModule.link` calls its linker (node v20 lib/internal/vm/module.js kLink: a
 *   module's requests in order, then, a microtask later, those of each module it linked:
 *   breadth first); a name a CommonJS file or builtin does not export sends the graph back
 *   to the module path (whose linking then throws V8's own SyntaxError), before any ES
 *   module has run;
 * - evaluate: each module after the modules it requests, in request order (ECMA-262
 *   16.2.1.5.3.1 InnerModuleEvaluation), a builtin's or CommonJS file's namespace taken when
 *   its turn comes (vm.SyntheticModule's evaluation steps read the values then).
 * Namespace properties are getters here where V8's are data properties: a module that reads
 * a namespace's property descriptors sees accessors.
 */
import { pathToFileURL } from 'node:url';
import type { EsmFunction, ExportEntry } from './esm-function.js';
import type { RealmCode, RealmHelpers } from './realm-code.js';
import type { Source } from './module-resolution.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

interface GraphDep {
  specifier: string;
  /** A file, or `node:<name>`. */
  target: string;
  esm: boolean;
}

interface EsmNode {
  file: string;
  url: string;
  fn: EsmFunction;
  /** Its text and code caches (the function form's cache among them). */
  source: Source;
  deps: GraphDep[];
}

/** The file (or `node:<name>`) a node's import or export specifier resolved to (each specifier is one dependency). */
function targetOf(node: EsmNode, specifier: string): string {
  return node.deps.find((d) => d.specifier === specifier)!.target;
}

export interface GraphPlan {
  root: EsmNode;
  nodes: Map<string, EsmNode>;
}

/** What planning asks of the loader (module-resolution.ts). */
interface PlanHost {
  resolve(specifier: string, fromFile: string): string;
  isEsm(file: string): boolean;
  /** The module's function form and its source, or null when it stays a module. */
  functionOf(file: string): { fn: EsmFunction; source: Source } | null;
}

/** A builtin's or CommonJS file's exports as a synthetic module gives them (loader.ts syntheticExports). */
export interface SyntheticExports {
  value: any;
  /** Its export names: 'default' first, then the value's own identifier-named keys when it was linked. */
  names: string[];
}

/** What instantiation asks of the loader. */
interface InstantiateHost {
  realm: RealmCode;
  /** Runs the CommonJS file now or makes the builtin's view (once per process), and its export names. */
  synthetic(target: string, fromFile: string): SyntheticExports;
  /** Runs the promise continuations queued so far. */
  drain(): void;
  /** How many import() calls the process's code has made so far. */
  dynamicImports(): number;
}

/** An instantiated graph: each file's module namespace, the root's first. */
interface Instantiated {
  root: object;
  namespaces: Map<string, object>;
}

type Resolution = { kind: 'binding'; node: EsmNode; local: string } | { kind: 'default'; node: EsmNode } | { kind: 'namespace'; target: string } | { kind: 'synthetic'; target: string; name: string } | 'ambiguous' | null;

function sameResolution(a: Resolution, b: Resolution): boolean {
  if (a === null || b === null || a === 'ambiguous' || b === 'ambiguous') return a === b;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'binding' && b.kind === 'binding') return a.node === b.node && a.local === b.local;
  if (a.kind === 'default' && b.kind === 'default') return a.node === b.node;
  if (a.kind === 'namespace' && b.kind === 'namespace') return a.target === b.target;
  return a.kind === 'synthetic' && b.kind === 'synthetic' && a.target === b.target && a.name === b.name;
}

/** Where the module graph's export `name` of `target` lives (ECMA-262 16.2.1.6.3 ResolveExport); synthetic names as `names` lists them. */
function resolveExport(target: string, name: string, nodes: Map<string, EsmNode>, syntheticNames: ((target: string) => string[] | null), seen: Set<string> = new Set()): Resolution {
  const node = nodes.get(target);
  if (node === undefined) {
    const names = syntheticNames(target);
    if (names === null) return { kind: 'synthetic', target, name };
    return names.includes(name) ? { kind: 'synthetic', target, name } : null;
  }
  const key = `${target}\u0000${name}`;
  if (seen.has(key)) return null;
  seen.add(key);
  const depOf = (specifier: string): string => targetOf(node, specifier);
  for (const e of node.fn.exports) {
    if (e.kind === 'local' && e.exported === name) {
      const imported = node.fn.imports.find((i) => i.local === e.local);
      if (imported === undefined) return { kind: 'binding', node, local: e.local };
      if (imported.imported === null) return { kind: 'namespace', target: depOf(imported.specifier) };
      return resolveExport(depOf(imported.specifier), imported.imported, nodes, syntheticNames, seen);
    }
    if (e.kind === 'default' && name === 'default') return { kind: 'default', node };
    if (e.kind === 'indirect' && e.exported === name) return resolveExport(depOf(e.specifier), e.imported, nodes, syntheticNames, seen);
    if (e.kind === 'namespace' && e.exported === name) return { kind: 'namespace', target: depOf(e.specifier) };
  }
  if (name === 'default') return null;
  let star: Resolution = null;
  for (const e of node.fn.exports) {
    if (e.kind !== 'star') continue;
    const r = resolveExport(depOf(e.specifier), name, nodes, syntheticNames, seen);
    if (r === 'ambiguous') return r;
    if (r === null) continue;
    if (star === null) star = r;
    else if (!sameResolution(star, r)) return 'ambiguous';
  }
  return star;
}

/** The names a module exports (ECMA-262 16.2.1.6.2 GetExportedNames), before ambiguous ones are dropped. */
function exportedNames(target: string, nodes: Map<string, EsmNode>, syntheticNames: (target: string) => string[] | null, seen: Set<string> = new Set()): string[] {
  const node = nodes.get(target);
  if (node === undefined) return syntheticNames(target) ?? [];
  if (seen.has(target)) return [];
  seen.add(target);
  const names: string[] = [];
  for (const e of node.fn.exports) {
    if (e.kind === 'local' || e.kind === 'indirect' || e.kind === 'namespace') names.push(e.exported);
    else if (e.kind === 'default') names.push('default');
  }
  for (const e of node.fn.exports) {
    if (e.kind !== 'star') continue;
    const dep = targetOf(node, e.specifier);
    for (const n of exportedNames(dep, nodes, syntheticNames, seen)) if (n !== 'default' && !names.includes(n)) names.push(n);
  }
  return names;
}

/** A resolution an importer may hold a copy of: a binding assigned only while its module ran, or a value that never changes. */
function stable(r: Resolution): boolean {
  if (r === null || r === 'ambiguous') return false;
  return r.kind !== 'binding' || !r.node.fn.reassigned.has(r.local);
}

/** Every name taken from another module resolves, is not ambiguous and does not change: checked once synthetic names are known (null: not yet, which passes). */
function namesHold(nodes: Map<string, EsmNode>, syntheticNames: (target: string) => string[] | null): boolean {
  for (const node of nodes.values()) {
    const depOf = (specifier: string): string => targetOf(node, specifier);
    for (const i of node.fn.imports) {
      if (i.imported === null) continue;
      if (!stable(resolveExport(depOf(i.specifier), i.imported, nodes, syntheticNames))) return false;
    }
    for (const e of node.fn.exports) {
      // V8 resolves every indirect export when it links, used or not.
      if (e.kind === 'indirect' && resolveExport(depOf(e.specifier), e.imported, nodes, syntheticNames) === null) return false;
    }
  }
  return true;
}

/** The graph from `root` as functions, or null when it must load as modules (what planning checks is at the top of this file). */
export function planGraph(root: string, host: PlanHost): GraphPlan | null {
  const nodes = new Map<string, EsmNode>();
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: string): EsmNode | null => {
    const form = host.functionOf(file);
    if (form === null) return null;
    const { fn, source } = form;
    const node: EsmNode = { file, url: pathToFileURL(file).href, fn, source, deps: [] };
    nodes.set(file, node);
    state.set(file, 'visiting');
    for (const specifier of fn.requests) {
      let target: string;
      try {
        target = host.resolve(specifier, file);
      } catch {
        return null; // the module path throws Node's resolution error, at its point of linking
      }
      const esm = host.isEsm(target);
      node.deps.push({ specifier, target, esm });
      if (!esm) continue;
      const s = state.get(target);
      if (s === 'visiting') return null; // a cycle
      if (s === undefined && visit(target) === null) return null;
    }
    state.set(file, 'done');
    return node;
  };
  const rootNode = visit(root);
  if (rootNode === null) return null;
  if (!namesHold(nodes, () => null)) return null;
  return { root: rootNode, nodes };
}

/**
 * Links and evaluates the plan for one process: each file's namespace, or 'module-path' when
 * a name taken from a builtin or CommonJS file is not there, or when CommonJS code called
 * import() while it loaded (the module path gives that import the graph's own instance). Both
 * are known before any ES module ran; the CommonJS files that ran stay in the loader's cache,
 * and a dynamic import's module in its module map, so the module path runs neither again.
 */
export function instantiateGraph(plan: GraphPlan, host: InstantiateHost): Instantiated | 'module-path' {
  const { nodes } = plan;
  const importsBefore = host.dynamicImports();
  const synthetic = linkGraph(plan, host);
  if (host.dynamicImports() !== importsBefore) return 'module-path';
  const syntheticNames = (target: string): string[] | null => synthetic.get(target)?.names ?? null;
  // Without a CommonJS file or builtin in the graph, this is the check planGraph passed already.
  if (synthetic.size > 0 && !namesHold(nodes, syntheticNames)) return 'module-path';

  // Evaluate: depth first, post-order.
  const { helpers } = host.realm;
  const namespaces = new Map<string, object>();
  const namespaceOf = (target: string): Record<string, unknown> => namespaces.get(target) as Record<string, unknown>;
  const evaluate = (target: string): void => {
    if (namespaces.has(target)) return;
    const node = nodes.get(target);
    if (node === undefined) {
      const s = synthetic.get(target)!;
      const names = [...s.names].sort();
      namespaces.set(target, helpers.namespace(names, names.map((n) => helpers.constant(n === 'default' ? s.value : s.value[n]))));
      return;
    }
    for (const dep of node.deps) evaluate(dep.target);
    const depNamespace = (specifier: string): Record<string, unknown> => namespaceOf(targetOf(node, specifier));
    const args: unknown[] = node.fn.imports.map((i) => (i.imported === null ? depNamespace(i.specifier) : depNamespace(i.specifier)[i.imported]));
    let locals: Array<() => unknown> = [];
    const [setDefault, getDefault] = helpers.defaultCell(node.fn.defaultNamesAnonymous);
    const takeExports = (getters: Array<() => unknown>, anonymousDefault?: unknown): void => {
      locals = getters;
      if (anonymousDefault !== undefined) helpers.nameDefault(anonymousDefault);
    };
    args.push(helpers.meta(node.url), setDefault, takeExports);
    host.realm.esmFunction(node.file, node.url, node.fn, node.source)(...args);
    namespaces.set(target, namespaceObject(node, locals, getDefault, depNamespace, nodes, syntheticNames, helpers));
  };
  evaluate(plan.root.file);
  // What the modules' code set off runs now, as after the module path's evaluate().
  host.drain();
  const esmNamespaces = new Map<string, object>();
  for (const file of nodes.keys()) esmNamespaces.set(file, namespaceOf(file));
  return { root: namespaceOf(plan.root.file), namespaces: esmNamespaces };
}

/**
 * Runs the graph's CommonJS files and makes its builtins' views in the order the module path's
 * linker runs them, promise continuations that their code queues included: Node 20's
 * `SourceTextModule.link` (lib/internal/vm/module.js kLink) calls the linker for each of a
 * module's requests in order, each call in an async callback that awaits the linker's answer
 * (one microtask) and then links that module's own requests; the loader drains the queue
 * after linking. The same awaits here give the same interleaving.
 */
function linkGraph(plan: GraphPlan, host: InstantiateHost): Map<string, SyntheticExports> {
  const synthetic = new Map<string, SyntheticExports>();
  const started = new Set<string>([plan.root.file]);
  const link = async (node: EsmNode): Promise<void> => {
    await Promise.all(node.deps.map(async (dep) => {
      if (!dep.esm && !synthetic.has(dep.target)) synthetic.set(dep.target, host.synthetic(dep.target, node.file));
      await dep; // the linker's answer, awaited
      if (dep.esm && !started.has(dep.target)) {
        started.add(dep.target);
        await link(plan.nodes.get(dep.target)!);
      }
    }));
  };
  let failed = false;
  let failure: unknown = null;
  link(plan.root).catch((err: unknown) => {
    failed = true;
    failure = err;
  });
  host.drain();
  if (failed) throw failure;
  return synthetic;
}

/** The module's namespace: its export names (ambiguous star names left out), each read live. */
function namespaceObject(node: EsmNode, locals: Array<() => unknown>, getDefault: () => unknown, depNamespace: (specifier: string) => Record<string, unknown>, nodes: Map<string, EsmNode>, syntheticNames: (target: string) => string[] | null, helpers: RealmHelpers): object {
  const getters = new Map<string, () => unknown>();
  let local = 0;
  for (const e of node.fn.exports) {
    if (e.kind === 'local') getters.set(e.exported, locals[local++]);
    else if (e.kind === 'default') getters.set('default', getDefault);
    else if (e.kind === 'indirect') getters.set(e.exported, helpers.reader(depNamespace(e.specifier), e.imported));
    else if (e.kind === 'namespace') getters.set(e.exported, helpers.constant(depNamespace(e.specifier)));
  }
  for (const name of exportedNames(node.file, nodes, syntheticNames)) {
    if (getters.has(name)) continue;
    const r = resolveExport(node.file, name, nodes, syntheticNames);
    if (r === null || r === 'ambiguous') continue;
    // A star export's name: read from the first star module that exports it (any other resolves to the same binding).
    const star = node.fn.exports.find((e) => e.kind === 'star' && resolveExport(targetOf(node, e.specifier), name, nodes, syntheticNames) !== null) as Extract<ExportEntry, { kind: 'star' }>;
    getters.set(name, helpers.reader(depNamespace(star.specifier), name));
  }
  const names = [...getters.keys()].sort();
  return helpers.namespace(names, names.map((n) => getters.get(n)!));
}
