/**
 * A scenario's YAML text -> its yaml Document, within limits checked before anything large
 * is built: the text's size, the number of YAML nodes (counted on the lexer's tokens, as
 * they stream, so a file of four million `0,` stops after the first half million instead of
 * building a Document of 3.6 GiB), and the depth of nesting. Keys repeated in one mapping
 * are found here in one pass: yaml's own check (`uniqueKeys`) compares each key with every
 * earlier key of its mapping, which made a file of 100,000 variants take minutes (yaml 2.9.1,
 * compose/util-map-includes.js).
 */
import { Composer, CST, isMap, isNode, isScalar, isSeq, Lexer, LineCounter, Parser, YAMLParseError, type Document, type Node as YamlNode } from 'yaml';
import { quote, type ScenarioIssue } from '../spec/errors.js';
import { formatBytes } from './input-file.js';

/**
 * A scenario file's size: the largest the format allows (10,000 stock rows, 10,000 faults,
 * 1,000 scripted requests, each written out in full) is under 2 MiB; 100,000 variants
 * take 3 MiB.
 */
export const MAX_SCENARIO_BYTES = 8 * 1024 * 1024;
/**
 * YAML nodes (scalars, aliases and collections) in one scenario file. The largest file the
 * format allows has about 200,000; 100,000 one-line variants have 400,000.
 */
export const MAX_YAML_NODES = 500_000;
/** Nesting of YAML collections; a scenario nests six deep (expect: variant: metric: [list]). */
export const MAX_YAML_DEPTH = 64;

/**
 * How many times a file's aliases may be expanded in all (yaml's maxAliasCount, default 100,
 * which refused a legitimate file whose 120 faults share one anchor). An alias bomb (aliases
 * of aliases, each level multiplying the last) still passes it within a few levels.
 */
export const MAX_ALIAS_EXPANSIONS = 1_000;

type YamlRead = { ok: true; doc: Document; lines: LineCounter } | { ok: false; issues: ScenarioIssue[] };

class TooManyNodes extends Error {
  constructor(readonly offset: number) {
    super('too many YAML nodes');
  }
}

/** Tokens that start a node: a scalar, a quoted scalar, an alias, a flow collection, a block entry. */
const NODE_TOKENS = new Set(['scalar', 'single-quoted-scalar', 'double-quoted-scalar', 'alias', 'flow-map-start', 'flow-seq-start', 'seq-item-ind', 'explicit-key-ind']);

/** yaml's parseDocument (yaml 2.9.1 public-api.js), with the node count checked on each token. */
function composeCounted(text: string, lines: LineCounter): Document {
  const parser = new Parser(lines.addNewLine);
  const composer = new Composer({ prettyErrors: false, uniqueKeys: false });
  let nodes = 0;
  function* tokens(): Generator<CST.Token> {
    lines.addNewLine(0);
    for (const lexeme of new Lexer().lex(text)) {
      const type = CST.tokenType(lexeme);
      if (type && NODE_TOKENS.has(type) && ++nodes > MAX_YAML_NODES) throw new TooManyNodes(parser.offset);
      yield* parser.next(lexeme);
    }
    yield* parser.end();
  }
  let doc: Document | null = null;
  for (const next of composer.compose(tokens(), true, text.length)) {
    if (!doc) doc = next;
    else {
      doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'a scenario file holds one YAML document; remove the "---" that starts a second one'));
      break;
    }
  }
  return doc as Document;
}

/** Every mapping's repeated keys and the deepest node, in one pass without recursion. */
function checkTree(doc: Document, lines: LineCounter): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  const at = (node: unknown, message: string): ScenarioIssue => {
    const pos = lines.linePos(isNode(node) ? (node.range?.[0] ?? 0) : 0);
    return { path: [], message, line: pos.line, column: pos.col };
  };
  const stack: Array<{ node: unknown; depth: number }> = [{ node: doc.contents, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_YAML_DEPTH) {
      issues.push(at(node, `YAML: nested deeper than ${MAX_YAML_DEPTH} levels`));
      break;
    }
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        // Scalars compare by value (as yaml's uniqueKeys does); other keys are never equal.
        if (isScalar(pair.key) && !(typeof key === 'number' && Number.isNaN(key))) {
          if (seen.has(key)) issues.push(at(pair.key, `YAML: the key ${quote(String(key))} appears twice in this mapping (map keys must be unique)`));
          seen.add(key);
        }
        stack.push({ node: pair.value as YamlNode, depth: depth + 1 });
        if (!isScalar(pair.key)) stack.push({ node: pair.key as YamlNode, depth: depth + 1 });
      }
    } else for (const item of node.items) stack.push({ node: item, depth: depth + 1 });
  }
  return issues;
}

/** The Document of a scenario's text, or the issues that stop it (each with its line and column). */
export function readYaml(text: string): YamlRead {
  const lines = new LineCounter();
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_SCENARIO_BYTES) {
    return { ok: false, issues: [{ path: [], message: `the file is ${formatBytes(bytes)}, over the limit of ${formatBytes(MAX_SCENARIO_BYTES)} for a scenario file`, line: 1, column: 1 }] };
  }
  let doc: Document;
  // Old Mac line ends (CR alone) are line breaks in YAML 1.2 (spec 5.4), which the yaml
  // package reads only as CRLF or LF; one character for one keeps every offset.
  const source = text.replace(/\r(?!\n)/g, '\n');
  try {
    doc = composeCounted(source, lines);
  } catch (err) {
    if (!(err instanceof TooManyNodes)) throw err;
    const pos = lines.linePos(err.offset);
    return { ok: false, issues: [{ path: [], message: `YAML: more than ${MAX_YAML_NODES.toLocaleString('en-US')} nodes (values, lists and mappings), the limit of a scenario file`, line: pos.line, column: pos.col }] };
  }
  if (doc.errors.length > 0) {
    return {
      ok: false,
      issues: doc.errors.map((e) => {
        const pos = lines.linePos(e.pos[0]);
        // yaml catches the stack overflow of a deep nesting and reports it as this code.
        const message = e.code === 'RESOURCE_EXHAUSTION' ? `nested too deeply to read (a scenario nests at most ${MAX_YAML_DEPTH} levels)` : e.message.split('\n')[0];
        return { path: [], message: `YAML: ${message}`, line: pos.line, column: pos.col };
      }),
    };
  }
  const issues = checkTree(doc, lines);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, doc, lines };
}
