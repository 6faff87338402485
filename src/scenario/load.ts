/**
 * Reads a scenario file: YAML -> zod validation -> resolution. Every problem found is
 * reported together, each at its file:line:col with its field path.
 */
import { isMap, isNode, isScalar, visit, type Document, type LineCounter } from 'yaml';
import type { z } from 'zod';
import { DEFAULT_BUDGET, overBudget, type Budget } from './cost.js';
import { readDistributionFiles } from './distribution-files.js';
import { ScenarioError, type ScenarioIssue, quote } from '../spec/errors.js';
import { resolveScenario } from './resolve.js';
import { MAX_NAME_LENGTH, scenarioSchema } from './schema.js';
import { didYouMean } from './suggest.js';
import { redissonNameHint } from './redisson-config-names.js';
import type { Scenario } from '../spec/scenario.js';
import { describeValue } from './value-parsers.js';
import { readInputFile } from './input-file.js';
import { MAX_ALIAS_EXPANSIONS, MAX_SCENARIO_BYTES, readYaml } from './yaml-document.js';

export interface LoadOptions {
  /** What one run may cost before it is refused (scenario/cost.ts); default DEFAULT_BUDGET. */
  budget?: Budget;
}

export function loadScenario(file: string, options: LoadOptions = {}): Scenario {
  return parseScenario(readScenarioSource(file), file, options);
}

/** A scenario file's text: a regular file of at most MAX_SCENARIO_BYTES of UTF-8 (input-file.ts). */
export function readScenarioSource(file: string, display = file): string {
  const read = readInputFile(file, 'a scenario file', MAX_SCENARIO_BYTES);
  if (!read.ok) throw new ScenarioError(display, [{ path: [], message: read.message }]);
  return read.text;
}

export function parseScenario(text: string, file: string, options: LoadOptions = {}): Scenario {
  const yaml = readYaml(text);
  if (!yaml.ok) throw new ScenarioError(file, yaml.issues);
  const { doc, lines } = yaml;
  const data = toData(doc, file, lines);
  const parsed = scenarioSchema.safeParse(data);
  if (!parsed.success) {
    throw new ScenarioError(file, parsed.error.issues.flatMap((i) => zodIssue(i, doc, data, lines)));
  }
  const fileIssues: ScenarioIssue[] = [];
  readDistributionFiles(parsed.data, file, (path, message) => fileIssues.push({ path, message }));
  if (fileIssues.length > 0) throw new ScenarioError(file, fileIssues.map((i) => locate(i, doc, lines)));
  const { scenario, issues } = resolveScenario(parsed.data, file);
  if (!scenario) throw new ScenarioError(file, issues.map((i) => locate(i, doc, lines)));
  const refusal = overBudget(scenario, options.budget ?? DEFAULT_BUDGET);
  if (refusal) throw new ScenarioError(file, [locate(refusal, doc, lines)]);
  const workloadAt = locate({ path: ['workload'], message: '' }, doc, lines);
  scenario.workloadLocation = `${file}:${workloadAt.line ?? 1}:${workloadAt.column ?? 1}`;
  for (const e of scenario.expectations) {
    const at = locate({ path: ['expect', e.variant, e.key], message: '' }, doc, lines);
    e.location = `${file}:${at.line ?? 1}:${at.column ?? 1}`;
  }
  for (const e of scenario.exploreExpectations ?? []) {
    const at = locate({ path: ['expect', e.variant, 'explore'], message: '' }, doc, lines);
    e.location = `${file}:${at.line ?? 1}:${at.column ?? 1}`;
  }
  return scenario;
}

/**
 * The document as plain data. Aliases are checked first, so that one naming no anchor is
 * reported where it is written; yaml's own ReferenceErrors carry no position.
 */
function toData(doc: Document, file: string, lines: LineCounter): unknown {
  const issues: ScenarioIssue[] = [];
  let firstAlias: number | undefined;
  visit(doc, {
    Alias(_key, alias) {
      firstAlias ??= alias.range?.[0];
      if (alias.resolve(doc) === undefined) {
        const pos = lines.linePos(alias.range?.[0] ?? 0);
        issues.push({ path: [], message: `YAML: alias *${alias.source} names no anchor defined before it (&${alias.source})`, line: pos.line, column: pos.col });
      }
    },
  });
  if (issues.length > 0) throw new ScenarioError(file, issues);
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_EXPANSIONS });
  } catch (err) {
    if (!(err instanceof ReferenceError)) throw err;
    const pos = lines.linePos(firstAlias ?? 0);
    throw new ScenarioError(file, [
      { path: [], message: `YAML: aliases expand to too much data (over ${MAX_ALIAS_EXPANSIONS} copies; an alias of an alias multiplies them)`, line: pos.line, column: pos.col },
    ]);
  }
}

type ZodIssue = z.core.$ZodIssue;

