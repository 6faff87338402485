/** An explore pool's worker thread: holds the scenario, runs the schedules it is sent, posts their outcomes back. */
import { parentPort, workerData } from 'node:worker_threads';
import { ScenarioError } from '../spec/errors.js';
import type { Scenario } from '../spec/scenario.js';
import { runJob, type Job } from './job.js';

const { scenario } = workerData as { scenario: Scenario };

parentPort?.on('message', (message: { kind: 'run'; index: number; job: Job } | { kind: 'stop' }) => {
  if (message.kind === 'stop') {
    parentPort?.close();
    return;
  }
  try {
    parentPort?.postMessage({ index: message.index, outcome: runJob(scenario, message.job) });
  } catch (err) {
    if (err instanceof ScenarioError) parentPort?.postMessage({ index: message.index, scenarioError: { file: err.file, issues: err.issues, message: err.message } });
    else parentPort?.postMessage({ index: message.index, error: err instanceof Error ? err.message : String(err) });
  }
});
