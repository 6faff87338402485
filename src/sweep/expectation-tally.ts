/**
 * What `check` keeps of a sweep for each expectation: counts, integer sums and the seeds
 * worth replaying (the smallest seed wins a tie, so the tally does not depend on the order
 * in which runs finish). A `run` expectation must hold on every seed; a statistic (p, mean,
 * max, min) is judged on the whole sweep.
 */
import { compare } from '../runner/expectations.js';
import { metricByName } from '../checker/metric-names.js';
import type { Expectation } from '../spec/expectations.js';
import type { SeedOutcome } from './seed.js';

interface SeedValue {
  seed: number;
  value: number;
}

export interface ExpectationTally {
  expectation: Expectation;
  /** Index of the expectation's variant in the sweep's variant list. */
  variantIndex: number;
  runs: number;
  /** Runs where the value satisfied the comparison (run) or the condition (p). */
  matches: number;
  /** Sum of the values, in hundredths for fractional metrics. */
  scaledSum: number;
  first: SeedValue | null;
  firstMatch: SeedValue | null;
  firstMiss: SeedValue | null;
  max: SeedValue | null;
  min: SeedValue | null;
}

export function emptyExpectationTally(expectation: Expectation, variantIndex: number): ExpectationTally {
  return { expectation, variantIndex, runs: 0, matches: 0, scaledSum: 0, first: null, firstMatch: null, firstMiss: null, max: null, min: null };
}

const earlier = (a: SeedValue, b: SeedValue | null): boolean => b === null || a.seed < b.seed;
/** Above `b` (or equal from a smaller seed): the new maximum. */
const higher = (a: SeedValue, b: SeedValue | null): boolean => b === null || a.value > b.value || (a.value === b.value && a.seed < b.seed);
const lower = (a: SeedValue, b: SeedValue | null): boolean => b === null || a.value < b.value || (a.value === b.value && a.seed < b.seed);

function scaled(metric: string, value: number): number {
  return metricByName.get(metric)?.fractional ? Math.round(value * 100) : value;
}

export function addToExpectationTally(t: ExpectationTally, outcome: SeedOutcome): void {
  const e = t.expectation;
  const def = metricByName.get(e.metric);
  if (!def) throw new Error(`unknown metric ${e.metric}`);
  const value = def.read(outcome.metrics[t.variantIndex]);
  const here = { seed: outcome.seed, value };
  t.runs++;
  t.scaledSum += scaled(e.metric, value);
  if (earlier(here, t.first)) t.first = here;
  const test = e.statistic === 'p' ? e.condition : e.statistic === 'run' ? e : null;
  if (test) {
    if (compare(value, test.comparator, test.value)) {
      t.matches++;
      if (earlier(here, t.firstMatch)) t.firstMatch = here;
    } else if (earlier(here, t.firstMiss)) t.firstMiss = here;
  }
  if (higher(here, t.max)) t.max = here;
  if (lower(here, t.min)) t.min = here;
}

export function mergeExpectationTally(a: ExpectationTally, b: ExpectationTally): void {
  a.runs += b.runs;
  a.matches += b.matches;
  a.scaledSum += b.scaledSum;
  const pick = (x: SeedValue | null, y: SeedValue | null, better: typeof earlier) => (y !== null && better(y, x) ? y : x);
  a.first = pick(a.first, b.first, earlier);
  a.firstMatch = pick(a.firstMatch, b.firstMatch, earlier);
  a.firstMiss = pick(a.firstMiss, b.firstMiss, earlier);
  a.max = pick(a.max, b.max, higher);
  a.min = pick(a.min, b.min, lower);
}

export interface ExpectationVerdict {
  expectation: Expectation;
  passed: boolean;
  /** The judged value: the run's metric, the probability, the mean, the max or the min. */
  measured: number;
  runs: number;
  /** For `run` expectations: on how many runs it failed. */
  failedRuns: number;
  /** The run that shows the failure best (null when it passed). */
  replaySeed: number | null;
}

export function judgeTally(t: ExpectationTally): ExpectationVerdict {
  const e = t.expectation;
  const def = metricByName.get(e.metric);
  const n = Math.max(1, t.runs);
  const base = { expectation: e, runs: t.runs, failedRuns: 0 };
  switch (e.statistic) {
    case 'run': {
      const failedRuns = t.runs - t.matches;
      const shown = failedRuns > 0 ? t.firstMiss : t.first;
      return { ...base, failedRuns, passed: failedRuns === 0, measured: shown?.value ?? 0, replaySeed: failedRuns > 0 ? shown?.seed ?? null : null };
    }
    case 'p': {
      const measured = Number((t.matches / n).toFixed(6));
      const passed = compare(measured, e.comparator, e.value);
      // Too often: replay a run where the condition held; too rarely: one where it did not.
      const replay = measured > e.value ? t.firstMatch : t.firstMiss;
      return { ...base, passed, measured, replaySeed: passed ? null : replay?.seed ?? null };
    }
    case 'mean': {
      const measured = Number((t.scaledSum / n / (def?.fractional ? 100 : 1)).toFixed(4));
      const passed = compare(measured, e.comparator, e.value);
      const replay = measured > e.value ? t.max : t.min;
      return { ...base, passed, measured, replaySeed: passed ? null : replay?.seed ?? null };
    }
    case 'max':
    case 'min': {
      const pick = e.statistic === 'max' ? t.max : t.min;
      const measured = pick?.value ?? 0;
      const passed = compare(measured, e.comparator, e.value);
      return { ...base, passed, measured, replaySeed: passed ? null : pick?.seed ?? null };
    }
  }
}
