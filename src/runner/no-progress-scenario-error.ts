/**
 * A run whose simulated clock stopped (engine/no-progress.ts) is a problem of the scenario,
 * not of lock-sim: it becomes a ScenarioError at the workload: block, naming the likely
 * causes, so the CLI exits 2 with a position instead of running out of memory.
 */
import { NoProgressError } from '../engine/no-progress.js';
import { ScenarioError } from '../spec/errors.js';
import type { Scenario } from '../spec/scenario.js';
import type { VariantSpec } from '../spec/variant.js';

export function explainNoProgress(err: unknown, scenario: Scenario, variant: VariantSpec, seed: number): unknown {
  if (!(err instanceof NoProgressError)) return err;
  const at = /:(\d+):(\d+)$/.exec(scenario.workloadLocation ?? '');
  const user = /^user-\d+$/.test(err.lastProcess);
  const cause = user
    ? 'closed-loop users are turned away (overloaded or unavailable) and ask again without their think time advancing the clock'
    : 'something retries or loops with zero delays (latencies, think time, retry intervals of 0)';
  return new ScenarioError(scenario.file, [
    {
      path: ['workload'],
      message: `variant ${variant.name}, seed ${seed}: ${err.message}. Likely cause: ${cause}; give them a time above 0`,
      ...(at ? { line: Number(at[1]), column: Number(at[2]) } : {}),
    },
  ]);
}
