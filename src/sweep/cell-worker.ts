/** A sweep pool's worker thread: holds every cell's scenario, runs the (cell, seeds) it is sent, posts the metrics back. */
import { parentPort, workerData } from 'node:worker_threads';
import { ScenarioError } from '../scenario/errors.js';
import type { Scenario } from '../scenario/types.js';
import { CheckerArena } from '../checker/arena.js';
import { runSeed } from './seed.js';

const { scenarios, variants } = workerData as { scenarios: Scenario[]; variants: string[] };
/** This thread's checkers' reusable objects, for every seed it runs. */
const arena = new CheckerArena();

parentPort?.on('message', (message: { kind: 'run'; task: number; cell: number; seeds: number[] } | { kind: 'stop' }) => {
  if (message.kind === 'stop') {
    parentPort?.close();
    return;
  }
  try {
    parentPort?.postMessage({ task: message.task, outcomes: message.seeds.map((seed) => runSeed(scenarios[message.cell], variants, seed, arena)) });
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    parentPort?.postMessage({ scenarioError: { file: err.file, issues: err.issues } });
  }
});
