/** Runs every (selected) variant of a scenario on one seed and judges its expectations. */
import type { Scenario } from '../scenario/types.js';
import { judgeExpectations, type ExpectationResult } from './expectations.js';
import { runVariant, type RunResult } from './run.js';
import { storyRetention } from './story-retention.js';

export interface ScenarioResult {
  scenario: Scenario;
  seed: number;
  runs: RunResult[];
  expectations: ExpectationResult[];
  passed: boolean;
}

export interface RunScenarioOptions {
  seed?: number;
  variants?: readonly string[];
  /**
   * 'all' (default): each run keeps its whole history (timelines, the HTML report, determinism
   * checks). 'story': each run keeps nothing while it runs; one with a violation runs again
   * with its seed keeping what its stories tell (story-retention.ts), so a long run's memory
   * is its concurrency's, and variants do not pile up histories.
   */
  history?: 'all' | 'story';
}

export function runScenario(scenario: Scenario, options: RunScenarioOptions = {}): ScenarioResult {
  const seed = options.seed ?? scenario.seed;
  const selected = options.variants && options.variants.length > 0
    ? scenario.variants.filter((v) => options.variants?.includes(v.name))
    : scenario.variants;
  const runs = selected.map((v) => (options.history === 'story' ? runForStory(scenario, v, seed) : runVariant(scenario, v, seed)));
  const expectations = judgeExpectations(scenario.expectations, runs);
  return { scenario, seed, runs, expectations, passed: expectations.every((e) => e.passed) };
}

function runForStory(scenario: Scenario, variant: Scenario['variants'][number], seed: number): RunResult {
  const run = runVariant(scenario, variant, seed, { history: 'none' });
  const keep = storyRetention(run.violations);
  if (keep === null) return run;
  const again = runVariant(scenario, variant, seed, { history: keep });
  if (again.events !== run.events || again.historyLength !== run.historyLength) {
    throw new Error(`${scenario.name} ${variant.name} seed ${seed}: a second run of the same seed differs (${run.events} vs ${again.events} events); run --check-determinism`);
  }
  return again;
}
