/**
 * `lock-sim agree`: the model against the real thing, per variant. The simulated side runs
 * the scenario over the seeds; the real side runs it `repeat` times on fresh servers, real run
 * i replaying seed i of the list (its arrivals, request draws and fault schedule come from the
 * same named random streams), so the runs pair up, and the pairs are shown. Each metric is
 * judged by a two-sample test suited to it (sweep/two-sample.ts): Fisher's exact test for the
 * probabilities, Mann-Whitney's U for times and rates; the p-values of every judged metric of
 * every variant are corrected together (Holm), and a metric differs when its corrected p is
 * below 0.05. Each row also says the smallest difference its sample sizes could detect. Stuck
 * and orphan time come from the servers' view of lock keys, which a real run reads from
 * keyspace notifications (key-watch.ts): both sides are rounded to that reading's resolution
 * before the test, so a difference below it is no difference.
 */
import { runSimulated } from '../backends/default-backend.js';
import type { RunResult } from '../runner/run.js';
import type { Scenario } from '../spec/scenario.js';
import type { VariantSpec } from '../spec/variant.js';
import { meanInterval, wilson, type Interval } from '../sweep/stats.js';
import { detectableProportionChange, detectableShift, fisherExact, holm, mannWhitney, pooledSd } from '../sweep/two-sample.js';
import { RealBackendError } from '../backends/real/errors.js';
import { runVariantReal } from '../backends/real/real-run.js';

export type AgreeMetric = 'p(oversold)' | 'p(double-holders)' | 'stuck-time' | 'orphan-time' | 'orders/s';
export const AGREE_METRICS: readonly AgreeMetric[] = ['p(oversold)', 'p(double-holders)', 'stuck-time', 'orphan-time', 'orders/s'];

/**
 * How far a real run's value of a metric can be off by the way it is measured, in the metric's
 * unit: a key-state record of a real run is late by a read's round trip plus at most the wait
 * for the open commands' replies (key-watch.ts OUTCOME_TIMEOUT_MS, 20 ms), so a stretch of
 * stuck or orphan time can start or end up to about 20 ms off. Both sides' values are rounded
 * to it before the test.
 */
export const REAL_RESOLUTION: Readonly<Partial<Record<AgreeMetric, number>>> = { 'stuck-time': 0.02, 'orphan-time': 0.02 };

/** The corrected p below which a metric differs. */
export const ALPHA = 0.05;

type AgreeTest = 'fisher-exact' | 'mann-whitney';

export interface AgreeRow {
  metric: AgreeMetric;
  /** Probabilities as fractions; times in seconds; throughput in orders per second. */
  simulated: Interval;
  real: Interval | null;
  test: AgreeTest;
  /** The test's two-sided p-value, and after Holm's correction over every judged row. */
  p: number;
  adjustedP: number;
  /** The smallest difference (in the metric's unit) the sample sizes detect at alpha 0.05 with power 0.8. */
  detectable: number;
  /** null: not judged (left out of the judged metrics). */
  consistent: boolean | null;
}

/** Real run `run` (from 1) and the model's run of the same seed, metric by metric. */
interface AgreePair {
  run: number;
  seed: number;
  simulated: Record<AgreeMetric, number>;
  real: Record<AgreeMetric, number>;
}

