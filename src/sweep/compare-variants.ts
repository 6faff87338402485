/**
 * `compare`: every variant over the same seeds (common random numbers), tallied as it goes
 * so memory does not grow with the number of seeds, and summarised with intervals.
 */
import type { Scenario } from '../spec/scenario.js';
import { shardSeeds } from '../scenario/seeds.js';
import { shellQuote } from './shell-quote.js';
import { addOutcome, emptyTally, mergeTally, type CompareTally } from './compare-tally.js';
import { runSeeds } from './run-seeds.js';
import { meanInterval, wilson, type Interval } from './stats.js';
import { coverageProblem, identityProblems, LOCK_SIM_VERSION, scenarioIdentity, seedsIdentity, type ScenarioIdentity, type SeedsIdentity } from './tally-identity.js';

export { seedsLabel } from './tally-identity.js';
import { LIVENESS_CLASSES, VERDICTS, type LivenessVerdict, type Verdict } from '../checker/verdict.js';

export interface CompareOptions {
  /** Default: 1..100. */
  seeds?: readonly number[];
  /** Default: every variant of the scenario. */
  variants?: readonly string[];
  /** Report paired differences of every other variant against this one. */
  baseline?: string | null;
  /** Worker threads (default 1). */
  jobs?: number;
  /** Run only shard k of n of the seeds. */
  shard?: { k: number; n: number } | null;
  onProgress?(done: number, total: number): void;
}

/** A compare's raw result: enough to summarise, and to merge with the other shards. */
export interface CompareResult {
  /** The lock-sim version that ran it; with scenario and seeds, what merge checks (tally-identity.ts). */
  version: string;
  scenario: ScenarioIdentity;
  seeds: SeedsIdentity;
  shard: { k: number; n: number } | null;
  variants: string[];
  baseline: string | null;
  tally: CompareTally;
}

export const DEFAULT_COMPARE_SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

export async function compare(scenario: Scenario, options: CompareOptions = {}): Promise<CompareResult> {
  const seeds = options.seeds ?? DEFAULT_COMPARE_SEEDS;
  const variants = options.variants && options.variants.length > 0 ? [...options.variants] : scenario.variants.map((v) => v.name);
  for (const v of variants) if (!scenario.variants.some((s) => s.name === v)) throw new Error(`no variant named ${v}`);
  const baseline = options.baseline ?? null;
  if (baseline !== null && !variants.includes(baseline)) throw new Error(`the baseline ${baseline} is not among the variants compared`);
  const shard = options.shard ?? null;
  const tally = emptyTally(variants, baseline);
  await runSeeds(scenario, {
    seeds: shardSeeds(seeds, shard),
    variants,
    jobs: options.jobs ?? 1,
    onOutcome: (outcome) => addOutcome(tally, outcome),
    onProgress: options.onProgress,
  });
  return {
    version: LOCK_SIM_VERSION,
    scenario: scenarioIdentity(scenario),
    seeds: seedsIdentity(seeds),
    shard,
    variants,
    baseline,
    tally,
  };
}

/**
 * Combines the shards of one compare; they must be tallies of one run (tally-identity.ts:
 * scenario, module code, seed list, version, variants, baseline, shard count) covering
 * every shard exactly once. `files` names them in the messages.
 */
export function mergeCompareResults(parts: readonly CompareResult[], files: readonly string[] = parts.map((_, i) => `part ${i + 1}`)): CompareResult {
  if (parts.length === 0) throw new Error('nothing to merge');
  const first = parts[0];
  const problems = identityProblems(files, parts, 'compare');
  const coverage = problems.length === 0 ? coverageProblem(files, parts) : null;
  if (problems.length > 0 || coverage !== null) throw new Error([...problems, ...(coverage === null ? [] : [coverage])].join('\n'));
  const tally = emptyTally(first.variants, first.baseline);
  for (const p of parts) mergeTally(tally, p.tally);
  return { ...first, shard: null, tally };
}

export interface VariantSummary {
  variant: string;
  runs: number;
  /** P(oversold > 0) with its Wilson 95% interval. */
  oversell: Interval;
  oversoldMean: number;
  oversoldMax: number;
  /** P(double holders > 0). */
  doubleHolders: Interval;
  stuckMeanUs: number;
  orphanMeanUs: number;
  throughputMean: number;
  p99MeanUs: number;
  /** Runs by units oversold (0, 1, ..., 9, 10 or more). */
  oversoldHistogram: number[];
  worst: { seed: number; oversold: number; doubleHolders: number; replay: string } | null;
  /** Flash-sale figures (checker/flash-sale.ts), means per run. */
  flashSale: {
    /** Runs that sold out, and their mean sell-out time (-1: none did). */
    soldOutRuns: number;
    soldOutMeanUs: number;
    arrivalsMean: number;
    busyShareMean: number;
    p99MeanUs: { ordered: number; refused: number; error: number };
  };
  /** The worst verdict of any run (checker/verdict.ts VERDICTS, SAFE to UNSAFE), and how many runs had each. */
  worstVerdict: Verdict;
  verdicts: Record<Verdict, number>;
  /** P(lost updates > 0) with its Wilson 95% interval; lost updates and the units they erased, means per run. */
  lostUpdates: { runs: Interval; mean: number; unitsMean: number };
  /** Runs by liveness class (a broken safety verdict hides it), the share of judged requests that failed and the longest stall, means per run. */
  liveness: { runs: Record<LivenessVerdict, number>; failedShareMean: number; longestStallMeanUs: number };
}

