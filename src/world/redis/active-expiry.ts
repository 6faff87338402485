/**
 * Active expiry of one node (redis 7.0.15 src/expire.c activeExpireCycle, modelled as one
 * lookup just after each deadline, which deletes the key if it is still due: db.c
 * expireIfNeeded): the checks planned, in the engine's order. A part of RedisNode (node.ts).
 */
import type { Simulation } from '../../engine/simulation.js';
import type { LocalClock } from '../clock.js';
import { ExpiryQueue } from './expiry-queue.js';
import type { Keyspace } from './keyspace.js';

export class ActiveExpiry {
  /** Active-expiry checks planned and not yet due (schedule), in the engine's order. */
  private readonly queue = new ExpiryQueue();

  constructor(
    private readonly sim: Simulation,
    private readonly clock: LocalClock,
    private readonly keyspace: Keyspace,
    /** Whether the node expires keys now: up, awake, a primary. */
    private readonly serving: () => boolean,
  ) {}

  /** Active expiry: look the key up just after its deadline, which deletes it if still due. */
  schedule(key: string, expireAtMs: number): void {
    // A deadline past 2^53 µs (285 years; SET PXAT and PEXPIREAT take up to 2^63-1 ms) is
    // never reached by a run, and its microseconds are not exact doubles: nothing to plan.
    if ((expireAtMs + 1) * 1000 > Number.MAX_SAFE_INTEGER) return;
    // The engine queues it at that time or now, whichever is later (Simulation.scheduleAt).
    const at = Math.max(this.clock.simTimeAt((expireAtMs + 1) * 1000), this.sim.nowUs);
    this.queue.push(at, key);
    this.sim.scheduleAt(at, this.expireNext);
  }

  /**
   * The first planned expiry check fell due (every plan queued one event of this callback,
   * and the queue keeps the engine's order): its key is looked up, which deletes it if due.
   */
  private readonly expireNext = (): void => {
    const key = this.queue.shift();
    if (this.serving()) this.keyspace.lookup(key);
  };

  /** Every key with a deadline gets its check planned again (a wake-up, a restart with its data, a promotion). */
  rescheduleAll(): void {
    for (const key of this.keyspace.keys()) {
      const e = this.keyspace.rawGet(key);
      if (e?.expireAtMs != null) this.schedule(key, e.expireAtMs);
    }
  }
}
