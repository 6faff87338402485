/**
 * Parsers for the value syntaxes of scenario files: durations with units, distributions,
 * rates and comparisons. Each returns the value or a message saying what was expected.
 */
import { quote } from '../spec/errors.js';
import type { Distribution } from '../engine/distribution.js';
import { formatMicros, type Micros } from '../engine/time.js';
import type { Comparator } from '../spec/expectations.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const UNIT_US: Record<string, number> = { us: 1, ms: 1_000, s: 1_000_000, m: 60_000_000, h: 3_600_000_000 };
/** No run is longer than a simulated day; larger numbers are typos. */
const MAX_DURATION_US = 24 * 3_600_000_000;

export function parseDuration(input: unknown): Parsed<Micros> {
  if (typeof input === 'number') {
    if (input === 0) return { ok: true, value: 0 };
    return { ok: false, message: `expected a duration with a unit (250us, 800ms, 5s, 2m), found the bare number ${input}` };
  }
  if (typeof input !== 'string') return { ok: false, message: `expected a duration like 5s, found ${describeValue(input)}` };
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(us|ms|s|m|h)\s*$/.exec(input);
  if (!m) return { ok: false, message: `expected a duration like 250us, 800ms, 5s or 2m, found ${quote(input)}` };
  const n = Number(m[1]);
  if (n < 0) return { ok: false, message: `a duration cannot be negative, found ${quote(input)}` };
  const us = Math.round(n * UNIT_US[m[2]]);
  if (us > MAX_DURATION_US) return { ok: false, message: `${quote(input)} is longer than the 24h limit of a run` };
  return { ok: true, value: us };
}

/** A duration that may be negative (a clock stepping backwards): "-20s", "+5s". */
export function parseSignedDuration(input: unknown): Parsed<Micros> {
  if (typeof input === 'string') {
    const m = /^\s*([+-])\s*(.+)$/.exec(input);
    if (m) {
      const d = parseDuration(m[2]);
      if (!d.ok) return d;
      return { ok: true, value: m[1] === '-' ? -d.value : d.value };
    }
  }
  return parseDuration(input);
}

/**
 * How deep parentheses nest in one distribution: `mixture(90%: mixture(50%: uniform(1s, 2s),
 * ...), ...)` is three. A mixture nested 2,000 deep overflowed the stack (exit 3); nine
 * levels of mixtures are more than any measured latency needs.
 */
export const MAX_DISTRIBUTION_DEPTH = 10;

/** Why the parentheses of `text` cannot be a distribution (unbalanced or too deep), or null. */
function parenthesesProblem(text: string): string | null {
  let depth = 0;
  let deepest = 0;
  let opened = 0;
  let closed = 0;
  let early = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40) {
      opened++;
      deepest = Math.max(deepest, ++depth);
    } else if (c === 41) {
      closed++;
      if (--depth < 0) early = true;
    }
  }
  if (deepest > MAX_DISTRIBUTION_DEPTH) return `parentheses nest ${deepest} deep in ${quote(text)}; a distribution nests at most ${MAX_DISTRIBUTION_DEPTH} (mixtures of mixtures)`;
  if (opened === closed && !early) return null;
  // A `{ ... }` flow mapping ends a plain value at its first comma: `uniform(3s` is what is
  // left of an unquoted `uniform(3s, 8s)`. A value with a comma in it was not cut there.
  if (!text.includes(',') && opened > closed && /^\s*[a-z]+\s*\(/.test(text)) {
    return `found ${quote(text)}: inside a { ... } mapping the comma splits the value; quote it, e.g. "uniform(3s, 8s)"`;
  }
  return `unbalanced parentheses in ${quote(text)}: ${opened} "(" and ${closed} ")"${early ? ', a ")" before its "("' : ''}`;
}

