/**
 * Where a run executes: one variant of a scenario on one seed -> its RunResult. The caller
 * picks the backend (default-backend.ts picks for a variant); the runner below makes one run
 * in the thread it is called in and never redirects itself.
 */
import type { RunOptions, RunResult } from '../runner/run.js';
import type { Scenario } from '../spec/scenario.js';
import type { VariantSpec } from '../spec/variant.js';

/** A simulated run: deterministic, synchronous for its caller. */
export interface SimulatedBackend {
  /** 'in-process': this thread (in-process.ts); 'user-code worker': the own-code run worker (worker/dispatch.ts). */
  readonly name: 'in-process' | 'user-code worker';
  run(scenario: Scenario, variant: VariantSpec, seed: number, options: RunOptions): RunResult;
}
