/**
 * A first-in first-out queue of items in flight (a link's messages, a replication stream's
 * changes on the wire) that allocates nothing in its steady state: the array keeps its length
 * when the queue drains (head and tail go back to 0; setting the length to 0 dropped the
 * backing store, and the next push, on a link mostly empty between commands, allocated a new
 * one), and a queue never empty for long drops its taken half once that is 1,024 items or more,
 * so its memory stays bounded (amortised O(1)).
 */
export class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;
  /** One past the newest item. */
  private tail = 0;

  get size(): number {
    return this.tail - this.head;
  }

  push(item: T): void {
    this.items[this.tail++] = item;
  }

  /** Takes the oldest item; the queue must not be empty. */
  shift(): T {
    const items = this.items;
    const item = items[this.head] as T;
    items[this.head++] = undefined;
    if (this.head === this.tail) {
      this.head = 0;
      this.tail = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.tail) {
      items.splice(0, this.head);
      this.tail -= this.head;
      this.head = 0;
    }
    return item;
  }
}
