/**
 * A few objects in no order, for the observers' sets that fill and empty all the
 * time (a key's sections inside, a key's open sections). A Set was the obvious choice, but V8
 * rebuilds a Set's table (a runtime call and a new table) whenever a delete leaves it under
 * half full, which is about every time a key's last holder leaves; an array emptied by pop()
 * gives its backing store back and allocates a new one at the next push. A bag keeps its slots:
 * a removed item's slot takes the last item and the count goes down.
 */
export class Bag<T> {
  private readonly items: Array<T | null> = [];
  size = 0;

  has(x: T): boolean {
    const items = this.items;
    for (let i = 0; i < this.size; i++) if (items[i] === x) return true;
    return false;
  }

  /** Adds `x` if it is not in the bag. */
  add(x: T): void {
    if (this.has(x)) return;
    if (this.size < this.items.length) this.items[this.size] = x;
    else this.items.push(x);
    this.size++;
  }

  /** Removes `x` if it is in the bag. */
  delete(x: T): void {
    const items = this.items;
    const last = this.size - 1;
    for (let i = 0; i <= last; i++) {
      if (items[i] !== x) continue;
      items[i] = items[last];
      items[last] = null;
      this.size = last;
      return;
    }
  }

  /** The item at `i` (0 <= i < size), in no particular order. */
  at(i: number): T {
    return this.items[i] as T;
  }
}
