/**
 * An ES module as a function: the module's text with its module syntax blanked out (every line
 * and column of the rest kept), compiled once per realm and called once per process. Each call
 * makes the module's bindings afresh (a new module instance, as the loader promises), while
 * every call shares V8's compiled code and its type feedback: a process's functions start
 * optimized instead of being compiled again from nothing in every process (measured on the
 * own-code twin: about a tenth of a module run's CPU time, most of it V8's optimizing compiler
 * re-optimizing the module's functions in every process).
 *
 * This is the transform Vite's module runner makes (vite 8.3 src/node/ssr/ssrTransform.ts:
 * imports hoisted, exports as getters), with one difference that keeps every position of the
 * file: imported bindings become the function's parameters instead of property reads, which
 * needs no rewriting of references but makes each import a copy taken when the module starts.
 * So a module is taken this way only when that copy is exactly what ESM would give
 * (analyze's `ineligible` says why not; the loader then links it as a vm.SourceTextModule):
 * - no top-level await (an async graph evaluates its modules in an interleaved order), and no
 *   dynamic import() (when its promise settles, counted in continuations, is the module
 *   path's own);
 * - every exported binding that an importer may copy is never assigned from inside a function
 *   or a class (assignments in top-level code run before any importer starts), and no imported
 *   binding is assigned (ESM throws there);
 * - no direct eval, no top-level `arguments`, no `<!--` / `-->` comments (a Script reads those
 *   as HTML-like comments, a module does not), no identifier starting `__lsm`;
 * - `export default class {}` without a name is left to the module path (its name).
 * The loader adds what needs the whole graph: no cycles, every imported name resolved.
 * The text is parsed by acorn 8.19.0 (the parser of webpack, Rollup 2 and Terser; pure
 * JavaScript, no dependency of its own); V8 compiles the module form first, so a syntax error
 * is reported by V8 as before.
 */
import { parse, type Node } from 'acorn';

/** How an import binds: the module's namespace, or one of its exports ('default' included). */
interface ImportBinding {
  local: string;
  specifier: string;
  /** The export name, or null for `import * as local`. */
  imported: string | null;
}

/** One export of the module, as ECMA-262 16.2.1.6 (ExportEntry records) lists them. */
export type ExportEntry =
  | { kind: 'local'; exported: string; local: string }
  | { kind: 'default' }
  | { kind: 'indirect'; exported: string; specifier: string; imported: string }
  | { kind: 'namespace'; exported: string; specifier: string }
  | { kind: 'star'; specifier: string };

export interface EsmFunction {
  /** The specifiers of import and export-from statements, first occurrences in source order (the module's [[RequestedModules]]). */
  requests: string[];
  imports: ImportBinding[];
  exports: ExportEntry[];
  /** Exported local bindings that code in a function or class may assign after the module ran: an importer's copy of one could go stale. */
  reassigned: Set<string>;
  /** `export default <expression>` names an anonymous function or class "default" (ECMA-262 NamedEvaluation). */
  defaultNamesAnonymous: boolean;
  /** The function's source: `(function (<imports>, __lsmMeta__, __lsmDefault, __lsmExports) {`, the module's lines, `})`. Compile it with lineOffset -1. */
  source: string;
}

export type Analysis = { ok: true; fn: EsmFunction } | { ok: false; ineligible: string };

/** The parameters after the imports: import.meta, the default export's setter, the exports' getters. */
const HOOK_PARAMS = ['__lsmMeta__', '__lsmDefault', '__lsmExports'] as const;
/** The binding of `export default function () {}`: a function declaration needs a name. */
const ANONYMOUS_DEFAULT = '__lsmDfn';

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyNode = Node & Record<string, any>;

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** The text with [start, end) overwritten by `text` and the rest of the range blanked, its line breaks kept. */
class Edits {
  private readonly chars: string[];
  constructor(source: string) {
    // UTF-16 code units, as acorn's offsets and V8's columns count them.
    this.chars = source.split('');
  }
  replace(start: number, end: number, text: string): void {
    for (let i = start; i < end; i++) if (!isLineBreak(this.chars[i])) this.chars[i] = ' ';
    if (text === '') return;
    // The new text takes the range's first characters; past the range's first line it would
    // move what follows on that line, so it goes there only when it fits.
    this.chars[start] = text + (isLineBreak(this.chars[start]) ? this.chars[start] : '');
    for (let i = start + 1; i < Math.min(end, start + text.length); i++) {
      if (isLineBreak(this.chars[i])) break;
      this.chars[i] = '';
    }
  }
  insert(at: number, text: string): void {
    this.chars[at] = text + (this.chars[at] ?? '');
  }
  toString(): string {
    return this.chars.join('');
  }
}

