/**
 * A binary min-heap of scheduled items ordered by (time, sequence number).
 * The sequence number is assigned at push time, so items due at the same microsecond
 * come out in the order they were scheduled (FIFO), which is what makes a run
 * deterministic without any priority juggling by callers.
 *
 * Three parallel arrays instead of an array of entry objects: pushing 1M events then
 * allocates nothing per event, which is most of the engine's speed (see `npm run bench`).
 *
 * Beside the heap, a few FIFO lanes (`pushAfter`): items scheduled a fixed delay after the
 * current time (a command's deadline, always the command timeout after the send) fall due
 * in the order they were pushed, so a queue per delay keeps them sorted with no heap work.
 * Most deadlines are stale by then (the reply came first): in a lane they cost an append and
 * a shift instead of a sift through the heap, and the heap stays smaller for everything
 * else. `pop` takes the earliest of the heap's top and the lanes' heads by (time, sequence
 * number), so the order is exactly the one a single heap gives.
 */
export class EventQueue<T> {
  private times: number[] = [];
  private seqs: number[] = [];
  private items: Array<T | undefined> = [];
  private tags: number[] = [];
  private nextSeq = 0;
  /**
   * Items in the heap. The arrays keep their high-water length: `pop()` on them right-trims
   * the backing store once it is under half full, and the next pushes allocate and copy it
   * again, over and over as a run's queue breathes.
   */
  private n = 0;

  /** The lanes, by the delay they serve; at most MAX_LANES. */
  private readonly lanes: Lane<T>[] = [];
  /** Items in the lanes. */
  private inLanes = 0;

  get size(): number {
    return this.n + this.inLanes;
  }

  /**
   * Pushes an item due at `timeUs`, `delayUs` after the current time, where the current time
   * never decreases from one call to the next (the simulation's clock): into the lane of that
   * delay, so it is due no earlier than anything already in that lane. A delay with no lane
   * takes a free lane (none yet, or an empty one), else the item goes into the heap.
   */
  pushAfter(timeUs: number, delayUs: number, item: T, tag: number): void {
    const lanes = this.lanes;
    let lane: Lane<T> | undefined;
    let empty: Lane<T> | undefined;
    for (let i = 0; i < lanes.length; i++) {
      const l = lanes[i];
      if (l.delayUs === delayUs) {
        lane = l;
        break;
      }
      if (empty === undefined && l.head === l.tail) empty = l;
    }
    if (lane === undefined) {
      if (lanes.length < MAX_LANES) {
        lane = new Lane<T>(delayUs);
        lanes.push(lane);
      } else if (empty !== undefined) {
        lane = empty;
        lane.delayUs = delayUs;
      } else {
        this.push(timeUs, item, tag);
        return;
      }
    }
    const k = lane.tail++;
    lane.times[k] = timeUs;
    lane.seqs[k] = this.nextSeq++;
    lane.items[k] = item;
    lane.tags[k] = tag;
    this.inLanes++;
  }

  /** `tag` is an opaque number carried with the item (the engine uses it for wake tokens). */
  push(timeUs: number, item: T, tag: number): void {
    const seq = this.nextSeq++;
    const { times, seqs, items, tags } = this;
    let i = this.n++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent];
      if (pt < timeUs || (pt === timeUs && seqs[parent] < seq)) break;
      times[i] = pt;
      seqs[i] = seqs[parent];
      items[i] = items[parent];
      tags[i] = tags[parent];
      i = parent;
    }
    times[i] = timeUs;
    seqs[i] = seq;
    items[i] = item;
    tags[i] = tag;
  }

  peekTime(): number {
    let t = this.n === 0 ? Infinity : this.times[0];
    if (this.inLanes === 0) return t;
    const lanes = this.lanes;
    for (let i = 0; i < lanes.length; i++) {
      const l = lanes[i];
      if (l.head !== l.tail && l.times[l.head] < t) t = l.times[l.head];
    }
    return t;
  }

  /** The lane whose head comes before the heap's top and every other lane's head, or null. */
  private earliestLane(): Lane<T> | null {
    let best: Lane<T> | null = null;
    let bestTime = this.n === 0 ? Infinity : this.times[0];
    let bestSeq = this.n === 0 ? Infinity : this.seqs[0];
    const lanes = this.lanes;
    for (let i = 0; i < lanes.length; i++) {
      const l = lanes[i];
      if (l.head === l.tail) continue;
      const t = l.times[l.head];
      if (t < bestTime || (t === bestTime && l.seqs[l.head] < bestSeq)) {
        best = l;
        bestTime = t;
        bestSeq = l.seqs[l.head];
      }
    }
    return best;
  }

  /** Removes the earliest item; its time and tag are left in `poppedTime` / `poppedTag`. */
  poppedTime = 0;
  poppedTag = 0;
  pop(): T | undefined {
    if (this.inLanes > 0) {
      const lane = this.earliestLane();
      if (lane !== null) {
        this.inLanes--;
        this.poppedTime = lane.times[lane.head];
        this.poppedTag = lane.tags[lane.head];
        return lane.shift();
      }
    }
    const { times, seqs, items, tags } = this;
    const n = this.n;
    if (n === 0) return undefined;
    const top = items[0];
    this.poppedTime = times[0];
    this.poppedTag = tags[0];
    const size = n - 1;
    this.n = size;
    const lastTime = times[size];
    const lastSeq = seqs[size];
    const lastItem = items[size];
    const lastTag = tags[size];
    // The vacated slot lets go of its item (a process or a callback and what it holds).
    items[size] = undefined;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= size) break;
        const right = left + 1;
        let child = left;
        if (
          right < size &&
          (times[right] < times[left] || (times[right] === times[left] && seqs[right] < seqs[left]))
        ) {
          child = right;
        }
        const ct = times[child];
        if (ct > lastTime || (ct === lastTime && seqs[child] > lastSeq)) break;
        times[i] = ct;
        seqs[i] = seqs[child];
        items[i] = items[child];
        tags[i] = tags[child];
        i = child;
      }
      times[i] = lastTime;
      seqs[i] = lastSeq;
      items[i] = lastItem;
      tags[i] = lastTag;
    }
    return top;
  }
}

/** More lanes would make every pop look at more heads; delays beyond these use the heap. */
const MAX_LANES = 4;

/** A FIFO of items due in push order (see EventQueue.pushAfter). */
class Lane<T> {
  times: number[] = [];
  seqs: number[] = [];
  items: Array<T | undefined> = [];
  tags: number[] = [];
  head = 0;
  /** One past the newest item; the arrays keep their length when the lane drains (as Link's). */
  tail = 0;

  constructor(public delayUs: number) {}

  /** Removes the head item (its time and tag were read by the caller). */
  shift(): T | undefined {
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.tail) {
      this.head = 0;
      this.tail = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.tail) {
      // A lane never empty for long: move the live part to the front so memory stays bounded.
      const live = this.tail - this.head;
      this.times.copyWithin(0, this.head, this.tail);
      this.seqs.copyWithin(0, this.head, this.tail);
      this.items.copyWithin(0, this.head, this.tail);
      this.tags.copyWithin(0, this.head, this.tail);
      for (let i = live; i < this.tail; i++) this.items[i] = undefined;
      this.head = 0;
      this.tail = live;
    }
    return item;
  }
}
