/**
 * What `compare` keeps of a sweep: per variant, integer counts and sums and the worst run;
 * per variant against a baseline, sums of paired differences. Everything is integer and
 * order-independent (ties go to the smaller seed), so the same seeds give the same tally
 * whatever the number of threads, and shards add up to the whole (merge).
 */
import type { RunMetrics } from '../checker/check-history.js';
import { LIVENESS_CLASSES, VERDICTS, verdictOf } from '../checker/verdict.js';
import type { SeedOutcome } from './seed.js';

interface WorstRun {
  seed: number;
  oversold: number;
  doubleHolders: number;
  doubleHolderUs: number;
}

export interface VariantTally {
  variant: string;
  runs: number;
  oversellRuns: number;
  oversoldSum: number;
  doubleHolderRuns: number;
  doubleHoldersSum: number;
  stuckUsSum: number;
  orphanUsSum: number;
  /** Orders per second, in hundredths. */
  throughputCentsSum: number;
  p99UsSum: number;
  /** Runs by units oversold: index k counts runs with k, the last index those with more. */
  oversoldHistogram: number[];
  worst: WorstRun | null;
  /** Flash-sale figures (checker/flash-sale.ts): runs that sold out and the sum of their sell-out times. */
  soldOutRuns: number;
  soldOutUsSum: number;
  /** Arrivals per second in hundredths; the lock-busy share in basis points; p99 by outcome. */
  arrivalsCentsSum: number;
  busyBasisPointsSum: number;
  p99OrderedUsSum: number;
  p99RefusedUsSum: number;
  p99ErrorUsSum: number;
  /** Runs by verdict, in VERDICTS's order (checker/verdict.ts: SAFE to UNSAFE). */
  verdictRuns: number[];
  /** Runs by liveness class, in LIVENESS_CLASSES's order (LIVE, STALLED, UNAVAILABLE): a broken safety verdict hides it. */
  livenessRuns: number[];
  lostUpdateRuns: number;
  lostUpdatesSum: number;
  lostUnitsSum: number;
  /** The liveness figures: the share of judged requests that failed, in basis points, and the longest stall. */
  failedBasisPointsSum: number;
  longestStallUsSum: number;
}

/** The flash-sale sums of a tally, in the order merge adds them. */
const FLASH_SALE_SUMS = ['soldOutRuns', 'soldOutUsSum', 'arrivalsCentsSum', 'busyBasisPointsSum', 'p99OrderedUsSum', 'p99RefusedUsSum', 'p99ErrorUsSum'] as const;
/** The sums of verdicts, lost updates and liveness, in the order merge adds them. */
const VERDICT_SUMS = ['lostUpdateRuns', 'lostUpdatesSum', 'lostUnitsSum', 'failedBasisPointsSum', 'longestStallUsSum'] as const;

/** Buckets of the oversold histogram: 0, 1, ..., 9, and 10 or more. */
export const HISTOGRAM_BUCKETS = 11;

/** Sums of per-seed differences (variant - baseline), and of their squares. */
interface PairedTally {
  variant: string;
  baseline: string;
  runs: number;
  oversold: { sum: number; squares: number };
  oversell: { sum: number; squares: number };
  throughputCents: { sum: number; squares: number };
}

export interface CompareTally {
  variants: VariantTally[];
  paired: PairedTally[];
}

export function emptyTally(variants: readonly string[], baseline: string | null): CompareTally {
  return {
    variants: variants.map((variant) => ({
      variant, runs: 0, oversellRuns: 0, oversoldSum: 0, doubleHolderRuns: 0, doubleHoldersSum: 0, stuckUsSum: 0, orphanUsSum: 0, throughputCentsSum: 0, p99UsSum: 0,
      oversoldHistogram: Array<number>(HISTOGRAM_BUCKETS).fill(0), worst: null,
      soldOutRuns: 0, soldOutUsSum: 0, arrivalsCentsSum: 0, busyBasisPointsSum: 0, p99OrderedUsSum: 0, p99RefusedUsSum: 0, p99ErrorUsSum: 0,
      verdictRuns: Array<number>(VERDICTS.length).fill(0), livenessRuns: Array<number>(LIVENESS_CLASSES.length).fill(0),
      lostUpdateRuns: 0, lostUpdatesSum: 0, lostUnitsSum: 0, failedBasisPointsSum: 0, longestStallUsSum: 0,
    })),
    paired: baseline === null
      ? []
      : variants.filter((v) => v !== baseline).map((variant) => ({
        variant, baseline, runs: 0, oversold: { sum: 0, squares: 0 }, oversell: { sum: 0, squares: 0 }, throughputCents: { sum: 0, squares: 0 },
      })),
  };
}

const cents = (perS: number): number => Math.round(perS * 100);

