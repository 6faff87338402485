/**
 * PCT, the probabilistic concurrency testing scheduler of Burckhardt, Kothari, Musuvathi and
 * Nagarakatte, "A Randomized Scheduler with Probabilistic Guarantees of Finding Bugs" (ASPLOS
 * 2010), as a same-instant policy (same-instant.ts). As the paper's algorithm: every thread
 * gets a random priority above d - 1 (a random order of all threads, drawn as each appears);
 * d - 1 change points k_1 .. k_{d-1} are drawn from the steps 1 .. k, each k_i with the
 * priority i; when the k_i-th step has run, its thread's priority becomes i, below every
 * initial one; the highest-priority thread with an event due runs next. For a program of at
 * most n threads and k steps, the paper proves that one such schedule finds a bug of depth d
 * (d ordering constraints between events of different threads) with probability at least
 * 1 / (n k^(d-1)).
 *
 * Plain data describes a schedule (PctSchedule), so it can cross to a worker thread; the
 * policy draws from its own seeded stream, never from the simulation's, so the run's own
 * random streams are consumed as the events run, whatever their order.
 */
import { RandomStream } from './random.js';
import type { EventThread, SameInstantPolicy } from './same-instant.js';

export interface PctSchedule {
  /** Seeds the priorities and the change points. */
  seed: string;
  /** d, the bug depth the schedule is drawn for (1: no change points). */
  depth: number;
  /** k, the number of steps the change points are drawn from (the run's events, at most). */
  steps: number;
}

export class PctPolicy implements SameInstantPolicy {
  private readonly rng: RandomStream;
  /** Step number -> the priority its thread takes after it (the paper's k_i -> i). */
  private readonly changes = new Map<number, number>();
  private readonly depth: number;

  constructor(schedule: PctSchedule) {
    if (!Number.isInteger(schedule.depth) || schedule.depth < 1) throw new Error(`PCT depth must be an integer >= 1, found ${schedule.depth}`);
    if (!Number.isInteger(schedule.steps) || schedule.steps < 1) throw new Error(`PCT steps must be an integer >= 1, found ${schedule.steps}`);
    this.depth = schedule.depth;
    this.rng = new RandomStream('pct', `pct/${schedule.seed}`);
    // d - 1 distinct change points (fewer when there are fewer steps), k_i with priority i.
    const points = Math.min(schedule.depth - 1, schedule.steps);
    for (let i = 1; this.changes.size < points; ) {
      const at = this.rng.int(1, schedule.steps);
      if (this.changes.has(at)) continue;
      this.changes.set(at, i++);
    }
  }

  /** Initial priorities lie in [d, d + 1): above every change point's, in a random order. */
  started(thread: EventThread): void {
    thread.priority = this.depth + this.rng.next();
  }

  stepped(step: number, thread: EventThread): void {
    const p = this.changes.get(step);
    if (p !== undefined) thread.priority = p;
  }

  /** The change points, in the order drawn (k_1 first): for reports and tests. */
  changePoints(): number[] {
    return [...this.changes.keys()];
  }
}