export function parseDistribution(input: unknown): Parsed<Distribution> {
  if (typeof input === 'string') {
    const parens = parenthesesProblem(input);
    if (parens !== null) return { ok: false, message: parens };
    const m = /^\s*([a-z]+)\s*\((.*)\)\s*$/.exec(input);
    if (m && (m[1] === 'mixture' || m[1] === 'empirical' || m[1] === 'histogram')) return parseShape(m[1], m[2], input);
    if (m) {
      const args = m[2].split(',').map((s) => s.trim());
      const durations: number[] = [];
      for (const a of args) {
        const d = parseDuration(a);
        if (!d.ok) return { ok: false, message: `in ${m[1]}(...): ${d.message}` };
        durations.push(d.value);
      }
      const need = (n: number): Parsed<Distribution> | null =>
        durations.length === n ? null : { ok: false, message: `${m[1]}(...) takes ${n} durations, found ${durations.length}` };
      switch (m[1]) {
        case 'uniform': {
          const bad = need(2);
          if (bad) return bad;
          if (durations[1] < durations[0]) return { ok: false, message: `uniform(min, max) needs min <= max, found ${quote(input)}` };
          return { ok: true, value: { kind: 'uniform', minUs: durations[0], maxUs: durations[1] } };
        }
        case 'exp':
          return need(1) ?? { ok: true, value: { kind: 'exponential', meanUs: durations[0] } };
        case 'normal':
          return need(2) ?? { ok: true, value: { kind: 'normal', meanUs: durations[0], sdUs: durations[1] } };
        case 'lognormal': {
          const bad = need(2);
          if (bad) return bad;
          if (!(durations[0] > 0 && durations[1] > durations[0])) {
            return { ok: false, message: `lognormal(median, p99) needs 0 < median < p99, found ${quote(input)}` };
          }
          return { ok: true, value: { kind: 'lognormal', medianUs: durations[0], p99Us: durations[1] } };
        }
        default:
          return { ok: false, message: `unknown distribution ${quote(m[1])}: use uniform(a, b), exp(mean), normal(mean, sd), lognormal(median, p99), mixture(95%: a, 5%: b), empirical(file) or histogram(le: count, ..., +Inf: count)` };
      }
    }
  }
  const d = parseDuration(input);
  if (d.ok) return { ok: true, value: { kind: 'constant', valueUs: d.value } };
  return {
    ok: false,
    message: `expected a duration (5ms) or a distribution (uniform(1ms, 20ms), exp(5ms), normal(800ms, 100ms), lognormal(800ms, 3s), mixture(95%: 200ms, 5%: uniform(5s, 8s)), empirical(latency.csv), histogram(100ms: 90, 1s: 99, +Inf: 100)), found ${describeValue(input)}`,
  };
}

/** Commas and colons outside brackets: `95%: uniform(1s, 2s), 5%: 8s` is two parts. */
function splitOutside(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === separator && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  parts.push(current.trim());
  return parts;
}

/** `key: value` with the first top-level colon. */
function pairOf(text: string): [string, string] | null {
  const parts = splitOutside(text, ':');
  return parts.length < 2 ? null : [parts[0], parts.slice(1).join(':')];
}

/** No more parts or buckets than this in one distribution (a histogram has tens). */
const MAX_DISTRIBUTION_PARTS = 1_000;

