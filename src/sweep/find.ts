/**
 * `sweep --find "p(oversold > 0) <= 0.01"`: the boundary of a condition along one parameter,
 * by bisection over the parameter's values (a range of n values is searched in about
 * log2(n) cells, not n). The condition is assumed to change once along the range (the
 * search reports where it flips; a condition that flips twice is misread, as any bisection
 * would). Besides the estimate, the same search runs on the ends of each cell's 95% interval:
 * a condition on P(...) holds "surely" where the whole Wilson interval satisfies it, and
 * "possibly" where part of it does; between the two boundaries lies what the seeds cannot
 * tell apart.
 */
import { quote } from '../spec/errors.js';
import type { Parsed } from '../scenario/value-parsers.js';
import { parseDuration } from '../scenario/value-parsers.js';
import type { CompareResult } from './compare-variants.js';
import type { VariantTally } from './compare-tally.js';
import { HISTOGRAM_BUCKETS } from './compare-tally.js';
import { wilson, type Interval } from './stats.js';

type Comparator = '<' | '<=' | '>' | '>=';

export interface Condition {
  text: string;
  /** p(oversold > k), p(double-holders > 0), or the mean of a metric per run. */
  statistic: { kind: 'p'; metric: 'oversold'; above: number } | { kind: 'p'; metric: 'double-holders' } | { kind: 'mean'; metric: MeanMetric };
  comparator: Comparator;
  threshold: number;
}

/** Means a tally keeps (sums per run): the name in a condition -> how to read it. */
const MEANS = {
  oversold: { read: (t: VariantTally) => t.oversoldSum, time: false },
  'double-holders': { read: (t: VariantTally) => t.doubleHoldersSum, time: false },
  stuck: { read: (t: VariantTally) => t.stuckUsSum, time: true },
  orphan: { read: (t: VariantTally) => t.orphanUsSum, time: true },
  'orders/s': { read: (t: VariantTally) => t.throughputCentsSum / 100, time: false },
  p99: { read: (t: VariantTally) => t.p99UsSum, time: true },
  'busy-share': { read: (t: VariantTally) => t.busyBasisPointsSum / 10_000, time: false },
} as const;
type MeanMetric = keyof typeof MEANS;

const CONDITION_HELP = 'expected a condition like "p(oversold > 0) <= 0.01", "p(double-holders > 0) < 0.05" or "mean(orders/s) >= 3" (mean of oversold, double-holders, stuck, orphan, orders/s, p99, busy-share)';

export function parseCondition(input: string): Parsed<Condition> {
  const text = input.trim();
  const m = /^(p|mean)\s*\(\s*([a-z/0-9-]+)\s*(?:(>=|>)\s*(\d+))?\s*\)\s*(<=|>=|<|>)\s*(\S+)$/.exec(text);
  if (!m) return { ok: false, message: `${CONDITION_HELP}, found ${quote(text)}` };
  const [, fn, metric, inner, innerValue, comparator, thresholdText] = m;
  let statistic: Condition['statistic'];
  if (fn === 'p') {
    if (inner === undefined) return { ok: false, message: `p(...) needs an event, e.g. p(oversold > 0), found ${quote(text)}` };
    const k = Number(innerValue) - (inner === '>=' ? 1 : 0);
    if (metric === 'oversold') {
      if (k < 0 || k >= HISTOGRAM_BUCKETS - 1) return { ok: false, message: `p(oversold > k) takes k from 0 to ${HISTOGRAM_BUCKETS - 2}, found ${quote(text)}` };
      statistic = { kind: 'p', metric: 'oversold', above: k };
    } else if (metric === 'double-holders') {
      if (k !== 0) return { ok: false, message: `p(double-holders ...) counts runs with any: write p(double-holders > 0), found ${quote(text)}` };
      statistic = { kind: 'p', metric: 'double-holders' };
    } else return { ok: false, message: `p(...) reads oversold or double-holders, found ${quote(metric)}` };
  } else {
    if (inner !== undefined) return { ok: false, message: `mean(...) takes a metric alone, e.g. mean(stuck), found ${quote(text)}` };
    if (!(metric in MEANS)) return { ok: false, message: `mean(...) reads ${Object.keys(MEANS).join(', ')}, found ${quote(metric)}` };
    statistic = { kind: 'mean', metric: metric as MeanMetric };
  }
  let threshold: number;
  if (statistic.kind === 'mean' && MEANS[statistic.metric].time) {
    const d = thresholdText === '0' ? ({ ok: true, value: 0 } as const) : parseDuration(thresholdText);
    if (!d.ok) return { ok: false, message: `mean(${statistic.metric}) is a time: ${d.message}` };
    threshold = d.value;
  } else {
    const pct = /^(\d+(?:\.\d+)?)%$/.exec(thresholdText);
    threshold = pct ? Number(pct[1]) / 100 : Number(thresholdText);
    if (!Number.isFinite(threshold)) return { ok: false, message: `expected a number after ${comparator}, found ${quote(thresholdText)}` };
    if (statistic.kind === 'p' && (threshold < 0 || threshold > 1)) return { ok: false, message: `a probability lies in 0..1 (or 0%..100%), found ${quote(thresholdText)}` };
  }
  return { ok: true, value: { text, statistic, comparator: comparator as Comparator, threshold } };
}

