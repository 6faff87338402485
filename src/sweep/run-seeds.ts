/**
 * Runs every selected variant of a scenario on each seed of a list, in this thread or spread
 * over worker threads as well (cell-pool.ts, with the scenario as its one cell), and hands
 * each seed's metrics to `onOutcome` as it completes. The order in which outcomes arrive
 * depends on the threads; everything built from them (tallies) is order-independent, so
 * results are identical whatever `jobs` is.
 */
import type { Scenario } from '../spec/scenario.js';
import { runCells } from './cell-pool.js';
import type { SeedOutcome } from './seed.js';

interface SweepOptions {
  seeds: readonly number[];
  variants: readonly string[];
  /** Threads (1: run in this thread; N: this thread and N-1 workers). */
  jobs: number;
  onOutcome(outcome: SeedOutcome): void;
  onProgress?(done: number, total: number): void;
}

export async function runSeeds(scenario: Scenario, options: SweepOptions): Promise<void> {
  const total = options.seeds.length;
  let done = 0;
  await runCells(() => scenario, options.variants, [{ cell: 0, seeds: options.seeds, onOutcome: options.onOutcome }], options.jobs, () => {
    done++;
    options.onProgress?.(done, total);
  });
}
