/**
 * Runs the seeds of many sweep cells on one set of worker threads. Starting threads per cell
 * (compare's way) costs each cell the threads' start-up; on a loaded machine that cost more
 * than the runs (a 9-cell sweep of 20 seeds: 10.8 s on one thread, 42.8 s on two threads
 * started per cell, measured with src/bench/sweep-grid-probe.ts on the shared 2-core
 * development machine, load average 16; with this pool 17.1 s on two threads against 13.5 s
 * on one, load average 17: the machine's two cores were shared). The threads hold every cell's scenario and take
 * (cell, seeds) tasks; outcomes go to each cell's tally, which does not depend on their
 * order, so the result is the same whatever the number of threads. compare and check use
 * it too, with their scenario as the one cell (run-seeds.ts).
 *
 * With `jobs` N, this thread is one of the N: it runs one seed at a time beside N-1 workers
 * and lets their messages in between (setImmediate). A worker of its own would cost a
 * thread's start-up (importing runner/run.js took 0.5-1.0 s on the loaded machine) and its
 * compiling while this thread waited idle. Each worker holds two chunks, so its next is
 * queued before it posts a result and it never waits for this thread to answer.
 */
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { ScenarioError, type ScenarioIssue } from '../spec/errors.js';
import type { Scenario } from '../spec/scenario.js';
import { CheckerArena } from '../checker/arena.js';
import { runSeed, type SeedOutcome } from './seed.js';

export interface CellTask {
  cell: number;
  seeds: readonly number[];
  onOutcome(outcome: SeedOutcome): void;
}

const WORKER_URL = new URL('./cell-worker.js', import.meta.url);

/**
 * Seeds per message: small enough to balance the threads (guided: a share of what is left,
 * so the last messages carry one seed each and no thread waits long for another's last
 * chunk), large enough to keep messages rare (at most 4 seeds, as before).
 */
const chunkSize = (remaining: number, threads: number): number => Math.max(1, Math.min(4, Math.ceil(remaining / (threads * 4))));

/** Chunks a worker holds at once (see the file comment). */
const CHUNKS_AHEAD = 2;

/**
 * The (task, seed) units in order, handed out one by one: never built as a list, so a sweep
 * of 2,500 cells x 1,000,000 seeds holds a cursor, not 2.5 billion pairs.
 */
class UnitCursor {
  private task = 0;
  private index = 0;
  /** Units handed out so far. */
  handed = 0;
  readonly total: number;

  constructor(private readonly tasks: readonly CellTask[]) {
    this.total = tasks.reduce((n, t) => n + t.seeds.length, 0);
    this.skipEmpty();
  }

  private skipEmpty(): void {
    while (this.task < this.tasks.length && this.index >= this.tasks[this.task].seeds.length) {
      this.task++;
      this.index = 0;
    }
  }

  get done(): boolean {
    return this.handed >= this.total;
  }

  /** The task of the next unit (valid while not done). */
  get nextTask(): number {
    return this.task;
  }

  take(): { task: number; seed: number } {
    const unit = { task: this.task, seed: this.tasks[this.task].seeds[this.index++] };
    this.handed++;
    this.skipEmpty();
    return unit;
  }
}

/**
 * Runs every task's seeds; with jobs 1 (or from TypeScript sources, in tests) in this thread.
 * `scenarioOf(cell)` gives a cell's scenario when its first seed is handed out: a worker is
 * sent a cell's scenario with its first chunk of that cell (chunks come in cell order, and a
 * worker runs its messages one at a time, so it keeps only the latest), and the caller may
 * load cells as they come instead of holding every one.
 */
export async function runCells(scenarioOf: (cell: number) => Scenario, variants: readonly string[], tasks: readonly CellTask[], jobs: number, onSeed?: () => void): Promise<void> {
  const units = new UnitCursor(tasks);
  const total = units.total;
  const threads = Math.max(1, Math.min(jobs, total));
  const arena = new CheckerArena(); // this thread's checkers', for every seed it runs
  const runHere = (u: { task: number; seed: number }): void => {
    tasks[u.task].onOutcome(runSeed(scenarioOf(tasks[u.task].cell), variants, u.seed, arena));
    onSeed?.();
  };
  if (threads === 1 || !existsSync(fileURLToPath(WORKER_URL))) {
    while (!units.done) runHere(units.take());
    return;
  }
  let failure: { error: unknown } | null = null;
  const workers: Worker[] = [];
  const fail = (err: unknown): void => {
    if (failure !== null) return;
    failure = { error: err };
    for (const w of workers) void w.terminate();
  };
  const feeds: Array<(ahead: number) => void> = [];
  const exits = Array.from({ length: threads - 1 }, () => {
    const w = new Worker(WORKER_URL, { workerData: { variants } });
    workers.push(w);
    let held = 0;
    let stopped = false;
    let cellSent = -1;
    /** Sends chunks until the worker holds `ahead`; once nothing is left, the stop (handled after the chunks it holds). */
    const feed = (ahead: number): void => {
      while (!stopped && held < ahead) {
        if (units.done) {
          stopped = true;
          w.postMessage({ kind: 'stop' });
          return;
        }
        // A chunk is seeds of one task in a row.
        const task = units.nextTask;
        const cell = tasks[task].cell;
        if (cell !== cellSent) {
          w.postMessage({ kind: 'cell', cell, scenario: scenarioOf(cell) });
          cellSent = cell;
        }
        const seeds: number[] = [];
        for (let size = chunkSize(total - units.handed, threads); seeds.length < size && !units.done && units.nextTask === task; ) seeds.push(units.take().seed);
        held++;
        w.postMessage({ kind: 'run', task, cell, seeds });
      }
    };
    feeds.push(feed);
    w.on('message', (m: { task: number; outcomes: SeedOutcome[] } | { scenarioError: { file: string; issues: ScenarioIssue[] } }) => {
      if (failure !== null) return;
      if ('scenarioError' in m) return fail(new ScenarioError(m.scenarioError.file, m.scenarioError.issues));
      held--;
      try {
        for (const o of m.outcomes) {
          tasks[m.task].onOutcome(o);
          onSeed?.();
        }
      } catch (err) {
        return fail(err);
      }
      feed(CHUNKS_AHEAD);
    });
    w.on('error', fail);
    // One chunk to start with (a second would take seeds this thread may run first).
    feed(1);
    return new Promise<void>((resolve) =>
      w.on('exit', () => {
        // A thread that ended with chunks unrun would leave seeds out of the tallies.
        if (held > 0) fail(new Error(`a sweep worker thread ended with ${held} chunk(s) of seeds unrun`));
        resolve();
      }),
    );
  });
  const letMessagesIn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  while (!units.done && failure === null) {
    try {
      runHere(units.take());
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
