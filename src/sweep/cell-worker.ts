/**
 * A sweep pool's worker thread: runs the (cell, seeds) it is sent and posts the metrics back.
 * A cell's scenario comes before its first chunk, and chunks come in cell order; messages run
 * one at a time, so only the latest cell's scenario is kept.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ScenarioError } from '../spec/errors.js';
import type { Scenario } from '../spec/scenario.js';
import { CheckerArena } from '../checker/arena.js';
import { runSeed } from './seed.js';

const { variants } = workerData as { variants: string[] };
let current: { cell: number; scenario: Scenario } | null = null;
/** This thread's checkers' reusable objects, for every seed it runs. */
const arena = new CheckerArena();

type Message = { kind: 'cell'; cell: number; scenario: Scenario } | { kind: 'run'; task: number; cell: number; seeds: number[] } | { kind: 'stop' };

parentPort?.on('message', (message: Message) => {
  if (message.kind === 'stop') {
    parentPort?.close();
    return;
  }
  if (message.kind === 'cell') {
    current = { cell: message.cell, scenario: message.scenario };
    return;
  }
  try {
    if (current?.cell !== message.cell) throw new Error(`cell ${message.cell} was run before its scenario was sent`);
    const scenario = current.scenario;
    parentPort?.postMessage({ task: message.task, outcomes: message.seeds.map((seed) => runSeed(scenario, variants, seed, arena)) });
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    parentPort?.postMessage({ scenarioError: { file: err.file, issues: err.issues } });
  }
});