export interface AgreeVariant {
  variant: string;
  simulatedRuns: number;
  realRuns: number;
  rows: AgreeRow[];
  pairs: AgreePair[];
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

/** A run's value of a metric. */
function metricValue(run: RunResult, metric: AgreeMetric): number {
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

const isProbability = (metric: AgreeMetric): boolean => metric.startsWith('p(');

/** The estimate of one metric over runs, with its 95% interval (Wilson, Student's t). */
export function estimate(runs: readonly RunResult[], metric: AgreeMetric): Interval {
  const values = runs.map((r) => metricValue(r, metric));
  if (isProbability(metric)) return wilson(values.filter((v) => v > 0).length, values.length);
  return meanInterval(values.length, values.reduce((s, v) => s + v, 0), values.reduce((s, v) => s + v * v, 0));
}

/** A value rounded to the metric's measuring resolution (unchanged where it has none). */
function atResolution(metric: AgreeMetric, value: number): number {
  const step = REAL_RESOLUTION[metric];
  return step === undefined ? value : Math.round(value / step) * step;
}

/** One metric's test between the two sets of runs (p not yet corrected). */
function testMetric(metric: AgreeMetric, simulated: readonly RunResult[], real: readonly RunResult[]): Pick<AgreeRow, 'test' | 'p' | 'detectable'> {
  const xs = simulated.map((r) => atResolution(metric, metricValue(r, metric)));
  const ys = real.map((r) => atResolution(metric, metricValue(r, metric)));
  if (isProbability(metric)) {
    const k1 = xs.filter((v) => v > 0).length;
    const k2 = ys.filter((v) => v > 0).length;
    const p0 = xs.length > 0 ? k1 / xs.length : 0;
    return { test: 'fisher-exact', p: fisherExact(k1, xs.length, k2, ys.length), detectable: detectableProportionChange(p0, xs.length, ys.length) };
  }
  return { test: 'mann-whitney', p: mannWhitney(xs, ys).p, detectable: detectableShift(pooledSd(xs, ys), xs.length, ys.length) };
}

/**
 * The rows of one variant, uncorrected: every metric with both estimates and its test;
 * `judged` says which decide. Use `judge` to correct them (alone, or with other variants').
 */
export function testRuns(variant: string, simulated: readonly RunResult[], real: readonly RunResult[], judged: readonly AgreeMetric[] = AGREE_METRICS, seeds: readonly number[] = []): AgreeVariant {
  const rows = AGREE_METRICS.map((metric): AgreeRow => {
    const t = testMetric(metric, simulated, real);
    return { metric, simulated: estimate(simulated, metric), real: estimate(real, metric), ...t, adjustedP: t.p, consistent: judged.includes(metric) ? true : null };
  });
  const values = (run: RunResult): Record<AgreeMetric, number> => Object.fromEntries(AGREE_METRICS.map((m) => [m, metricValue(run, m)])) as Record<AgreeMetric, number>;
  const pairs = real.map((run, i): AgreePair => {
    const seed = seeds[i] ?? run.seed;
    const twin = simulated.find((s) => s.seed === seed);
    return { run: i + 1, seed, simulated: twin ? values(twin) : values(simulated[i]), real: values(run) };
  });
  return { variant, simulatedRuns: simulated.length, realRuns: real.length, rows, pairs, consistent: true };
}

/**
 * Holm's correction over every judged row of every variant: a row differs when its corrected
 * p is below ALPHA; a variant is consistent when none of its rows differs.
 */
export function judge(variants: AgreeVariant[]): AgreeVariant[] {
  const judged = variants.flatMap((v) => v.rows.filter((r) => r.consistent !== null));
  const adjusted = holm(judged.map((r) => r.p));
  judged.forEach((r, i) => {
    r.adjustedP = adjusted[i];
    r.consistent = adjusted[i] >= ALPHA;
  });
  for (const v of variants) v.consistent = v.rows.every((r) => r.consistent !== false);
  return variants;
}

/** One variant's rows, corrected within the variant (tests and a single variant's agree). */
export function compareRuns(variant: string, simulated: readonly RunResult[], real: readonly RunResult[], judged: readonly AgreeMetric[] = AGREE_METRICS): AgreeVariant {
  return judge([testRuns(variant, simulated, real, judged)])[0];
}

/**
 * Real run i replays seed i of the list: more real runs than seeds would replay some seeds
 * twice and pair nothing with them, so that is refused with the reason.
 */
export function checkRepeat(repeat: number, seeds: readonly number[]): void {
  if (repeat > seeds.length) {
    throw new RealBackendError(`--repeat ${repeat} is more than the ${seeds.length} seeds: real run i replays seed i of --seeds (its arrivals and faults), so give at least ${repeat} seeds`);
  }
}

/** The simulated side's run of one seed, on the variant's backend (src/backends: a user lock module's runs in the user-code worker). */
type SimulatedRun = (scenario: Scenario, variant: VariantSpec, seed: number) => RunResult;

/** Agree of the model with real Redis; `simulate` makes the model's runs (src/backends/real.ts passes the default backend's). */
async function agree(scenario: Scenario, options: AgreeOptions, simulate: SimulatedRun): Promise<AgreeResult> {
  checkRepeat(options.repeat, options.seeds);
  const selected: VariantSpec[] =
    options.variants && options.variants.length > 0 ? scenario.variants.filter((v) => options.variants?.includes(v.name)) : scenario.variants;
  const variants: AgreeVariant[] = [];
  for (const v of selected) {
    const simulated: RunResult[] = [];
    for (const seed of options.seeds) {
      // Only the metrics are kept: a long sweep must not hold every history.
      const run = simulate(scenario, v, seed);
      simulated.push({ ...run, history: [] });
      options.onRun?.('simulated', v.name, simulated.length, options.seeds.length);
    }
    const real: RunResult[] = [];
    for (let i = 0; i < options.repeat; i++) {
      const seed = options.seeds[i];
      const run = await runVariantReal(scenario, v, seed, { redisServer: options.redisServer });
      real.push({ ...run, history: [] });
      options.onRun?.('real', v.name, real.length, options.repeat);
    }
    variants.push(testRuns(v.name, simulated, real, options.judged, options.seeds));
  }
  judge(variants);
  return {
    scenario: scenario.name,
    file: scenario.file,
    seeds: [...options.seeds],
    repeat: options.repeat,
    variants,
    consistent: variants.every((v) => v.consistent),
  };
}

/** agree with the model's runs on each variant's default backend (default-backend.ts) beside the real ones. */
export function agreeWithModel(scenario: Scenario, options: AgreeOptions): Promise<AgreeResult> {
  return agree(scenario, options, (s, v, seed) => runSimulated(s, v, seed));
}