function isLineBreak(c: string | undefined): boolean {
  return c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';
}

const nameOf = (n: AnyNode): string => (n.type === 'Literal' ? String(n.value) : n.name);

/** The identifiers a binding or assignment pattern names. */
function patternNames(p: AnyNode | null, out: string[] = []): string[] {
  if (p === null) return out;
  switch (p.type) {
    case 'Identifier':
      out.push(p.name);
      break;
    case 'ObjectPattern':
      for (const prop of p.properties) patternNames(prop.type === 'RestElement' ? prop.argument : prop.value, out);
      break;
    case 'ArrayPattern':
      for (const e of p.elements) patternNames(e, out);
      break;
    case 'AssignmentPattern':
      patternNames(p.left, out);
      break;
    case 'RestElement':
      patternNames(p.argument, out);
      break;
    case 'ParenthesizedExpression':
      patternNames(p.expression, out);
      break;
    default:
      break; // a member expression assigns no binding
  }
  return out;
}

function declaredNames(decl: AnyNode): string[] {
  if (decl.type === 'VariableDeclaration') return decl.declarations.flatMap((d: AnyNode) => patternNames(d.id));
  return decl.id ? [decl.id.name] : [];
}

/** What a walk of the whole tree finds: the positions to rename and the reasons to decline. */
interface Found {
  meta: AnyNode[];
  dynamicImport: boolean;
  topLevelAwait: boolean;
  topLevelArguments: boolean;
  directEval: boolean;
  /** Names assigned inside a function or a class body. */
  assignedLater: Set<string>;
  /** Names assigned anywhere. */
  assigned: Set<string>;
}

function walk(node: AnyNode, inFunction: boolean, inOrdinaryFunction: boolean, found: Found): void {
  switch (node.type) {
    case 'MetaProperty':
      if (node.meta.name === 'import') found.meta.push(node);
      break;
    case 'ImportExpression':
      found.dynamicImport = true;
      break;
    case 'AwaitExpression':
      if (!inFunction) found.topLevelAwait = true;
      break;
    case 'ForOfStatement':
      if (node.await && !inFunction) found.topLevelAwait = true;
      break;
    case 'Identifier':
      if (node.name === 'arguments' && !inOrdinaryFunction) found.topLevelArguments = true;
      break;
    case 'CallExpression':
      if (node.callee.type === 'Identifier' && node.callee.name === 'eval') found.directEval = true;
      break;
    default:
      break;
  }
  const targets: AnyNode | null = node.type === 'AssignmentExpression' ? node.left : node.type === 'UpdateExpression' ? node.argument : (node.type === 'ForInStatement' || node.type === 'ForOfStatement') && node.left.type !== 'VariableDeclaration' ? node.left : null;
  if (targets !== null) {
    for (const name of patternNames(targets)) {
      found.assigned.add(name);
      if (inFunction) found.assignedLater.add(name);
    }
  }
  const entersFunction = FUNCTION_TYPES.has(node.type) || node.type === 'ClassBody';
  const fn = inFunction || entersFunction;
  const ordinary = inOrdinaryFunction || node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ClassBody';
  for (const key in node) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'range') continue;
    const v = node[key];
    if (Array.isArray(v)) {
      for (const c of v) if (c !== null && typeof c === 'object' && typeof c.type === 'string') walk(c, fn, ordinary, found);
    } else if (v !== null && typeof v === 'object' && typeof v.type === 'string') {
      walk(v, fn, ordinary, found);
    }
  }
}

/** Where the parameter list of a function declaration starting at `from` opens, comments skipped. */
function parenAfter(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text.startsWith('/*', i)) i = text.indexOf('*/', i + 2) + 1;
    else if (text.startsWith('//', i)) i = text.indexOf('\n', i);
    else if (text[i] === '(') return i;
    if (i <= 0) return -1;
  }
  return -1;
}

const no = (ineligible: string): Analysis => ({ ok: false, ineligible });

