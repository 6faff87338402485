/** A sweep worker thread: runs the seeds it is sent and posts their metrics back. */
import { parentPort, workerData } from 'node:worker_threads';
import type { Scenario } from '../scenario/types.js';
import { runSeed } from './run-seeds.js';

const { scenario, variants } = workerData as { scenario: Scenario; variants: string[] };

parentPort?.on('message', (message: { kind: 'run'; seeds: number[] } | { kind: 'stop' }) => {
  if (message.kind === 'stop') {
    parentPort?.close();
    return;
  }
  parentPort?.postMessage({ outcomes: message.seeds.map((seed) => runSeed(scenario, variants, seed)) });
});
