/**
 * `check`: a scenario's expectations over its seeds (or given ones), in one sweep. Every
 * failure comes with the seed and variant whose run shows it, so it can be replayed.
 */
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
  onProgress?(done: number, total: number): void;
}

export interface CheckedExpectation extends ExpectationVerdict {
  /** The exact command that replays the run showing the failure (null when it passed). */
  replay: string | null;
  /** What the report says instead of the measured value (an explore expectation's finding). */
  detail?: string;
}

export interface ScenarioCheck {
  scenario: Scenario;
  seeds: number;
  /** "6", "1..200", "3 seeds". */
  seedsLabel: string;
  expectations: CheckedExpectation[];
  passed: boolean;
}

export async function checkScenario(scenario: Scenario, options: CheckOptions = {}): Promise<ScenarioCheck> {
  const seeds = options.seeds ?? scenario.seeds;
  // Only the variants some expectation is about need to run.
  const variants = scenario.variants.map((v) => v.name).filter((name) => scenario.expectations.some((e) => e.variant === name));
  const tallies = scenario.expectations.map((e) => emptyExpectationTally(e, variants.indexOf(e.variant)));
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
  const expectations = tallies.map((t): CheckedExpectation => {
    const verdict = judgeTally(t);
    const replay = verdict.replaySeed === null ? null : replayCommand(scenario.file, verdict.replaySeed, verdict.expectation.variant);
    return { ...verdict, replay };
  });
  // Explore expectations: a search each (src/explore), not a sweep of seeds.
  for (const e of scenario.exploreExpectations ?? []) {
    const v = await judgeExploreExpectation(scenario, e, options.jobs ?? 1);
    const replay = v.passed || v.replay === null ? null : exploreReplayCommand(scenario.file, scenario.seed, e.variant, [], v.conditions, v.replay, scenario.explore?.violation ?? []);
    expectations.push({ expectation: asExpectation(e), passed: v.passed, measured: v.measured, runs: v.schedules, failedRuns: 0, replaySeed: null, replay, detail: v.detail });
  }
  return { scenario, seeds: seeds.length, seedsLabel: seedsLabel(seeds), expectations, passed: expectations.every((e) => e.passed) };
}

/** An explore expectation as the reports show expectations. */
function asExpectation(e: ExploreExpectation): Expectation {
  return { variant: e.variant, metric: 'explore-violations', statistic: 'run', condition: null, comparator: e.comparator, value: e.value, text: e.text, written: e.written.violations, key: 'explore', location: e.location };
}
