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

/**
 * Seeds per message: small enough to balance the threads (guided: a share of what is left,
 * so the last messages carry one seed each and no thread waits long for another's last
 * chunk), large enough to keep messages rare (at most 4 seeds).
 */
function chunkSize(remaining: number, jobs: number): number {
  return Math.max(1, Math.min(4, Math.ceil(remaining / (jobs * 4))));
}

/** Chunks a worker holds at once: the next is already queued when it posts a result, so it never waits for this thread. */
const CHUNKS_AHEAD = 2;

/**
 * Runs the seeds on this thread and `jobs - 1` worker threads. This thread takes one seed at
 * a time and lets the workers' messages in between (setImmediate), so a worker always has its
 * next chunk queued; a worker of its own would cost a thread's start-up (loading the modules,
 * compiling the simulator again) while this thread waited idle.
 */
async function runInWorkers(scenario: Scenario, options: SweepOptions, jobs: number): Promise<void> {
  const total = options.seeds.length;
  let next = 0;
  let done = 0;
  let failure: { error: unknown } | null = null;
  const workers: Worker[] = [];
  const stopAll = (): void => {
    for (const w of workers) void w.terminate();
  };
  const fail = (err: unknown): void => {
    if (failure !== null) return;
    failure = { error: err };
    stopAll();
  };
  const outcome = (o: SeedOutcome): void => {
    options.onOutcome(o);
    done++;
    options.onProgress?.(done, total);
  };
  const feeds: Array<(ahead: number) => void> = [];
  const exits = Array.from({ length: jobs - 1 }, () => {
    const worker = new Worker(WORKER_URL, { workerData: { scenario, variants: options.variants } });
    workers.push(worker);
    let held = 0;
    let stopped = false;
    /** Sends chunks until the worker holds `ahead`; once no seed is left, the stop (handled after the chunks it holds). */
    const feed = (ahead: number): void => {
      while (!stopped && held < ahead) {
        if (next >= total) {
          stopped = true;
          worker.postMessage({ kind: 'stop' });
          return;
        }
        const seeds = options.seeds.slice(next, next + chunkSize(total - next, jobs));
        next += seeds.length;
        held++;
        worker.postMessage({ kind: 'run', seeds });
      }
    };
    feeds.push(feed);
    worker.on('message', (message: { outcomes: SeedOutcome[] } | { scenarioError: { file: string; issues: ScenarioIssue[] } }) => {
      if (failure !== null) return;
      if ('scenarioError' in message) {
        fail(new ScenarioError(message.scenarioError.file, message.scenarioError.issues));
        return;
      }
      held--;
      try {
        for (const o of message.outcomes) outcome(o);
      } catch (err) {
        fail(err);
        return;
      }
      feed(CHUNKS_AHEAD);
    });
    worker.on('error', fail);
    // One chunk to start with (a second would take seeds this thread may run first).
    feed(1);
    return new Promise<void>((resolve) => worker.on('exit', () => resolve()));
  });
  const letMessagesIn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  while (next < total && failure === null) {
    const seed = options.seeds[next++];
    try {
      outcome(runSeed(scenario, options.variants, seed));
    } catch (err) {
      fail(err);
      break;
    }
    await letMessagesIn();
    for (const feed of feeds) feed(CHUNKS_AHEAD);
  }
  // Nothing left for this thread: each worker's stop follows its last chunk.
  if (failure === null) for (const feed of feeds) feed(Number.POSITIVE_INFINITY);
  await Promise.all(exits);
  if (failure !== null) throw (failure as { error: unknown }).error;
}
