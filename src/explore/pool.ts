/**
 * Runs explore's schedules on worker threads, a batch at a time, and hands back their
 * outcomes in the batch's order: the search reads them in that order, so what it finds, and
 * when it stops, is the same with any number of threads. As the sweep pool (sweep/cell-pool.ts):
 * this thread is one of the `jobs` threads, running a schedule at a time between the workers'
 * messages, and each worker holds two schedules so it never waits for this thread to answer.
 * From the TypeScript sources (tests) there is no built worker, and everything runs here.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ScenarioError, type ScenarioIssue } from '../spec/errors.js';
import type { Scenario } from '../spec/scenario.js';
import { runJob, type Job, type Outcome } from './job.js';

const WORKER_URL = new URL('./explore-worker.js', import.meta.url);
const AHEAD = 2;

type Message = { index: number; outcome: Outcome } | { index: number; scenarioError: { file: string; issues: ScenarioIssue[]; message: string } } | { index: number; error: string };

interface PoolWorker {
  worker: Worker;
  held: number;
  onMessage: ((m: Message) => void) | null;
  onError: ((err: unknown) => void) | null;
  exited: Promise<void>;
}

export class ExplorePool {
  private readonly workers: PoolWorker[] = [];

  constructor(
    private readonly scenario: Scenario,
    private readonly jobs: number,
  ) {}

  /** Outcomes of `batch`, in its order. */
  async run(batch: readonly Job[]): Promise<Outcome[]> {
    const results: Outcome[] = new Array(batch.length);
    if (this.jobs <= 1 || batch.length < 2 || !existsSync(fileURLToPath(WORKER_URL))) {
      batch.forEach((job, i) => (results[i] = runJob(this.scenario, job)));
      return results;
    }
    this.start(Math.min(this.jobs, batch.length) - 1);
    let next = 0;
    let done = 0;
    let failure: { error: unknown } | null = null;
    const fail = (error: unknown): void => {
      failure ??= { error };
    };
    const feed = (w: PoolWorker): void => {
      while (failure === null && w.held < AHEAD && next < batch.length) {
        const index = next++;
        w.held++;
        w.worker.postMessage({ kind: 'run', index, job: batch[index] });
      }
    };
    let wake: (() => void) | null = null;
    for (const w of this.workers) {
      w.onMessage = (m) => {
        w.held--;
        if ('outcome' in m) results[m.index] = m.outcome;
        else if ('scenarioError' in m) {
          const err = new ScenarioError(m.scenarioError.file, m.scenarioError.issues);
          err.message = m.scenarioError.message;
          fail(err);
        } else fail(new Error(m.error));
        done++;
        feed(w);
        wake?.();
      };
      w.onError = (err) => {
        fail(err);
        wake?.();
      };
      feed(w);
    }
    const letMessagesIn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    while (next < batch.length && failure === null) {
      const index = next++;
      try {
        results[index] = runJob(this.scenario, batch[index]);
      } catch (err) {
        fail(err);
        break;
      }
      done++;
      await letMessagesIn();
      for (const w of this.workers) feed(w);
    }
    while (done < batch.length && failure === null && this.workers.some((w) => w.held > 0)) {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
    for (const w of this.workers) {
      w.onMessage = null;
      w.onError = null;
    }
    if (failure !== null) {
      await this.close();
      throw (failure as { error: unknown }).error;
    }
    return results;
  }

  private start(count: number): void {
    while (this.workers.length < count) {
      const worker = new Worker(WORKER_URL, { workerData: { scenario: this.scenario } });
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      const w: PoolWorker = { worker, held: 0, onMessage: null, onError: null, exited };
      worker.on('message', (m: Message) => w.onMessage?.(m));
      worker.on('error', (err) => w.onError?.(err));
      this.workers.push(w);
    }
  }

  async close(): Promise<void> {
    const exits = this.workers.map((w) => {
      w.worker.postMessage({ kind: 'stop' });
      return w.exited;
    });
    this.workers.length = 0;
    await Promise.all(exits);
  }
}
