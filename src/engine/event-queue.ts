/**
 * A binary min-heap of scheduled items ordered by (time, sequence number).
 * The sequence number is assigned at push time, so items due at the same microsecond
 * come out in the order they were scheduled (FIFO), which is what makes a run
 * deterministic without any priority juggling by callers.
 *
 * Three parallel arrays instead of an array of entry objects: pushing 1M events then
 * allocates nothing per event, which is most of the engine's speed (see `npm run bench`).
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

  get size(): number {
    return this.n;
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
    return this.n === 0 ? Infinity : this.times[0];
  }

  /** Removes the earliest item; its time and tag are left in `poppedTime` / `poppedTag`. */
  poppedTime = 0;
  poppedTag = 0;
  pop(): T | undefined {
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
