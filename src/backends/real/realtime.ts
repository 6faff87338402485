/**
 * Drives the discrete-event engine in real time: "now" follows a monotonic clock, and each
 * queued event fires when the clock reaches its time. Workers, GC pauses, the database model
 * and guards run as the same engine code as in a simulated run; only what happens outside
 * the process (a Redis reply, a Sentinel announcement) comes in through `inject`, which
 * queues a callback at the current real time and wakes the loop.
 */
import type { Simulation } from '../../engine/simulation.js';
import type { Micros } from '../../engine/time.js';
import type { MonotonicClock } from './monotonic.js';

export class RealTimeDriver {
  private wake: (() => void) | null = null;
  private failure: unknown = null;

  /** Reads 0 until `start`: nothing is due before the run's time begins. */
  private clock: MonotonicClock = () => 0;

  constructor(readonly sim: Simulation) {}

  /** The run's time begins: from now on "now" is `clock()` (0 at this instant). */
  start(clock: MonotonicClock): void {
    this.clock = clock;
  }

  /** Real microseconds since the run began. */
  nowUs(): Micros {
    return this.clock();
  }

  /** Queues `callback` at the current real time (an I/O completion) and wakes the loop. */
  inject(callback: () => void): void {
    this.sim.scheduleAt(this.clock(), callback);
    this.wake?.();
  }

  /** Stops the loop with an error raised outside it (a process that would not start, say). */
  fail(err: unknown): void {
    this.failure ??= err;
    this.wake?.();
  }

  /** Runs events as their real times come, until the clock reaches `untilUs`. */
  async runUntil(untilUs: Micros): Promise<void> {
    for (;;) {
      if (this.failure !== null) throw this.failure;
      const now = Math.min(this.clock(), untilUs);
      this.sim.run(now);
      if (now >= untilUs) return;
      const next = Math.min(this.sim.nextEventUs(), untilUs);
      const waitMs = Math.max(0, (next - this.clock()) / 1000);
      if (waitMs === 0) {
        // Let I/O callbacks in between events that are already due.
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, waitMs); // lock-sim: wall-clock ok (the real-time driver sleeps until the next event is due)
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
      this.wake = null;
    }
  }
}
