/**
 * Sweep parameters: `--param <path>=<values>` names a field of the scenario file (a variant
 * option `variants.lua.lease`, a fault field `faults.0.duration`, the arrival rate
 * `workload.arrival`, a dependency `dependencies.risk-check`) or one argument of a
 * distribution written there (`dependencies.risk-check.max` of `uniform(500ms, 1100ms)`).
 * A cell is the file with those fields set and read again by the ordinary loader, so every
 * check of the scenario format applies to every cell.
 */
import { isMap, isScalar, isSeq, type Document, type LineCounter } from 'yaml';
import { cut, formatPath, MAX_QUOTED_CHARS, quote, ScenarioError } from '../spec/errors.js';
import { parseScenario, readScenarioSource, type LoadOptions } from '../scenario/load.js';
import { readYaml } from '../scenario/yaml-document.js';
import { didYouMean } from '../scenario/suggest.js';
import type { Scenario } from '../spec/scenario.js';
import type { Parsed } from '../scenario/value-parsers.js';
import { parseValueSpec, splitTopLevel, type ParamValue, type ValueSpec } from './param-values.js';

/** Argument names of the distributions written `kind(a, b)`, by kind (scenario/value-parsers.ts). */
const DISTRIBUTION_ARGUMENTS: Record<string, readonly string[]> = {
  uniform: ['min', 'max'],
  exp: ['mean'],
  normal: ['mean', 'sd'],
  lognormal: ['median', 'p99'],
};

export interface SweepParam {
  /** As given: `variants.lua.lease`. */
  path: string;
  segments: Array<string | number>;
  /** Set: the last segment names an argument of the distribution at segments[:-1]. */
  argument: { index: number; name: string } | null;
  spec: ValueSpec;
}

/** A problem with a --param, located in the scenario file where it can be. */
export class ParamError extends Error {}

/** `--param path=values` as given: the values are read with the path (checkParam), so a bad range is located in the file. */
export interface ParamOption {
  path: string;
  values: string;
}

/** `path=values` of the command line. */
export function parseParamOption(text: string): Parsed<ParamOption> {
  const eq = text.indexOf('=');
  if (eq <= 0) return { ok: false, message: `expected <path>=<values>, e.g. variants.lua.lease=2s..30s/8, found ${quote(text)}` };
  return { ok: true, value: { path: text.slice(0, eq).trim(), values: text.slice(eq + 1) } };
}