function zodIssue(issue: ZodIssue, doc: Document, data: unknown, lines: LineCounter): ScenarioIssue[] {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) as Array<string | number>;
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(path, data);
    // A variant's field named as Redisson names its Config setting: say which option models it.
    const hint = (key: string): string | null => (path.length === 2 && path[0] === 'variants' ? redissonNameHint(key) : null);
    return issue.keys.map((key) => {
      const redisson = hint(key);
      const message = `unknown field ${quote(key)}${redisson === null ? didYouMean(key, known) : `: ${redisson}`}`;
      return locate({ path: [...path, key], message }, doc, lines, true);
    });
  }
  if (issue.code === 'invalid_key') {
    const key = String(path[path.length - 1]);
    return [locate({ path, message: `a name of 1 to ${MAX_NAME_LENGTH} characters, found ${key.length}` }, doc, lines, true)];
  }
  const found = valueAt(data, path);
  let message: string;
  switch (issue.code) {
    case 'invalid_type':
      message = found === undefined ? `missing required field (expected ${issue.expected})` : `expected ${issue.expected}, found ${describeValue(found)}`;
      break;
    case 'too_small':
      message = `expected at least ${String(issue.minimum)}${issue.origin === 'array' ? ' entries' : ''}, found ${describeValue(found)}`;
      break;
    case 'too_big':
      message = `expected at most ${String(issue.maximum)}${issue.origin === 'array' ? ' entries' : ''}, found ${describeValue(found)}`;
      break;
    case 'invalid_value':
      message = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, found ${describeValue(found)}${
        typeof found === 'string' ? didYouMean(found, issue.values.map(String)) : ''
      }`;
      break;
    case 'invalid_union':
      message = path[path.length - 2] === 'faults' || (path[0] === 'faults' && path.length === 2)
        ? `unknown fault kind ${describeValue((found as { kind?: unknown })?.kind)}${kindSuggestion(found)}; kinds are gc-pause, slow-call, primary-crash, crash`
        : `expected ${path[0] === 'stock' ? 'a mapping {sku, available} or a list of them' : 'another form'}, found ${describeValue(found)}`;
      break;
    default:
      message = issue.message;
  }
  return [locate({ path, message }, doc, lines)];
}

function kindSuggestion(found: unknown): string {
  const kind = (found as { kind?: unknown })?.kind;
  return typeof kind === 'string' ? didYouMean(kind, ['gc-pause', 'slow-call', 'primary-crash', 'crash']) : '';
}

/** The keys the schema allows at `path`, for did-you-mean on unknown keys. */
function knownKeysAt(path: Array<string | number>, data: unknown): string[] {
  let schema: unknown = scenarioSchema;
  for (const p of path) {
    schema = unwrap(schema);
    const def = (schema as { def?: { type?: string; shape?: Record<string, unknown>; element?: unknown; valueType?: unknown; options?: unknown[] } }).def;
    if (!def) return [];
    if (def.type === 'object' && def.shape) schema = def.shape[p as string];
    else if (def.type === 'array') schema = def.element;
    else if (def.type === 'record') schema = def.valueType;
    else if (def.type === 'union' && def.options) {
      // Fault union: pick the option whose kind matches the data at this path.
      const kind = (valueAt(data, path.slice(0, path.indexOf(p) + 1)) as { kind?: unknown })?.kind;
      schema = def.options.find((o) => (unwrap(o) as { def: { shape?: { kind?: { def?: { values?: unknown[] } } } } }).def.shape?.kind?.def?.values?.includes(kind)) ?? def.options[0];
    } else return [];
  }
  schema = unwrap(schema);
  const def = (schema as { def?: { type?: string; shape?: Record<string, unknown>; options?: unknown[] } }).def;
  if (def?.type === 'object' && def.shape) return Object.keys(def.shape);
  if (def?.type === 'union' && def.options) {
    const kind = (valueAt(data, path) as { kind?: unknown })?.kind;
    const option = def.options.find((o) => (unwrap(o) as { def: { shape?: { kind?: { def?: { values?: unknown[] } } } } }).def.shape?.kind?.def?.values?.includes(kind));
    const shape = option ? (unwrap(option) as { def: { shape?: Record<string, unknown> } }).def.shape : undefined;
    return shape ? Object.keys(shape) : [];
  }
  return [];
}

function unwrap(schema: unknown): unknown {
  let s = schema as { def?: { type?: string; innerType?: unknown; in?: unknown } } | undefined;
  while (s?.def && (s.def.type === 'optional' || s.def.type === 'default' || s.def.type === 'pipe')) {
    s = (s.def.type === 'pipe' ? s.def.in : s.def.innerType) as typeof s;
  }
  return s;
}

function valueAt(data: unknown, path: ReadonlyArray<string | number>): unknown {
  let v = data;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

/** Finds the YAML node for a path (or its nearest existing parent) and adds its position. */
function locate(issue: ScenarioIssue, doc: Document, lines: LineCounter, atKey = false): ScenarioIssue {
  for (let n = issue.path.length; n >= 0; n--) {
    const prefix = issue.path.slice(0, n);
    let offset: number | undefined;
    if (atKey && n === issue.path.length && n > 0) {
      const parent = prefix.length === 1 ? doc.contents : doc.getIn(prefix.slice(0, -1), true);
      if (isMap(parent)) {
        const pair = parent.items.find((it) => isScalar(it.key) && it.key.value === prefix[prefix.length - 1]);
        if (pair && isNode(pair.key)) offset = pair.key.range?.[0];
      }
    } else {
      const node = n === 0 ? doc.contents : doc.getIn(prefix, true);
      if (isNode(node)) offset = node.range?.[0];
    }
    if (offset !== undefined) {
      const pos = lines.linePos(offset);
      return { ...issue, line: pos.line, column: pos.col };
    }
  }
  // Nothing to point at (an empty document): the start of the file.
  return { ...issue, line: 1, column: 1 };
}