export interface PairedSummary {
  variant: string;
  baseline: string;
  runs: number;
  /** Mean difference (variant - baseline) per run, with a 95% interval. */
  oversold: Interval;
  oversell: Interval;
  throughput: Interval;
}

export interface CompareSummary {
  scenario: string;
  file: string;
  seeds: string;
  runsPerVariant: number;
  variants: VariantSummary[];
  paired: PairedSummary[];
}

export const replayCommand = (file: string, seed: number, variant: string): string =>
  `npx lock-sim run ${shellQuote(file)} --seed ${seed} --variant ${shellQuote(variant)}`;

const round = (x: number, digits: number): number => Number(x.toFixed(digits));
const roundInterval = (i: Interval, digits: number, scale = 1): Interval => ({
  estimate: round(i.estimate / scale, digits),
  low: round(i.low / scale, digits),
  high: round(i.high / scale, digits),
});

const clampInterval = (i: Interval, lo: number, hi: number): Interval => ({
  estimate: i.estimate,
  low: Math.max(lo, i.low),
  high: Math.min(hi, i.high),
});

export function summarise(result: CompareResult): CompareSummary {
  const variants = result.tally.variants.map((t): VariantSummary => {
    const n = Math.max(1, t.runs);
    return {
      variant: t.variant,
      runs: t.runs,
      oversell: roundInterval(wilson(t.oversellRuns, t.runs), 4),
      oversoldMean: round(t.oversoldSum / n, 3),
      oversoldMax: t.worst?.oversold ?? 0,
      doubleHolders: roundInterval(wilson(t.doubleHolderRuns, t.runs), 4),
      stuckMeanUs: Math.round(t.stuckUsSum / n),
      orphanMeanUs: Math.round(t.orphanUsSum / n),
      throughputMean: round(t.throughputCentsSum / n / 100, 2),
      p99MeanUs: Math.round(t.p99UsSum / n),
      oversoldHistogram: [...t.oversoldHistogram],
      worst: t.worst
        ? { seed: t.worst.seed, oversold: t.worst.oversold, doubleHolders: t.worst.doubleHolders, replay: replayCommand(result.scenario.file, t.worst.seed, t.variant) }
        : null,
      flashSale: {
        soldOutRuns: t.soldOutRuns,
        soldOutMeanUs: t.soldOutRuns > 0 ? Math.round(t.soldOutUsSum / t.soldOutRuns) : -1,
        arrivalsMean: round(t.arrivalsCentsSum / n / 100, 2),
        busyShareMean: round(t.busyBasisPointsSum / n / 10_000, 4),
        p99MeanUs: { ordered: Math.round(t.p99OrderedUsSum / n), refused: Math.round(t.p99RefusedUsSum / n), error: Math.round(t.p99ErrorUsSum / n) },
      },
      worstVerdict: VERDICTS.reduce((worst, v, k) => (t.verdictRuns[k] > 0 ? v : worst), VERDICTS[0]),
      verdicts: Object.fromEntries(VERDICTS.map((v, k) => [v, t.verdictRuns[k]])) as Record<Verdict, number>,
      lostUpdates: { runs: roundInterval(wilson(t.lostUpdateRuns, t.runs), 4), mean: round(t.lostUpdatesSum / n, 3), unitsMean: round(t.lostUnitsSum / n, 3) },
      liveness: {
        runs: Object.fromEntries(LIVENESS_CLASSES.map((v, k) => [v, t.livenessRuns[k]])) as Record<LivenessVerdict, number>,
        failedShareMean: round(t.failedBasisPointsSum / n / 10_000, 4),
        longestStallMeanUs: Math.round(t.longestStallUsSum / n),
      },
    };
  });
  const paired = result.tally.paired.map((p): PairedSummary => ({
    variant: p.variant,
    baseline: p.baseline,
    runs: p.runs,
    oversold: roundInterval(meanInterval(p.runs, p.oversold.sum, p.oversold.squares), 3),
    // A difference of probabilities lies in [-1, 1]; the t interval can overshoot with few runs.
    oversell: roundInterval(clampInterval(meanInterval(p.runs, p.oversell.sum, p.oversell.squares), -1, 1), 4),
    throughput: roundInterval(meanInterval(p.runs, p.throughputCents.sum, p.throughputCents.squares), 2, 100),
  }));
  return {
    scenario: result.scenario.name,
    file: result.scenario.file,
    seeds: result.seeds.label,
    runsPerVariant: result.tally.variants[0]?.runs ?? 0,
    variants,
    paired,
  };
}