/** The statistic of one variant of one cell, with its interval where it has one. */
export function measure(condition: Condition, t: VariantTally): Interval {
  const s = condition.statistic;
  if (s.kind === 'mean') {
    const x = t.runs === 0 ? 0 : MEANS[s.metric].read(t) / t.runs;
    return { estimate: x, low: x, high: x };
  }
  const k = s.metric === 'double-holders' ? t.doubleHolderRuns : t.oversoldHistogram.slice(s.above + 1).reduce((a, b) => a + b, 0);
  return wilson(k, t.runs);
}

const compareTo = (x: number, c: Comparator, y: number): boolean => (c === '<' ? x < y : c === '<=' ? x <= y : c === '>' ? x > y : x >= y);

/** Whether the condition holds at the estimate, for the whole interval (surely), or for part of it (possibly). */
export function judge(condition: Condition, i: Interval): { estimate: boolean; surely: boolean; possibly: boolean } {
  const at = (x: number): boolean => compareTo(x, condition.comparator, condition.threshold);
  return { estimate: at(i.estimate), surely: at(i.low) && at(i.high), possibly: at(i.low) || at(i.high) };
}

type Reading = 'estimate' | 'surely' | 'possibly';

/**
 * The first index where `holds` differs from its value at index 0, by bisection, given that
 * it differs at the last index; null when both ends agree (no boundary inside the range).
 */
export async function bisect(count: number, holds: (i: number) => Promise<boolean>): Promise<number | null> {
  const start = await holds(0);
  if ((await holds(count - 1)) === start) return null;
  let lo = 0;
  let hi = count - 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await holds(mid)) === start) lo = mid;
    else hi = mid;
  }
  return hi;
}

interface BoundaryPoint {
  index: number;
  label: string;
  value: Interval;
  holds: boolean;
}

interface VariantBoundary {
  variant: string;
  /** The condition at the first and last value of the range. */
  ends: [BoundaryPoint, BoundaryPoint];
  /** The last value on the starting side and the first past the flip (estimate); null: no flip in the range. */
  boundary: { before: BoundaryPoint; after: BoundaryPoint } | null;
  /** Where the flip may lie given the seeds: from `from` to `to` (labels); null ends: beyond the range. */
  uncertainty: { from: string | null; to: string | null };
  /** The worst run of the failing cell next to the boundary, and the command that replays it. */
  worst: { seed: number; oversold: number; doubleHolders: number; replay: string } | null;
}

export interface FindResult {
  condition: string;
  path: string;
  variants: VariantBoundary[];
  /** Cells run, in the order the search asked for them (by index into the axis). */
  cellsRun: number[];
}

/**
 * Finds, for each variant, where `condition` flips along the values `labels`; `cellAt` runs
 * (or returns the cached) compare of one value.
 */
export async function findBoundary(
  condition: Condition,
  path: string,
  labels: readonly string[],
  variants: readonly string[],
  cellAt: (index: number) => Promise<CompareResult>,
  replay: (index: number, seed: number, variant: string) => string,
): Promise<FindResult> {
  const cellsRun: number[] = [];
  const cache = new Map<number, CompareResult>();
  const cell = async (i: number): Promise<CompareResult> => {
    let r = cache.get(i);
    if (!r) {
      r = await cellAt(i);
      cache.set(i, r);
      cellsRun.push(i);
    }
    return r;
  };
  const tallyOf = async (i: number, v: number): Promise<VariantTally> => (await cell(i)).tally.variants[v];
  const point = async (i: number, v: number): Promise<BoundaryPoint> => {
    const value = measure(condition, await tallyOf(i, v));
    return { index: i, label: labels[i], value, holds: judge(condition, value).estimate };
  };
  const out: VariantBoundary[] = [];
  for (let v = 0; v < variants.length; v++) {
    const reading = (r: Reading) => async (i: number): Promise<boolean> => judge(condition, measure(condition, await tallyOf(i, v)))[r];
    const flip = await bisect(labels.length, reading('estimate'));
    const ends: [BoundaryPoint, BoundaryPoint] = [await point(0, v), await point(labels.length - 1, v)];
    let boundary: VariantBoundary['boundary'] = null;
    let uncertainty: VariantBoundary['uncertainty'] = { from: null, to: null };
    let worst: VariantBoundary['worst'] = null;
    if (flip !== null) {
      boundary = { before: await point(flip - 1, v), after: await point(flip, v) };
      // Where the condition holds at the start, "surely" shrinks that side and "possibly"
      // grows it; where it fails at the start, the other way round.
      const startHolds = ends[0].holds;
      const inner = await bisect(labels.length, reading(startHolds ? 'surely' : 'possibly'));
      const outer = await bisect(labels.length, reading(startHolds ? 'possibly' : 'surely'));
      uncertainty = {
        from: inner === null ? null : labels[Math.max(0, inner - 1)],
        to: outer === null ? null : labels[outer],
      };
      // The failing cell next to the boundary: the run to look at to see why it fails.
      const failing = boundary.after.holds ? boundary.before.index : boundary.after.index;
      const w = (await cell(failing)).tally.variants[v].worst;
      if (w) worst = { seed: w.seed, oversold: w.oversold, doubleHolders: w.doubleHolders, replay: replay(failing, w.seed, variants[v]) };
    }
    out.push({ variant: variants[v], ends, boundary, uncertainty, worst });
  }
  return { condition: condition.text, path, variants: out, cellsRun };
}