/** The module `text` as a function, or why it stays a module. */
export function analyzeModule(text: string): Analysis {
  if (text.includes('__lsm')) return no('an identifier starting with __lsm');
  if (text.includes('<!--') || /(^|[\n\r\u2028\u2029])[ \t]*-->/.test(text)) return no('an HTML-like comment');
  let program: AnyNode;
  try {
    // Parentheses kept as nodes: `export default (function () {})` starts at its parenthesis.
    program = parse(text, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, preserveParens: true }) as AnyNode;
  } catch (err) {
    return no(`acorn: ${(err as Error).message}`);
  }
  const found: Found = { meta: [], dynamicImport: false, topLevelAwait: false, topLevelArguments: false, directEval: false, assignedLater: new Set(), assigned: new Set() };
  walk(program, false, false, found);
  if (found.topLevelAwait) return no('a top-level await');
  if (found.dynamicImport) return no('a dynamic import()');
  if (found.topLevelArguments) return no('`arguments` outside a function');
  if (found.directEval) return no('a direct eval');

  const edits = new Edits(text);
  if (text.startsWith('#!')) edits.replace(0, text.search(/[\n\r\u2028\u2029]|$/), '');
  const requests: string[] = [];
  const request = (s: string): void => {
    if (!requests.includes(s)) requests.push(s);
  };
  const imports: ImportBinding[] = [];
  const exports: ExportEntry[] = [];
  let defaultNamesAnonymous = false;
  let anonymousDefaultFunction = false;

  for (const stmt of program.body as AnyNode[]) {
    switch (stmt.type) {
      case 'ImportDeclaration': {
        const specifier = String(stmt.source.value);
        request(specifier);
        for (const s of stmt.specifiers) {
          const imported = s.type === 'ImportNamespaceSpecifier' ? null : s.type === 'ImportDefaultSpecifier' ? 'default' : nameOf(s.imported);
          imports.push({ local: s.local.name, specifier, imported });
        }
        edits.replace(stmt.start, stmt.end, '');
        break;
      }
      case 'ExportNamedDeclaration': {
        if (stmt.declaration) {
          for (const name of declaredNames(stmt.declaration)) exports.push({ kind: 'local', exported: name, local: name });
          edits.replace(stmt.start, stmt.declaration.start, '');
          break;
        }
        if (stmt.source) {
          const specifier = String(stmt.source.value);
          request(specifier);
          for (const s of stmt.specifiers) exports.push({ kind: 'indirect', exported: nameOf(s.exported), specifier, imported: nameOf(s.local) });
        } else {
          for (const s of stmt.specifiers) exports.push({ kind: 'local', exported: nameOf(s.exported), local: nameOf(s.local) });
        }
        edits.replace(stmt.start, stmt.end, '');
        break;
      }
      case 'ExportAllDeclaration': {
        const specifier = String(stmt.source.value);
        request(specifier);
        exports.push(stmt.exported ? { kind: 'namespace', exported: nameOf(stmt.exported), specifier } : { kind: 'star', specifier });
        edits.replace(stmt.start, stmt.end, '');
        break;
      }
      case 'ExportDefaultDeclaration': {
        const d = stmt.declaration;
        if ((d.type === 'FunctionDeclaration' || d.type === 'ClassDeclaration') && d.id) {
          exports.push({ kind: 'local', exported: 'default', local: d.id.name });
          edits.replace(stmt.start, d.start, '');
        } else if (d.type === 'FunctionDeclaration') {
          // `export default function () {}`: a hoisted declaration named "default"; it gets a binding here.
          const paren = parenAfter(text, d.start);
          if (paren === -1) return no('an anonymous default function without its parameters');
          const head = `${d.async ? 'async ' : ''}function${d.generator ? '*' : ''} ${ANONYMOUS_DEFAULT}`;
          edits.replace(stmt.start, paren, head);
          exports.push({ kind: 'local', exported: 'default', local: ANONYMOUS_DEFAULT });
          anonymousDefaultFunction = true;
        } else if (d.type === 'ClassDeclaration') {
          return no('an anonymous default class');
        } else {
          exports.push({ kind: 'default' });
          let inner = d;
          while (inner.type === 'ParenthesizedExpression') inner = inner.expression;
          defaultNamesAnonymous = inner.type === 'FunctionExpression' || inner.type === 'ClassExpression' ? !inner.id : inner.type === 'ArrowFunctionExpression';
          edits.replace(stmt.start, d.start, '__lsmDefault(');
          edits.insert(d.end, ')');
        }
        break;
      }
      default:
        break;
    }
  }
  for (const m of found.meta) edits.replace(m.start, m.end, '__lsmMeta__');

  const importLocals = new Set(imports.map((i) => i.local));
  for (const name of found.assigned) if (importLocals.has(name)) return no(`an assignment to the imported binding ${name}`);
  const reassigned = new Set<string>();
  for (const e of exports) if (e.kind === 'local' && found.assignedLater.has(e.local)) reassigned.add(e.local);

  const getters = exports.flatMap((e) => (e.kind === 'local' ? [`() => ${e.local}`] : []));
  const params = [...imports.map((i) => i.local), ...HOOK_PARAMS];
  const prelude = `__lsmExports([${getters.join(', ')}]${anonymousDefaultFunction ? `, ${ANONYMOUS_DEFAULT}` : ''});`;
  const source = `(function (${params.join(', ')}) {'use strict'; ${prelude}\n${edits.toString()}\n})`;
  return { ok: true, fn: { requests, imports, exports, reassigned, defaultNamesAnonymous, source } };
}
