/** Runs every (selected) variant of a scenario on one seed and judges its expectations. */
import type { Scenario } from '../scenario/types.js';
import { judgeExpectations, type ExpectationResult } from './expectations.js';
import { runVariant, type RunResult } from './run.js';

export interface ScenarioResult {
  scenario: Scenario;
  seed: number;
  runs: RunResult[];
  expectations: ExpectationResult[];
  passed: boolean;
}

export function runScenario(scenario: Scenario, options: { seed?: number; variants?: readonly string[] } = {}): ScenarioResult {
  const seed = options.seed ?? scenario.seed;
  const selected = options.variants && options.variants.length > 0
    ? scenario.variants.filter((v) => options.variants?.includes(v.name))
    : scenario.variants;
  const runs = selected.map((v) => runVariant(scenario, v, seed));
  const expectations = judgeExpectations(scenario.expectations, runs);
  return { scenario, seed, runs, expectations, passed: expectations.every((e) => e.passed) };
}
