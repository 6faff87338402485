/** One seed of a sweep: every selected variant of a scenario run on it, keeping no history. */
import { CheckerArena } from '../checker/arena.js';
import type { RunMetrics } from '../checker/check-history.js';
import { runSimulated } from '../backends/default-backend.js';
import type { Scenario } from '../spec/scenario.js';

/** One seed's result: the metrics of each selected variant, in the order asked for. */
export interface SeedOutcome {
  seed: number;
  metrics: RunMetrics[];
}

/**
 * `arena`: the reusable objects of the checkers of the thread that runs the seed (a sweep's
 * thread keeps one for all its seeds: checker/arena.ts says what that saves).
 */
export function runSeed(scenario: Scenario, variants: readonly string[], seed: number, arena: CheckerArena = new CheckerArena()): SeedOutcome {
  const metrics = variants.map((name) => {
    const variant = scenario.variants.find((v) => v.name === name);
    if (!variant) throw new Error(`no variant ${name}`);
    return runSimulated(scenario, variant, seed, { history: 'none', arena }).metrics;
  });
  return { seed, metrics };
}