/** mixture(...), empirical(file) and histogram(...): the distributions that describe measured shapes. */
function parseShape(kind: 'mixture' | 'empirical' | 'histogram', body: string, input: string): Parsed<Distribution> {
  const args = splitOutside(body, ',');
  if (args.length > MAX_DISTRIBUTION_PARTS) return { ok: false, message: `${kind}(...) takes at most ${MAX_DISTRIBUTION_PARTS} entries, found ${args.length}` };
  if (kind === 'empirical') {
    // The file is read when the scenario is loaded, relative to the scenario file (load.ts).
    if (args.length > 2 || args[0] === '') return { ok: false, message: `empirical(file) or empirical(file, ms) (the unit of bare numbers), found ${quote(input)}` };
    let unitUs: number | null = null;
    if (args.length === 2) {
      unitUs = UNIT_US[args[1]] ?? null;
      if (unitUs === null) return { ok: false, message: `empirical(file, unit): the unit is one of us, ms, s, m, h, found ${quote(args[1])}` };
    }
    return { ok: true, value: { kind: 'empirical', file: args[0], unitUs, samplesUs: [] } };
  }
  if (kind === 'histogram') {
    if (args.length === 1 && !args[0].includes(':')) {
      if (args[0] === '') return { ok: false, message: 'histogram(...) needs buckets (100ms: 90, 1s: 99, +Inf: 100) or a file of Prometheus _bucket lines' };
      return { ok: true, value: { kind: 'histogram', file: args[0], buckets: [], total: 0 } };
    }
    const buckets: Array<{ le: number; count: number }> = [];
    for (const a of args) {
      const pair = pairOf(a);
      if (!pair) return { ok: false, message: `histogram(...): expected "le: cumulative count" like "250ms: 90", found ${quote(a)}` };
      const le = pair[0] === '+Inf' ? { ok: true as const, value: Infinity } : parseDuration(pair[0]);
      if (!le.ok) return { ok: false, message: `histogram(...): bucket bound ${quote(pair[0])}: ${le.message}` };
      if (!/^\d+$/.test(pair[1])) return { ok: false, message: `histogram(...): the count of bucket ${pair[0]} is a whole number of observations, found ${quote(pair[1])}` };
      buckets.push({ le: le.value, count: Number(pair[1]) });
    }
    return histogramOf(buckets, null);
  }
  const parts: Array<{ weight: number; distribution: Distribution }> = [];
  let percents = 0;
  for (const a of args) {
    const pair = pairOf(a);
    if (!pair) return { ok: false, message: `mixture(...): expected "weight: distribution" like "95%: 200ms", found ${quote(a)}` };
    const w = /^(\d+(?:\.\d+)?)(%?)$/.exec(pair[0]);
    if (!w) return { ok: false, message: `mixture(...): a weight is a percentage (95%) or a positive number, found ${quote(pair[0])}` };
    if (w[2] === '%') percents++;
    const weight = Number(w[1]);
    if (!(weight > 0)) return { ok: false, message: `mixture(...): a weight must be above zero, found ${quote(pair[0])}` };
    const d = parseDistribution(pair[1]);
    if (!d.ok) return { ok: false, message: `mixture(...), part ${pair[0]}: ${d.message}` };
    parts.push({ weight, distribution: d.value });
  }
  if (parts.length < 2) return { ok: false, message: `mixture(...) needs two parts or more, found ${quote(input)}` };
  if (percents !== 0 && percents !== parts.length) return { ok: false, message: `mixture(...): give every weight as a percentage or none, found ${quote(input)}` };
  const sum = parts.reduce((a, p) => a + p.weight, 0);
  if (percents > 0 && Math.abs(sum - 100) > 1e-9) return { ok: false, message: `mixture(...): the percentages add up to ${Number(sum.toFixed(6))}%, not 100%` };
  return { ok: true, value: { kind: 'mixture', percent: percents > 0, parts } };
}

/**
 * Buckets (upper bound in microseconds, +Inf as Infinity; cumulative counts) -> a histogram.
 * As Prometheus requires for histogram_quantile: a +Inf bucket, and at least one finite bound
 * below it; cumulative counts never decrease (Prometheus patches small decreases; here they
 * are refused: a hand-written histogram that decreases has a typo). `where` names the file.
 */
export function histogramOf(raw: ReadonlyArray<{ le: number; count: number }>, file: string | null): Parsed<Distribution> {
  const sorted = [...raw];
  for (let i = 1; i < sorted.length; i++) {
    if (!(sorted[i].le > sorted[i - 1].le)) return { ok: false, message: `histogram: bucket bounds must increase, found ${show(sorted[i - 1].le)} then ${show(sorted[i].le)}` };
    if (sorted[i].count < sorted[i - 1].count) {
      return { ok: false, message: `histogram: cumulative counts never decrease, found ${sorted[i - 1].count} at le=${show(sorted[i - 1].le)} then ${sorted[i].count} at le=${show(sorted[i].le)}` };
    }
  }
  const last = sorted[sorted.length - 1];
  if (!last || last.le !== Infinity) return { ok: false, message: 'histogram: the last bucket is le=+Inf (every observation), as Prometheus histograms have it' };
  if (sorted.length < 2) return { ok: false, message: 'histogram: needs a finite bucket below +Inf' };
  if (last.count === 0) return { ok: false, message: 'histogram: no observations (the +Inf bucket counts 0)' };
  return { ok: true, value: { kind: 'histogram', file, buckets: sorted.slice(0, -1).map((b) => ({ leUs: b.le, count: b.count })), total: last.count } };
}

