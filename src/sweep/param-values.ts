/**
 * The values of one sweep parameter, as `--param <path>=<values>` gives them:
 *   a list          `2s,5s,10s` or `uniform(1s, 2s),exp(3s)` (commas inside brackets stay)
 *   a linear range  `2s..30s/8` (8 values, both ends included)
 *   a log range     `log:100ms..10s/5` (5 values in geometric steps, both ends included)
 * Range ends are durations (us, ms, s, m, h), rates (4/s, 30/m) or plain numbers; both ends
 * of one range have the same kind. Each value is written back as the scenario file would
 * write it, so a cell is the file with one field changed.
 */
import { quote } from '../spec/errors.js';
import { parseDuration, parseRate, type Parsed } from '../scenario/value-parsers.js';

/** One point of a parameter: what the file receives, and how tables name it. */
export interface ParamValue {
  /** The YAML value set at the path (a string like "5s" or "4/s", or a number). */
  raw: string | number;
  label: string;
  /** The value as a number for plots and bisection (microseconds, per second, or the number); null for a list of other things. */
  numeric: number | null;
}

export interface ValueSpec {
  values: ParamValue[];
  /** A range (linear or log) can be bisected; a list cannot, unless it is numeric and sorted. */
  kind: 'list' | 'linear' | 'log';
}

/** More values per parameter than this is a typo (two of them make 40,000 cells). */
const MAX_PARAM_VALUES = 200;

type Quantity = { kind: 'duration' | 'rate' | 'number'; value: number };

function parseQuantity(text: string): Parsed<Quantity> {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return { ok: true, value: { kind: 'number', value: Number(t) } };
  if (t.includes('/')) {
    const r = parseRate(t);
    return r.ok ? { ok: true, value: { kind: 'rate', value: r.value } } : r;
  }
  const d = parseDuration(t);
  return d.ok ? { ok: true, value: { kind: 'duration', value: d.value } } : d;
}

/** A duration in the largest unit that writes it exactly. */
function durationText(us: number): string {
  if (us === 0) return '0s';
  if (us % 60_000_000 === 0 && us >= 600_000_000) return `${us / 60_000_000}m`;
  if (us % 1_000_000 === 0) return `${us / 1_000_000}s`;
  if (us % 1_000 === 0) return `${us / 1_000}ms`;
  return `${us}us`;
}

const roundTo = (x: number, digits: number): number => Number(x.toPrecision(digits));

function quantityValue(kind: Quantity['kind'], x: number, integral: boolean): ParamValue {
  switch (kind) {
    case 'duration': {
      const us = Math.round(x);
      return { raw: durationText(us), label: durationText(us), numeric: us };
    }
    case 'rate': {
      const perS = roundTo(x, 6);
      return { raw: `${perS}/s`, label: `${perS}/s`, numeric: perS };
    }
    case 'number': {
      const n = integral ? Math.round(x) : roundTo(x, 6);
      return { raw: n, label: String(n), numeric: n };
    }
  }
}

/** Splits at commas outside brackets: `uniform(1s, 2s),5s` is two values. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  parts.push(current.trim());
  return parts;
}

export function parseValueSpec(input: string): Parsed<ValueSpec> {
  const text = input.trim();
  if (text === '') return { ok: false, message: 'no values after "=": give a list (2s,5s), a range (2s..30s/8) or a log range (log:100ms..10s/5)' };
  const range = /^(log:)?\s*([^,]+?)\s*\.\.\s*([^,]+?)\s*\/\s*(\d+)$/.exec(text);
  if (range) {
    const log = range[1] !== undefined;
    const from = parseQuantity(range[2]);
    if (!from.ok) return { ok: false, message: `range start ${quote(range[2])}: ${from.message}` };
    const to = parseQuantity(range[3]);
    if (!to.ok) return { ok: false, message: `range end ${quote(range[3])}: ${to.message}` };
    if (from.value.kind !== to.value.kind) return { ok: false, message: `a range's ends must both be ${from.value.kind}s, found ${quote(range[2])} and ${quote(range[3])}` };
    const count = Number(range[4]);
    if (count < 2 || count > MAX_PARAM_VALUES) return { ok: false, message: `a range has 2 to ${MAX_PARAM_VALUES} values, found /${range[4]}` };
    const a = from.value.value;
    const b = to.value.value;
    if (!(b > a)) return { ok: false, message: `a range runs upwards, found "${range[2]}..${range[3]}"` };
    if (log && !(a > 0)) return { ok: false, message: `a log range starts above zero, found ${quote(range[2])}` };
    const integral = from.value.kind === 'number' && Number.isInteger(a) && Number.isInteger(b);
    const values: ParamValue[] = [];
    for (let i = 0; i < count; i++) {
      const f = i / (count - 1);
      const x = log ? a * Math.pow(b / a, f) : a + (b - a) * f;
      values.push(quantityValue(from.value.kind, i === count - 1 ? b : x, integral));
    }
    const labels = values.map((v) => v.label);
    const twice = labels.find((l, i) => labels.indexOf(l) !== i);
    if (twice !== undefined) return { ok: false, message: `${quote(text)} repeats the value ${twice} after rounding; use fewer steps` };
    return { ok: true, value: { values, kind: log ? 'log' : 'linear' } };
  }
  if (text.includes('..')) return { ok: false, message: `expected a range as from..to/count (2s..30s/8) or log:from..to/count, found ${quote(text)}` };
  const items = splitTopLevel(text);
  if (items.some((i) => i === '')) return { ok: false, message: `an empty value in the list ${quote(text)}` };
  if (items.length > MAX_PARAM_VALUES) return { ok: false, message: `a list has at most ${MAX_PARAM_VALUES} values, found ${items.length}` };
  const twice = items.find((l, i) => items.indexOf(l) !== i);
  if (twice !== undefined) return { ok: false, message: `the value ${twice} appears twice in ${quote(text)}` };
  const values = items.map((item): ParamValue => {
    const q = parseQuantity(item);
    if (q.ok && q.value.kind === 'number') return { raw: q.value.value, label: item, numeric: q.value.value };
    return { raw: item, label: item, numeric: q.ok ? q.value.value : null };
  });
  return { ok: true, value: { values, kind: 'list' } };
}
