/**
 * Runs the seeds of many sweep cells on one set of worker threads. Starting threads per cell
 * (compare's way) costs each cell the threads' start-up; on a loaded machine that cost more
 * than the runs (a 9-cell sweep of 20 seeds: 10.8 s on one thread, 42.8 s on two threads
 * started per cell, measured with src/bench/sweep-grid-probe.ts on the shared 2-core
 * development machine, load average 16; with this pool 17.1 s on two threads against 13.5 s
 * on one, load average 17: the machine's two cores were shared). The threads hold every cell's scenario and take
 * (cell, seeds) tasks; outcomes go to each cell's tally, which does not depend on their
 * order, so the result is the same whatever the number of threads.
 */
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { ScenarioError, type ScenarioIssue } from '../scenario/errors.js';
import type { Scenario } from '../scenario/types.js';
import { runSeed, type SeedOutcome } from './run-seeds.js';

export interface CellTask {
  cell: number;
  seeds: readonly number[];
  onOutcome(outcome: SeedOutcome): void;
}

const WORKER_URL = new URL('./cell-worker.js', import.meta.url);

/** Seeds per message: small enough to balance the threads, large enough to keep messages rare. */
const CHUNK = 4;

/** Runs every task's seeds; with jobs 1 (or from TypeScript sources, in tests) in this thread. */
export async function runCells(scenarios: readonly Scenario[], variants: readonly string[], tasks: readonly CellTask[], jobs: number, onSeed?: () => void): Promise<void> {
  const chunks: Array<{ task: number; cell: number; seeds: number[] }> = [];
  tasks.forEach((t, i) => {
    for (let k = 0; k < t.seeds.length; k += CHUNK) chunks.push({ task: i, cell: t.cell, seeds: t.seeds.slice(k, k + CHUNK) });
  });
  const threads = Math.max(1, Math.min(jobs, chunks.length));
  if (threads === 1 || !existsSync(fileURLToPath(WORKER_URL))) {
    for (const c of chunks) {
      for (const seed of c.seeds) {
        tasks[c.task].onOutcome(runSeed(scenarios[c.cell], variants, seed));
        onSeed?.();
      }
    }
    return;
  }
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    const workers: Worker[] = [];
    let exited = 0;
    let failed = false;
    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      for (const w of workers) void w.terminate();
      reject(err);
    };
    const feed = (w: Worker): void => {
      if (next >= chunks.length) {
        w.postMessage({ kind: 'stop' });
        return;
      }
      w.postMessage({ kind: 'run', ...chunks[next++] });
    };
    for (let j = 0; j < threads; j++) {
      const w = new Worker(WORKER_URL, { workerData: { scenarios, variants } });
      workers.push(w);
      w.on('message', (m: { task: number; outcomes: SeedOutcome[] } | { scenarioError: { file: string; issues: ScenarioIssue[] } }) => {
        if ('scenarioError' in m) return fail(new ScenarioError(m.scenarioError.file, m.scenarioError.issues));
        for (const o of m.outcomes) {
          tasks[m.task].onOutcome(o);
          onSeed?.();
        }
        feed(w);
      });
      w.on('error', fail);
      w.on('exit', () => {
        exited++;
        if (exited === threads && !failed) resolve();
      });
      feed(w);
    }
  });
}
