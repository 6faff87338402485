/**
 * Compact stores for what the checker must remember for a whole run. The workload names
 * requests `r<n>` and order keys `o<n>` (workload/workload.ts submit), so a number indexes
 * a typed array instead of a string keying a Map entry (about 4 bytes instead of about 80
 * per entry); any other name (hand-written histories) falls back to a Map or a Set.
 */

import { numberedTag, TagSet } from '../engine/tag-set.js';

export { numberedTag, TagSet };

function grown<T extends Int32Array>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a;
  let size = Math.max(16, a.length);
  while (size < need) size *= 2;
  const b = make(size);
  b.set(a);
  return b;
}

/** Order key -> the request that first committed it. */
export class OrderKeyMap {
  /** Index n of `o<n>` -> m + 1 for request `r<m>` (0: none). */
  private numbered = new Int32Array(0);
  private readonly other = new Map<string, string>();

  get(orderKey: string): string | undefined {
    const n = numberedTag(orderKey, 'o');
    if (n >= 0 && n < this.numbered.length && this.numbered[n] !== 0) return `r${this.numbered[n] - 1}`;
    return this.other.get(orderKey);
  }

  set(orderKey: string, request: string): void {
    const n = numberedTag(orderKey, 'o');
    const m = numberedTag(request, 'r');
    if (n < 0 || m < 0 || m >= 0x7fffffff) {
      this.other.set(orderKey, request);
      return;
    }
    this.numbered = grown(this.numbered, n + 1, (k) => new Int32Array(k));
    this.numbered[n] = m + 1;
  }
}

/**
 * A growable list of numbers with no object per entry: 4 bytes each while every value is an
 * integer in [0, 2^32) (latencies in microseconds, up to 71 minutes), 8 once one is not.
 */
export class NumberList {
  private data: Uint32Array | Float64Array = new Uint32Array(1024);
  length = 0;

  push(x: number): void {
    if (this.data instanceof Uint32Array && !(Number.isInteger(x) && x >= 0 && x < 2 ** 32)) this.data = Float64Array.from(this.data);
    if (this.length === this.data.length) {
      const grown = this.data instanceof Uint32Array ? new Uint32Array(this.length * 2) : new Float64Array(this.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = x;
  }

  /** The values in the order they were pushed (a view, valid until the next push). */
  values(): Uint32Array | Float64Array {
    return this.data.subarray(0, this.length);
  }

  /** The values in ascending order (sorts in place). */
  sorted(): Uint32Array | Float64Array {
    return this.data.subarray(0, this.length).sort();
  }
}
