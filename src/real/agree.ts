/**
 * `lock-sim agree`: the model against the real thing, per variant. The simulated side runs
 * the scenario over the seeds; the real side runs it `repeat` times on fresh servers (repeat
 * i draws its arrivals and faults from seed i of the list, cycling). Each side gives an
 * estimate with a 95% interval (sweep/stats.ts: Wilson for probabilities, Student's t for
 * means), and a metric agrees when the two intervals overlap. Stuck and orphan time come from
 * the servers' view of lock keys, which a real run reads from keyspace notifications
 * (key-watch.ts): their real interval is widened by that reading's resolution.
 */
import { runVariant, type RunResult } from '../runner/run.js';
import type { Scenario, VariantSpec } from '../scenario/types.js';
import { meanInterval, wilson, type Interval } from '../sweep/stats.js';
import { runVariantReal } from './real-run.js';

export type AgreeMetric = 'p(oversold)' | 'p(double-holders)' | 'stuck-time' | 'orphan-time' | 'orders/s';
export const AGREE_METRICS: readonly AgreeMetric[] = ['p(oversold)', 'p(double-holders)', 'stuck-time', 'orphan-time', 'orders/s'];

/**
 * How far a real run's value of a metric can be off by the way it is measured, in the metric's
 * unit: a key-state record of a real run is late by a read's round trip plus at most the wait
 * for the open commands' replies (key-watch.ts OUTCOME_TIMEOUT_MS, 20 ms), so a stretch of
 * stuck or orphan time can start or end up to about 20 ms off. Not a statistical interval: a
 * bound of the instrument, added on both sides of the real interval before the overlap test.
 */
export const REAL_RESOLUTION: Readonly<Partial<Record<AgreeMetric, number>>> = { 'stuck-time': 0.02, 'orphan-time': 0.02 };

export interface AgreeRow {
  metric: AgreeMetric;
  /** Probabilities as fractions; times in seconds; throughput in orders per second. */
  simulated: Interval;
  real: Interval | null;
  /** null: not judged (left out of the judged metrics). */
  consistent: boolean | null;
}

export interface AgreeVariant {
  variant: string;
  simulatedRuns: number;
  realRuns: number;
  rows: AgreeRow[];
  consistent: boolean;
}

export interface AgreeResult {
  scenario: string;
  file: string;
  seeds: number[];
  repeat: number;
  variants: AgreeVariant[];
  consistent: boolean;
}

export interface AgreeOptions {
  seeds: readonly number[];
  repeat: number;
  variants?: readonly string[];
  redisServer: string;
  /** The metrics whose agreement decides `consistent` (default: all the real side measures). */
  judged?: readonly AgreeMetric[];
  /** Called after each run (progress). */
  onRun?: (side: 'simulated' | 'real', variant: string, done: number, total: number) => void;
}

/**
 * Whether two intervals share a point. The ends are means of floating-point sums, so two
 * sets of equal runs (an interval of width 0 each) can differ in the last bits: a tolerance
 * of a billionth of their size absorbs that, and nothing a measurement could show.
 */
export function overlap(a: Interval, b: Interval): boolean {
  const tolerance = 1e-9 * Math.max(1, Math.abs(a.low), Math.abs(a.high), Math.abs(b.low), Math.abs(b.high));
  return a.low <= b.high + tolerance && b.low <= a.high + tolerance;
}

function value(run: RunResult, metric: AgreeMetric): number {
  const m = run.metrics;
  switch (metric) {
    case 'p(oversold)':
      return m.oversold > 0 ? 1 : 0;
    case 'p(double-holders)':
      return m.doubleHolders > 0 ? 1 : 0;
    case 'stuck-time':
      return m.stuckLockUs / 1e6;
    case 'orphan-time':
      return m.orphanLockUs / 1e6;
    case 'orders/s':
      return m.throughputPerS;
  }
}

/** The estimate of one metric over runs. */
export function estimate(runs: readonly RunResult[], metric: AgreeMetric): Interval {
  const values = runs.map((r) => value(r, metric));
  if (metric.startsWith('p(')) return wilson(values.filter((v) => v > 0).length, values.length);
  return meanInterval(values.length, values.reduce((s, v) => s + v, 0), values.reduce((s, v) => s + v * v, 0));
}

/**
 * The table of one variant from its two sets of runs. Metrics outside `judged` are shown
 * with both estimates but not judged (consistent: null).
 */
export function compareRuns(variant: string, simulated: readonly RunResult[], real: readonly RunResult[], judged: readonly AgreeMetric[] = AGREE_METRICS): AgreeVariant {
  const rows = AGREE_METRICS.map((metric): AgreeRow => {
    const s = estimate(simulated, metric);
    const r = estimate(real, metric);
    const slack = REAL_RESOLUTION[metric] ?? 0;
    const widened = { ...r, low: r.low - slack, high: r.high + slack };
    return { metric, simulated: s, real: r, consistent: judged.includes(metric) ? overlap(s, widened) : null };
  });
  return { variant, simulatedRuns: simulated.length, realRuns: real.length, rows, consistent: rows.every((r) => r.consistent !== false) };
}

export async function agree(scenario: Scenario, options: AgreeOptions): Promise<AgreeResult> {
  const selected: VariantSpec[] =
    options.variants && options.variants.length > 0 ? scenario.variants.filter((v) => options.variants?.includes(v.name)) : scenario.variants;
  const variants: AgreeVariant[] = [];
  for (const v of selected) {
    const simulated: RunResult[] = [];
    for (const seed of options.seeds) {
      // Only the metrics are kept: a long sweep must not hold every history.
      const run = runVariant(scenario, v, seed);
      simulated.push({ ...run, history: [] });
      options.onRun?.('simulated', v.name, simulated.length, options.seeds.length);
    }
    const real: RunResult[] = [];
    for (let i = 0; i < options.repeat; i++) {
      const seed = options.seeds[i % options.seeds.length];
      const run = await runVariantReal(scenario, v, seed, { redisServer: options.redisServer });
      real.push({ ...run, history: [] });
      options.onRun?.('real', v.name, real.length, options.repeat);
    }
    variants.push(compareRuns(v.name, simulated, real, options.judged));
  }
  return {
    scenario: scenario.name,
    file: scenario.file,
    seeds: [...options.seeds],
    repeat: options.repeat,
    variants,
    consistent: variants.every((v) => v.consistent),
  };
}
