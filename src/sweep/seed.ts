/** One seed of a sweep: every selected variant of a scenario run on it, keeping no history. */
import type { RunMetrics } from '../checker/check.js';
import { runVariant } from '../runner/run.js';
import type { Scenario } from '../scenario/types.js';

/** One seed's result: the metrics of each selected variant, in the order asked for. */
export interface SeedOutcome {
  seed: number;
  metrics: RunMetrics[];
}

export function runSeed(scenario: Scenario, variants: readonly string[], seed: number): SeedOutcome {
  const metrics = variants.map((name) => {
    const variant = scenario.variants.find((v) => v.name === name);
    if (!variant) throw new Error(`no variant ${name}`);
    return runVariant(scenario, variant, seed, { history: 'none' }).metrics;
  });
  return { seed, metrics };
}
