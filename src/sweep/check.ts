/**
 * `check`: a scenario's expectations over its seeds (or given ones), in one sweep. Every
 * failure comes with the seed and variant whose run shows it, so it can be replayed.
 */
import { LIVENESS_METRICS } from '../scenario/metrics.js';
import type { Expectation, ExploreExpectation, Scenario } from '../scenario/types.js';
import { judgeExploreExpectation } from '../explore/expectation.js';
import { exploreReplayCommand } from './explore-replay.js';
import { addToExpectationTally, emptyExpectationTally, judgeTally, type ExpectationVerdict } from './expectation-tally.js';
import { runSeeds } from './run-seeds.js';
import { replayCommand, seedsLabel } from './compare.js';

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
  scenario: Scenario;
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
 * (scenario/metrics.ts LIVENESS_METRICS): a variant that stops working once the faults are
 * over (refuses every request, times out on every command) fails check even when the file
 * only asked that it oversell nothing. Located at the variant's first expectation.
 */
export function implicitLiveness(scenario: Scenario, variant: string): Expectation | null {
  const own = scenario.expectations.filter((e) => e.variant === variant);
  if (own.length === 0 || own.some((e) => LIVENESS_METRICS.has(e.metric))) return null;
  return { variant, metric: 'live', statistic: 'run', condition: null, comparator: '==', value: 1, text: 'live == 1', written: 1, key: 'live', location: own[0].location };
}

export async function checkScenario(scenario: Scenario, options: CheckOptions = {}): Promise<ScenarioCheck> {
  const seeds = options.seeds ?? scenario.seeds;
  // Only the variants some expectation is about need to run.
  const variants = scenario.variants.map((v) => v.name).filter((name) => scenario.expectations.some((e) => e.variant === name));
  const implicit = variants.map((v) => implicitLiveness(scenario, v)).filter((e): e is Expectation => e !== null);
  const written = scenario.expectations.length;
  const tallies = [...scenario.expectations, ...implicit].map((e) => emptyExpectationTally(e, variants.indexOf(e.variant)));
  if (variants.length > 0) {
    await runSeeds(scenario, {
      seeds,
      variants,
      jobs: options.jobs ?? 1,
      onOutcome: (outcome) => {
        for (const t of tallies) addToExpectationTally(t, outcome);
      },
      onProgress: options.onProgress,
    });
  }
  const expectations = tallies.map((t, i): CheckedExpectation => {
    const verdict = judgeTally(t);
    const replay = verdict.replaySeed === null ? null : replayCommand(scenario.file, verdict.replaySeed, verdict.expectation.variant);
    return { ...verdict, replay, implicit: i >= written };
  });
  // Explore expectations: a search each (src/explore), not a sweep of seeds.
  for (const e of scenario.exploreExpectations ?? []) {
    const v = await judgeExploreExpectation(scenario, e, options.jobs ?? 1);
    const replay = v.passed || v.replay === null ? null : exploreReplayCommand(scenario.file, scenario.seed, e.variant, [], v.conditions, v.replay, scenario.explore?.violation ?? []);
    expectations.push({ expectation: asExpectation(e), passed: v.passed, measured: v.measured, runs: v.schedules, failedRuns: 0, replaySeed: null, replay, implicit: false, detail: v.detail });
  }
  const empty = written === 0 && (scenario.exploreExpectations ?? []).length === 0;
  const passed = empty ? options.passWithNoExpectations === true : expectations.every((e) => e.passed);
  return { scenario, seeds: seeds.length, seedsLabel: seedsLabel(seeds), expectations, empty, passed };
}

/** An explore expectation as the reports show expectations. */
function asExpectation(e: ExploreExpectation): Expectation {
  return { variant: e.variant, metric: 'explore-violations', statistic: 'run', condition: null, comparator: e.comparator, value: e.value, text: e.text, written: e.written.violations, key: 'explore', location: e.location };
}
