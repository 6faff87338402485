/** A sweep worker thread: runs the seeds it is sent and posts their metrics back. */
import { parentPort, workerData } from 'node:worker_threads';
import { ScenarioError } from '../scenario/errors.js';
import type { Scenario } from '../scenario/types.js';
import { runSeed } from './run-seeds.js';

const { scenario, variants } = workerData as { scenario: Scenario; variants: string[] };

parentPort?.on('message', (message: { kind: 'run'; seeds: number[] } | { kind: 'stop' }) => {
  if (message.kind === 'stop') {
    parentPort?.close();
    return;
  }
  try {
    parentPort?.postMessage({ outcomes: message.seeds.map((seed) => runSeed(scenario, variants, seed)) });
  } catch (err) {
    // A scenario problem found while running (a stopped clock) crosses as data: a thrown
    // error reaches the main thread as a plain Error, without its position.
    if (!(err instanceof ScenarioError)) throw err;
    parentPort?.postMessage({ scenarioError: { file: err.file, issues: err.issues } });
  }
});
