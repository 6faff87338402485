/**
 * A node's planned active-expiry checks (RedisNode.scheduleExpiry), in the order the engine's
 * queue runs them: by time, then by when they were planned (the engine's (time, sequence)
 * order, world/../engine/event-queue.ts). Each plan also queues one engine event of a single
 * shared callback, which takes the first key from here: the same events at the same places as
 * a closure per plan, without the closure (a key's check waits out its TTL, 10-30 s of a run,
 * long enough for a closure to be copied by two young-generation scavenges).
 *
 * A binary min-heap in three parallel arrays (times, plan numbers, keys) that keep their length.
 */
export class ExpiryQueue {
  private readonly times: number[] = [];
  private readonly seqs: number[] = [];
  private readonly keys: string[] = [];
  private n = 0;
  private nextSeq = 0;

  get size(): number {
    return this.n;
  }

  /** Plans a check of `key` at `atUs` (the time the engine event is queued for). */
  push(atUs: number, key: string): void {
    const seq = this.nextSeq++;
    const times = this.times;
    const seqs = this.seqs;
    const keys = this.keys;
    let i = this.n++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent];
      if (pt < atUs || (pt === atUs && seqs[parent] < seq)) break;
      times[i] = pt;
      seqs[i] = seqs[parent];
      keys[i] = keys[parent];
      i = parent;
    }
    times[i] = atUs;
    seqs[i] = seq;
    keys[i] = key;
  }

  /** Takes the key of the first check (the queue must not be empty). */
  shift(): string {
    const times = this.times;
    const seqs = this.seqs;
    const keys = this.keys;
    const first = keys[0];
    const last = --this.n;
    if (last === 0) {
      keys[0] = '';
      return first;
    }
    const t = times[last];
    const s = seqs[last];
    const k = keys[last];
    keys[last] = '';
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      const right = child + 1;
      if (right < last && (times[right] < times[child] || (times[right] === times[child] && seqs[right] < seqs[child]))) child = right;
      const ct = times[child];
      if (t < ct || (t === ct && s < seqs[child])) break;
      times[i] = ct;
      seqs[i] = seqs[child];
      keys[i] = keys[child];
      i = child;
    }
    times[i] = t;
    seqs[i] = s;
    keys[i] = k;
    return first;
  }
}
