/**
 * `check`: a scenario's expectations over its seeds (or given ones), in one sweep. Every
 * failure comes with the seed and variant whose run shows it, so it can be replayed.
 */
import { LIVENESS_METRICS } from '../checker/metric-names.js';
import type { Expectation, ExploreExpectation } from '../spec/expectations.js';
import type { Scenario } from '../spec/scenario.js';
import { judgeExploreExpectation } from '../explore/expectation.js';
import { exploreReplayCommand } from './explore-replay.js';
import { addToExpectationTally, emptyExpectationTally, judgeTally, type ExpectationTally, type ExpectationVerdict } from './expectation-tally.js';
import { shardSeeds } from '../scenario/seeds.js';
import { runSeeds } from './run-seeds.js';
import { replayCommand } from './compare-variants.js';
import { seedsIdentity, type SeedsIdentity } from './tally-identity.js';

export interface CheckOptions {
  /** Default: the scenario's `seeds:` (or just its seed). */
  seeds?: readonly number[];
  jobs?: number;
  /** Pass a scenario with no expectations (by default it fails: nothing was checked). */
  passWithNoExpectations?: boolean;
  onProgress?(done: number, total: number): void;
}

export interface CheckedExpectation extends ExpectationVerdict {
  /** The exact command that replays the run showing the failure (null when it passed). */
  replay: string | null;
  /** Not written in the file: the liveness every variant checked must keep (implicitLiveness). */
  implicit: boolean;
  /** What the report says instead of the measured value (an explore expectation's finding). */
  detail?: string;
}

export interface ScenarioCheck {
  scenario: CheckedScenario;
  seeds: number;
  /** "6", "1..200", "3 seeds". */
  seedsLabel: string;
  expectations: CheckedExpectation[];
  /** The file has no expectations (it fails unless passWithNoExpectations). */
  empty: boolean;
  passed: boolean;
}

/**
 * `live == 1` on every seed, for a variant none of whose expectations speaks of liveness
 * (checker/metric-names.ts LIVENESS_METRICS): a variant that stops working once the faults are
 * over (refuses every request, times out on every command) fails check even when the file
 * only asked that it oversell nothing. Located at the variant's first expectation.
 */
function implicitLiveness(scenario: Scenario, variant: string): Expectation | null {
  const own = scenario.expectations.filter((e) => e.variant === variant);
  if (own.length === 0 || own.some((e) => LIVENESS_METRICS.has(e.metric))) return null;
  return { variant, metric: 'live', statistic: 'run', condition: null, comparator: '==', value: 1, text: 'live == 1', written: 1, key: 'live', location: own[0].location };
}

/** The scenario a check names: replay commands and reports need no more of it. */
type CheckedScenario = Pick<Scenario, 'name' | 'file'>;

/**
 * What a run of `check` keeps of one scenario before judging it: the expectation tallies
 * (expectation-tally.ts), which add up over shards of the seeds, so the shards of a sharded
 * check (check-tally-file.ts) are judged once merged, exactly as the whole run would be.
 */
export interface ScenarioTally {
  scenario: CheckedScenario;
  /** The whole seed list, identified (a shard ran a slice of it). */
  seeds: SeedsIdentity;
  /** How many of `tallies` the file wrote; the rest are implicit (implicitLiveness). */
  written: number;
  tallies: ExpectationTally[];
  /**
   * The file's explore expectations, judged: a search each (src/explore), not a tally over
   * seeds, so it runs once, in the whole run or in shard 1 (none in the other shards).
   */
  explored: CheckedExpectation[];
  passWithNoExpectations: boolean;
}

/** Runs a scenario's expectations over its seeds (or a shard's slice of them) and tallies them, unjudged. */
export async function tallyScenario(scenario: Scenario, options: CheckOptions & { shard?: { k: number; n: number } | null } = {}): Promise<ScenarioTally> {
  const seeds = options.seeds ?? scenario.seeds;
  // Only the variants some expectation is about need to run.
  const variants = scenario.variants.map((v) => v.name).filter((name) => scenario.expectations.some((e) => e.variant === name));
  const implicit = variants.map((v) => implicitLiveness(scenario, v)).filter((e): e is Expectation => e !== null);
  const tallies = [...scenario.expectations, ...implicit].map((e) => emptyExpectationTally(e, variants.indexOf(e.variant)));
  if (variants.length > 0) {
    await runSeeds(scenario, {
      seeds: shardSeeds(seeds, options.shard ?? null),
      variants,
      jobs: options.jobs ?? 1,
      onOutcome: (outcome) => {
        for (const t of tallies) addToExpectationTally(t, outcome);
      },
      onProgress: options.onProgress,
    });
  }
  const explored: CheckedExpectation[] = [];
  for (const e of options.shard && options.shard.k !== 1 ? [] : (scenario.exploreExpectations ?? [])) {
    const v = await judgeExploreExpectation(scenario, e, options.jobs ?? 1);
    const replay = v.passed || v.replay === null ? null : exploreReplayCommand(scenario.file, scenario.seed, e.variant, [], v.conditions, v.replay, scenario.explore?.violation ?? []);
    explored.push({ expectation: asExpectation(e), passed: v.passed, measured: v.measured, runs: v.schedules, failedRuns: 0, replaySeed: null, replay, implicit: false, detail: v.detail });
  }
  return { scenario: { name: scenario.name, file: scenario.file }, seeds: seedsIdentity(seeds), written: scenario.expectations.length, tallies, explored, passWithNoExpectations: options.passWithNoExpectations === true };
}

/** An explore expectation as the reports show expectations. */
function asExpectation(e: ExploreExpectation): Expectation {
  return { variant: e.variant, metric: 'explore-violations', statistic: 'run', condition: null, comparator: e.comparator, value: e.value, text: e.text, written: e.written.violations, key: 'explore', location: e.location };
}

/** The verdict of a scenario's tallies: every expectation judged, with the command that replays a failure. */
export function judgeScenario(t: ScenarioTally): ScenarioCheck {
  const expectations = t.tallies.map((tally, i): CheckedExpectation => {
    const verdict = judgeTally(tally);
    const replay = verdict.replaySeed === null ? null : replayCommand(t.scenario.file, verdict.replaySeed, verdict.expectation.variant);
    return { ...verdict, replay, implicit: i >= t.written };
  });
  expectations.push(...t.explored);
  const empty = t.written === 0 && t.explored.length === 0;
  const passed = empty ? t.passWithNoExpectations : expectations.every((e) => e.passed);
  return { scenario: t.scenario, seeds: t.seeds.count, seedsLabel: t.seeds.label, expectations, empty, passed };
}

export async function checkScenario(scenario: Scenario, options: CheckOptions = {}): Promise<ScenarioCheck> {
  return judgeScenario(await tallyScenario(scenario, options));
}