const show = (us: number): string => (us === Infinity ? '+Inf' : formatMicros(us));

const MAX_RATE_PER_S = 1_000_000;

export function parseRate(input: unknown): Parsed<number> {
  const m = typeof input === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*\/\s*(s|m|h)\s*$/.exec(input) : null;
  if (!m) return { ok: false, message: `expected a rate like "200/s", "30/m" or "2/h", found ${describeValue(input)}` };
  const perS = Number(m[1]) / (m[2] === 'h' ? 3600 : m[2] === 'm' ? 60 : 1);
  if (!(perS > 0)) return { ok: false, message: `a rate must be above zero, found ${quote(String(input))}` };
  if (perS > MAX_RATE_PER_S) return { ok: false, message: `${quote(String(input))} is above the limit of ${MAX_RATE_PER_S}/s` };
  return { ok: true, value: perS };
}

/** "0", 0, ">= 1", "< 5s": a comparator and a number (durations become microseconds). */
export function parseComparison(input: unknown, isTime: boolean): Parsed<{ comparator: Comparator; value: number }> {
  if (typeof input === 'number') {
    // A bare number on a time would be read as microseconds (`p99: 30` meaning 30 us): only
    // 0, and -1 (the *-at metrics' "never"), need no unit.
    if (isTime && input !== 0 && input !== -1) return { ok: false, message: `this metric is a time: write it with a unit, e.g. "${input}s" or "${input}ms"; found number ${input}` };
    return { ok: true, value: { comparator: '==', value: input } };
  }
  if (typeof input !== 'string') return { ok: false, message: `expected a number or a comparison like ">= 1", found ${describeValue(input)}` };
  const m = /^\s*(==|!=|<=|>=|<|>)?\s*(.+?)\s*$/.exec(input);
  if (!m) return { ok: false, message: `expected a comparison like ">= 1", found ${quote(input)}` };
  const comparator = (m[1] ?? '==') as Comparator;
  if (isTime) {
    const d = m[2] === '0' ? ({ ok: true, value: 0 } as const) : parseDuration(m[2]);
    if (!d.ok) return { ok: false, message: `this metric is a time: ${d.message}` };
    return { ok: true, value: { comparator, value: d.value } };
  }
  const n = Number(m[2]);
  if (!Number.isFinite(n) || m[2] === '') return { ok: false, message: `expected a number after ${quote(comparator)}, found ${quote(m[2])}` };
  return { ok: true, value: { comparator, value: n } };
}

export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (typeof v === 'string') return `${quote(v)}`;
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${String(v)}`;
}

/** A client fault's `client:`: a client number, "all", or a list of client numbers (each once). */
export function parseFaultClients(input: unknown): Parsed<number | 'all' | number[]> {
  const isClient = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 1000;
  if (isClient(input) || input === 'all') return { ok: true, value: input };
  if (Array.isArray(input)) {
    if (input.length === 0) return { ok: false, message: 'an empty list of clients: give client numbers ([1, 3]) or all' };
    const bad = input.find((v) => !isClient(v));
    if (bad !== undefined) return { ok: false, message: `a client is a number from 1 to 1000, found ${describeValue(bad)} in the list` };
    const twice = input.find((v, i) => input.indexOf(v) !== i);
    if (twice !== undefined) return { ok: false, message: `client ${String(twice)} is in the list twice` };
    return { ok: true, value: [...(input as number[])] };
  }
  if (typeof input === 'string' && input.trim().toLowerCase() === 'all') return { ok: true, value: 'all' };
  return { ok: false, message: `expected a client number from 1 to 1000, all, or a list like [1, 3]; found ${describeValue(input)}` };
}
