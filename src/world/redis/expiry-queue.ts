/**
 * A node's planned active-expiry checks (RedisNode.scheduleExpiry), in the order the engine's
 * queue runs them: by time, then by when they were planned (the engine's (time, sequence)
 * order). Each plan also queues one engine event of a single shared callback, which takes the
 * first key from here: the same events at the same places as a closure per plan, without the
 * closure (a key's check waits out its TTL, 10-30 s of a run, long enough for a closure to be
 * copied by two young-generation scavenges).
 *
 * The engine's own heap (engine/event-queue.ts) holds the keys, so the two orders are one
 * mechanism: plans never use its delay lanes, only its (time, sequence) heap.
 */
import { EventQueue } from '../../engine/event-queue.js';

export class ExpiryQueue {
  private readonly queue = new EventQueue<string>();

  get size(): number {
    return this.queue.size;
  }

  /** Plans a check of `key` at `atUs` (the time the engine event is queued for). */
  push(atUs: number, key: string): void {
    this.queue.push(atUs, key, 0);
  }

  /** Takes the key of the first check (the queue must not be empty). */
  shift(): string {
    return this.queue.pop() as string;
  }
}
