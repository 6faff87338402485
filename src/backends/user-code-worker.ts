/** The user-code worker backend: the run in the own-code run worker's thread (worker/dispatch.ts), as it would be in-process there. */
import type { SimulatedBackend } from './backend.js';
import { runInRunWorker } from './worker/dispatch.js';

export const userCodeWorker: SimulatedBackend = { name: 'user-code worker', run: runInRunWorker };