/** Worse = more oversold, then more double holders, then longer; a tie goes to the smaller seed. */
function worse(a: WorstRun, b: WorstRun | null): boolean {
  if (b === null) return true;
  if (a.oversold !== b.oversold) return a.oversold > b.oversold;
  if (a.doubleHolders !== b.doubleHolders) return a.doubleHolders > b.doubleHolders;
  if (a.doubleHolderUs !== b.doubleHolderUs) return a.doubleHolderUs > b.doubleHolderUs;
  return a.seed < b.seed;
}

function addRun(t: VariantTally, seed: number, m: RunMetrics): void {
  t.runs++;
  if (m.oversold > 0) t.oversellRuns++;
  t.oversoldSum += m.oversold;
  if (m.doubleHolders > 0) t.doubleHolderRuns++;
  t.doubleHoldersSum += m.doubleHolders;
  t.stuckUsSum += m.stuckLockUs;
  t.orphanUsSum += m.orphanLockUs;
  t.throughputCentsSum += cents(m.throughputPerS);
  t.p99UsSum += m.latencyP99Us;
  t.oversoldHistogram[Math.min(m.oversold, HISTOGRAM_BUCKETS - 1)]++;
  const f = m.flashSale;
  if (f.soldOutUs >= 0) {
    t.soldOutRuns++;
    t.soldOutUsSum += f.soldOutUs;
  }
  t.arrivalsCentsSum += cents(f.arrivalsPerS);
  t.busyBasisPointsSum += Math.round(f.busyShare * 10_000);
  t.p99OrderedUsSum += f.latency.ordered.p99Us;
  t.p99RefusedUsSum += f.latency.refused.p99Us;
  t.p99ErrorUsSum += f.latency.error.p99Us;
  t.verdictRuns[VERDICTS.indexOf(verdictOf(m))]++;
  t.livenessRuns[LIVENESS_CLASSES.indexOf(m.liveness.verdict)]++;
  if (m.lostUpdates > 0) t.lostUpdateRuns++;
  t.lostUpdatesSum += m.lostUpdates;
  t.lostUnitsSum += m.lostUnits;
  t.failedBasisPointsSum += Math.round(m.liveness.failedShare * 10_000);
  t.longestStallUsSum += m.liveness.longestStallUs;
  const run: WorstRun = { seed, oversold: m.oversold, doubleHolders: m.doubleHolders, doubleHolderUs: m.doubleHolderUs };
  if (worse(run, t.worst)) t.worst = run;
}

function addDifference(sum: { sum: number; squares: number }, d: number): void {
  sum.sum += d;
  sum.squares += d * d;
}

export function addOutcome(tally: CompareTally, outcome: SeedOutcome): void {
  tally.variants.forEach((t, i) => addRun(t, outcome.seed, outcome.metrics[i]));
  for (const p of tally.paired) {
    const v = outcome.metrics[tally.variants.findIndex((t) => t.variant === p.variant)];
    const b = outcome.metrics[tally.variants.findIndex((t) => t.variant === p.baseline)];
    p.runs++;
    addDifference(p.oversold, v.oversold - b.oversold);
    addDifference(p.oversell, (v.oversold > 0 ? 1 : 0) - (b.oversold > 0 ? 1 : 0));
    addDifference(p.throughputCents, cents(v.throughputPerS) - cents(b.throughputPerS));
  }
}

/** Adds shard `b` into `a` (same variants and baseline). */
export function mergeTally(a: CompareTally, b: CompareTally): void {
  a.variants.forEach((t, i) => {
    const o = b.variants[i];
    t.runs += o.runs;
    t.oversellRuns += o.oversellRuns;
    t.oversoldSum += o.oversoldSum;
    t.doubleHolderRuns += o.doubleHolderRuns;
    t.doubleHoldersSum += o.doubleHoldersSum;
    t.stuckUsSum += o.stuckUsSum;
    t.orphanUsSum += o.orphanUsSum;
    t.throughputCentsSum += o.throughputCentsSum;
    t.p99UsSum += o.p99UsSum;
    o.oversoldHistogram.forEach((n, k) => (t.oversoldHistogram[k] += n));
    for (const key of FLASH_SALE_SUMS) t[key] += o[key];
    for (const key of VERDICT_SUMS) t[key] += o[key];
    o.verdictRuns.forEach((n, k) => (t.verdictRuns[k] += n));
    o.livenessRuns.forEach((n, k) => (t.livenessRuns[k] += n));
    if (o.worst && worse(o.worst, t.worst)) t.worst = o.worst;
  });
  a.paired.forEach((p, i) => {
    const o = b.paired[i];
    p.runs += o.runs;
    for (const key of ['oversold', 'oversell', 'throughputCents'] as const) {
      p[key].sum += o[key].sum;
      p[key].squares += o[key].squares;
    }
  });
}
