/**
 * The in-process backend: the run in this thread (runner/run.ts). A variant of user code runs
 * here only in a thread started with --experimental-vm-modules, the user-code worker's
 * (worker/run-worker.ts).
 */
import { runVariant } from '../runner/run.js';
import type { SimulatedBackend } from './backend.js';

export const inProcess: SimulatedBackend = { name: 'in-process', run: runVariant };
