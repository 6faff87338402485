/** Runs the selected variants of a scenario against real Redis, `repeat` times each. */
import { judgeExpectations } from '../../runner/expectations.js';
import type { ScenarioResult } from '../../runner/scenario-result.js';
import type { Scenario } from '../../spec/scenario.js';
import { runVariantReal } from './real-run.js';

export interface RealScenarioOptions {
  seed?: number;
  variants?: readonly string[];
  redisServer: string;
}

/** One repeat: every selected variant once, one after the other, each on fresh servers. */
export async function runScenarioReal(scenario: Scenario, options: RealScenarioOptions): Promise<ScenarioResult> {
  const seed = options.seed ?? scenario.seed;
  const selected = options.variants && options.variants.length > 0 ? scenario.variants.filter((v) => options.variants?.includes(v.name)) : scenario.variants;
  const runs = [];
  for (const v of selected) runs.push(await runVariantReal(scenario, v, seed, { redisServer: options.redisServer }));
  const expectations = judgeExpectations(scenario.expectations, runs);
  return { scenario, seed, runs, expectations, passed: expectations.every((e) => e.passed) };
}
