/**
 * The ledger's finished requests in the order they may be dropped, and when: a list of
 * numbers beside them, so the check made each time time moves on reads no request (whose
 * object is long out of the processor's cache by then).
 */
/** A FIFO of requests with the instants they may be dropped at: a ring that doubles when full (no array copied as it drains). */
export class RetireQueue<T> {
  // 64 at first: a short run's queue stays short, and doubling costs a long one little.
  private items: Array<T | null> = new Array<T | null>(64).fill(null);
  private atUs = new Float64Array(64);
  private head = 0;
  size = 0;

  push(item: T, atUs: number): void {
    if (this.size === this.items.length) this.grow();
    const i = (this.head + this.size) & (this.items.length - 1);
    this.items[i] = item;
    this.atUs[i] = atUs;
    this.size++;
  }

  /** When the first item may be dropped (the queue is not empty). */
  firstAtUs(): number {
    return this.atUs[this.head];
  }

  /** Takes the first item (the queue is not empty). */
  shift(): T {
    const item = this.items[this.head] as T;
    this.items[this.head] = null;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.size--;
    return item;
  }

  private grow(): void {
    const n = this.items.length;
    const items = new Array<T | null>(n * 2).fill(null);
    const atUs = new Float64Array(n * 2);
    for (let k = 0; k < n; k++) {
      const i = (this.head + k) & (n - 1);
      items[k] = this.items[i];
      atUs[k] = this.atUs[i];
    }
    this.items = items;
    this.atUs = atUs;
    this.head = 0;
  }
}

