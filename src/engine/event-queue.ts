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
  private items: T[] = [];
  private tags: number[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.items.length;
  }

  /** `tag` is an opaque number carried with the item (the engine uses it for wake tokens). */
  push(timeUs: number, item: T, tag: number): void {
    const seq = this.nextSeq++;
    let i = this.items.length;
    const { times, seqs, items, tags } = this;
    times.push(timeUs);
    seqs.push(seq);
    items.push(item);
    tags.push(tag);
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
    return this.items.length === 0 ? Infinity : this.times[0];
  }

  /** Removes the earliest item; its time and tag are left in `poppedTime` / `poppedTag`. */
  poppedTime = 0;
  poppedTag = 0;
  pop(): T | undefined {
    const { times, seqs, items, tags } = this;
    const n = items.length;
    if (n === 0) return undefined;
    const top = items[0];
    this.poppedTime = times[0];
    this.poppedTag = tags[0];
    const lastTime = times.pop() as number;
    const lastSeq = seqs.pop() as number;
    const lastItem = items.pop() as T;
    const lastTag = tags.pop() as number;
    const size = n - 1;
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
