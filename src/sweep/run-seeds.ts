/**
 * Runs every selected variant of a scenario on each seed of a list, in this thread or spread
 * over worker threads, and hands each seed's metrics to `onOutcome` as it completes. The
 * order in which outcomes arrive depends on the threads; everything built from them
 * (tallies) is order-independent, so results are identical whatever `jobs` is.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunMetrics } from '../checker/check.js';
import { runVariant } from '../runner/run.js';
import { ScenarioError, type ScenarioIssue } from '../scenario/errors.js';
import type { Scenario } from '../scenario/types.js';

/** One seed's result: the metrics of each selected variant, in the order asked for. */
export interface SeedOutcome {
  seed: number;
  metrics: RunMetrics[];
}

export interface SweepOptions {
  seeds: readonly number[];
  variants: readonly string[];
  /** Worker threads (1: run in this thread). */
  jobs: number;
  onOutcome(outcome: SeedOutcome): void;
  onProgress?(done: number, total: number): void;
}

export function runSeed(scenario: Scenario, variants: readonly string[], seed: number): SeedOutcome {
  const metrics = variants.map((name) => {
    const variant = scenario.variants.find((v) => v.name === name);
    if (!variant) throw new Error(`no variant ${name}`);
    return runVariant(scenario, variant, seed, { history: 'none' }).metrics;
  });
  return { seed, metrics };
}

const WORKER_URL = new URL('./worker.js', import.meta.url);

/** Worker threads need the compiled worker; from TypeScript sources (tests) we stay in this thread. */
export function workersAvailable(): boolean {
  return existsSync(fileURLToPath(WORKER_URL));
}

export async function runSeeds(scenario: Scenario, options: SweepOptions): Promise<void> {
  const total = options.seeds.length;
  const jobs = Math.max(1, Math.min(options.jobs, total));
  if (jobs === 1 || !workersAvailable()) {
    options.seeds.forEach((seed, i) => {
      options.onOutcome(runSeed(scenario, options.variants, seed));
      options.onProgress?.(i + 1, total);
    });
    return;
  }
  await runInWorkers(scenario, options, jobs);
}

/** Chunks small enough to balance the threads, large enough to keep messages rare. */
function chunkSize(total: number, jobs: number): number {
  return Math.max(1, Math.min(4, Math.ceil(total / (jobs * 8))));
}

function runInWorkers(scenario: Scenario, options: SweepOptions, jobs: number): Promise<void> {
  const total = options.seeds.length;
  const size = chunkSize(total, jobs);
  let next = 0;
  let done = 0;
  return new Promise((resolve, reject) => {
    const workers: Worker[] = [];
    let finished = 0;
    let failed = false;
    const stopAll = (): void => {
      for (const w of workers) void w.terminate();
    };
    const feed = (worker: Worker): void => {
      if (next >= total) {
        worker.postMessage({ kind: 'stop' });
        return;
      }
      const seeds = options.seeds.slice(next, next + size);
      next += seeds.length;
      worker.postMessage({ kind: 'run', seeds });
    };
    for (let j = 0; j < jobs; j++) {
      const worker = new Worker(WORKER_URL, { workerData: { scenario, variants: options.variants } });
      workers.push(worker);
      worker.on('message', (message: { outcomes: SeedOutcome[] } | { scenarioError: { file: string; issues: ScenarioIssue[] } }) => {
        if ('scenarioError' in message) {
          if (failed) return;
          failed = true;
          stopAll();
          reject(new ScenarioError(message.scenarioError.file, message.scenarioError.issues));
          return;
        }
        for (const outcome of message.outcomes) {
          options.onOutcome(outcome);
          done++;
          options.onProgress?.(done, total);
        }
        feed(worker);
      });
      worker.on('error', (err) => {
        if (failed) return;
        failed = true;
        stopAll();
        reject(err);
      });
      worker.on('exit', () => {
        finished++;
        if (finished === jobs && !failed) resolve();
      });
      feed(worker);
    }
  });
}