function splitPath(path: string): Array<string | number> {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** The scenario file's text with its line counter, for checking and locating paths. */
export interface ScenarioText {
  file: string;
  /** What reports and replay commands call the file (a built-in's bare name). */
  display: string;
  text: string;
  doc: Document;
  lines: LineCounter;
}

export function readScenarioText(file: string, display = file): ScenarioText {
  return scenarioText(readScenarioSource(file, display), file, display);
}

/** The text's Document; the text is a scenario that loaded (its YAML is within the limits). */
export function scenarioText(text: string, file: string, display = file): ScenarioText {
  const yaml = readYaml(text);
  if (!yaml.ok) throw new ScenarioError(display, yaml.issues);
  return { file, display, text, doc: yaml.doc, lines: yaml.lines };
}

function where(source: ScenarioText, segments: ReadonlyArray<string | number>): string {
  for (let n = segments.length; n >= 0; n--) {
    const node = n === 0 ? source.doc.contents : source.doc.getIn(segments.slice(0, n), true);
    const offset = (node as { range?: [number, number, number] } | undefined)?.range?.[0];
    if (offset !== undefined) {
      const pos = source.lines.linePos(offset);
      return `${source.display}:${pos.line}:${pos.col}`;
    }
  }
  return `${source.display}:1:1`;
}

function keysOf(node: unknown): string[] {
  if (isMap(node)) return node.items.map((it) => (isScalar(it.key) ? String(it.key.value) : '')).filter((k) => k !== '');
  return [];
}

/** Parses `kind(a, b)` into its kind and arguments, or null. */
function distributionCall(value: unknown): { kind: string; args: string[] } | null {
  if (typeof value !== 'string') return null;
  const m = /^\s*([a-z]+)\s*\((.*)\)\s*$/.exec(value);
  return m ? { kind: m[1], args: splitTopLevel(m[2]) } : null;
}

/**
 * Checks a parameter's path against the scenario file, then its values (given as the
 * command line wrote them, or already read); the message names where it goes wrong: the
 * place in the file where the path stops, or the field the values are for.
 */
export function checkParam(source: ScenarioText, path: string, given: ValueSpec | string): SweepParam {
  const segments = splitPath(path);
  const fail = (at: ReadonlyArray<string | number>, message: string): never => {
    throw new ParamError(`${where(source, at)}: --param ${path}: ${message}`);
  };
  const valuesOf = (): ValueSpec => {
    if (typeof given !== 'string') return given;
    const spec = parseValueSpec(given);
    if (spec.ok) return spec.value;
    throw new ParamError(`${where(source, segments)}: --param ${path}=${cut(given, MAX_QUOTED_CHARS)}: ${spec.message}`);
  };
  if (segments.length === 0) fail([], 'an empty path');
  for (let i = 0; i < segments.length; i++) {
    const parentPath = segments.slice(0, i);
    const parent = i === 0 ? source.doc.contents : source.doc.getIn(parentPath, true);
    const seg = segments[i];
    const last = i === segments.length - 1;
    if (isMap(parent)) {
      if (parent.has(seg)) continue;
      if (last && typeof seg === 'string') continue; // a field left to its default: the loader checks its name
      const keys = keysOf(parent);
      fail(parentPath, `${formatPath(parentPath)} has no ${quote(String(seg))}${didYouMean(String(seg), keys)}; it has ${keys.join(', ')}`);
    }
    if (isSeq(parent)) {
      if (typeof seg === 'number' && seg < parent.items.length) continue;
      fail(parentPath, `${formatPath(parentPath)} is a list of ${parent.items.length}: give an index from 0 to ${parent.items.length - 1}, found ${quote(String(seg))}`);
    }
    const scalar = isScalar(parent) ? parent.value : undefined;
    const call = distributionCall(scalar);
    if (call && last && typeof seg === 'string') {
      const names = DISTRIBUTION_ARGUMENTS[call.kind];
      if (!names) fail(parentPath, `${call.kind}(...) has no named arguments to sweep; sweep the whole value instead (--param ${segments.slice(0, i).join('.')}=...)`);
      const index = names.indexOf(seg);
      if (index < 0) fail(parentPath, `${call.kind}(...) has no argument ${quote(seg)}${didYouMean(seg, names)}; its arguments are ${names.join(', ')}`);
      return { path, segments, argument: { index, name: seg }, spec: valuesOf() };
    }
    fail(parentPath, `${formatPath(parentPath)} is a value, not a mapping: nothing under it is called ${quote(String(seg))}`);
  }
  return { path, segments, argument: null, spec: valuesOf() };
}

/**
 * Parameters that name one field, or a field and a part of it (`dependencies.risk` and
 * `dependencies.risk.max`: setting the whole value first left no argument to set, exit 3),
 * by their segments, so `faults.0.at` and `faults[0].at` are one field. Located at the first.
 */
export function checkDistinct(source: ScenarioText, params: readonly SweepParam[]): void {
  const within = (a: SweepParam, b: SweepParam): boolean => a.segments.length <= b.segments.length && a.segments.every((s, i) => s === b.segments[i]);
  params.forEach((a, i) =>
    params.slice(i + 1).forEach((b) => {
      if (!within(a, b) && !within(b, a)) return;
      const [outer, inner] = within(a, b) ? [a, b] : [b, a];
      const what = outer.segments.length === inner.segments.length ? 'the same field as' : 'a part of';
      throw new ParamError(`${where(source, outer.segments)}: --param ${inner.path}: ${what} --param ${outer.path}; sweep one of them`);
    }),
  );
}

/** The file's text with each parameter set to its value. */
export function cellText(source: ScenarioText, params: readonly SweepParam[], values: readonly ParamValue[]): string {
  const doc = source.doc.clone();
  params.forEach((p, i) => {
    const value = values[i].raw;
    if (p.argument === null) {
      doc.setIn(p.segments, value);
      return;
    }
    const at = p.segments.slice(0, -1);
    const call = distributionCall((doc.getIn(at, true) as { value?: unknown } | undefined)?.value) as NonNullable<ReturnType<typeof distributionCall>>;
    const args = [...call.args];
    args[p.argument.index] = String(value);
    doc.setIn(at, `${call.kind}(${args.join(', ')})`);
  });
  return String(doc);
}

/**
 * Loads one cell's scenario. A value the scenario format refuses is the caller's mistake:
 * the message names the parameter, the value and the field, located at the parameter's path
 * in the original file.
 */
export function loadCell(source: ScenarioText, params: readonly SweepParam[], values: readonly ParamValue[], options: LoadOptions = {}): Scenario {
  try {
    const scenario = parseScenario(cellText(source, params, values), source.file, options);
    // Reports and replay commands name the file as the user gave it.
    scenario.file = source.display;
    return scenario;
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    const given = params.map((p, i) => `${p.path}=${values[i].label}`).join(' ');
    const at = params.length > 0 ? where(source, params[0].segments) : `${source.display}:1:1`;
    throw new ParamError(err.issues.map((issue) => `${at}: --param ${given}: ${formatPath(issue.path)}: ${issue.message}`).join('\n'));
  }
}
