/**
 * The backend a simulated run of a variant takes unless its caller picks another: a user lock
 * module's in the user-code worker (its sandbox needs --experimental-vm-modules, and user code
 * must not block the caller's thread), every built-in protocol's in-process. The worker's own
 * entry (worker/run-worker.ts) runs in-process: it is the thread this picks for user code.
 */
import type { RunOptions, RunResult } from '../runner/run.js';
import type { Scenario } from '../spec/scenario.js';
import type { VariantSpec } from '../spec/variant.js';
import type { SimulatedBackend } from './backend.js';
import { inProcess } from './in-process.js';
import { userCodeWorker } from './user-code-worker.js';

export function backendFor(variant: Pick<VariantSpec, 'lockModule'>): SimulatedBackend {
  return variant.lockModule ? userCodeWorker : inProcess;
}

/** One simulated run on the variant's default backend (runner/run.ts runVariant says what each option does). */
export function runSimulated(scenario: Scenario, variant: VariantSpec, seed: number = scenario.seed, options: RunOptions = {}): RunResult {
  return backendFor(variant).run(scenario, variant, seed, options);
}
