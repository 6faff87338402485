/**
 * Compact stores for what the checker must remember for a whole run. The workload names
 * requests `r<n>` and order keys `o<n>` (workload/workload.ts submit), so a number indexes
 * a typed array instead of a string keying a Map entry (about 4 bytes instead of about 80
 * per entry); any other name (hand-written histories) falls back to a Map or a Set.
 */

import { numberedTag, TagSet } from '../engine/tag-set.js';

export { numberedTag, TagSet };

/**
 * Order key -> the request that first committed it. The workload names a request's order key
 * after the request (`o<n>` for `r<n>`; a duplicate submission reuses its original's key), so
 * almost every key is first committed by its own request: one bit says so. Exact duplicate
 * detection must remember every committed key for the whole run, so this is the one store
 * that grows with the run: 1 bit per request number (450 KB for an hour at 1000 requests/s),
 * plus a Map entry for a key first committed by another request (a copy that won the race)
 * or not named that way (hand-written histories).
 */
export class OrderKeyMap {
  /** Keys `o<n>` first committed by `r<n>`. */
  private readonly own = new TagSet('o');
  private readonly other = new Map<string, string>();

  get(orderKey: string): string | undefined {
    if (this.own.has(orderKey)) return `r${numberedTag(orderKey, 'o')}`;
    return this.other.get(orderKey);
  }

  /** Remembers the first committer of a key not yet committed (get returned undefined). */
  set(orderKey: string, request: string): void {
    const n = numberedTag(orderKey, 'o');
    if (n >= 0 && numberedTag(request, 'r') === n) this.own.add(orderKey);
    else this.other.set(orderKey, request);
  }
}

/**
 * A growable list of numbers with no object per entry: 4 bytes each while every value is an
 * integer in [0, 2^32) (latencies in microseconds, up to 71 minutes), 8 once one is not.
 */
export class NumberList {
  private data: Uint32Array | Float64Array = new Uint32Array(64);
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
    const values = this.data.subarray(0, this.length);
    if (values instanceof Uint32Array && values.length >= RADIX_FROM) radixSort(values);
    else values.sort();
    return values;
  }

  /** Empties the list, keeping its storage. */
  clear(): void {
    this.length = 0;
  }
}

/**
 * From this many 32-bit values on, sorted() uses a radix sort: measured in Node 20 on this
 * project's machine, 4,800 random latencies (a failover.yaml run's) took 0.32 ms with
 * TypedArray sort, about 7x what three counting passes take.
 */
const RADIX_FROM = 256;
const RADIX_BITS = 11;
const RADIX_MASK = (1 << RADIX_BITS) - 1;

/**
 * Sorts 32-bit unsigned integers in place, ascending: least significant 11 bits first, stable
 * counting passes up to the highest bit any value has (two for values under 2^22: latencies
 * under about 4.2 s), three at most.
 */
function radixSort(values: Uint32Array): void {
  const n = values.length;
  let bits = 0;
  for (let i = 0; i < n; i++) bits |= values[i];
  let from: Uint32Array = values;
  let to: Uint32Array = new Uint32Array(n);
  const counts = new Uint32Array(RADIX_MASK + 1);
  for (let shift = 0; shift < 32 && (shift === 0 || bits >>> shift !== 0); shift += RADIX_BITS) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(from[i] >>> shift) & RADIX_MASK]++;
    let sum = 0;
    for (let d = 0; d <= RADIX_MASK; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const x = from[i];
      to[counts[(x >>> shift) & RADIX_MASK]++] = x;
    }
    const t = from;
    from = to;
    to = t;
  }
  // An odd number of passes ends in the scratch array.
  if (from !== values) values.set(from);
}

/** Values buffered before they are merged into the counts (256 KB while they are 32-bit). */
const MIN_PENDING = 65_536;

/**
 * Values as counts per distinct value (two sorted columns), for exact nearest-rank
 * percentiles in memory that grows with the number of distinct values, not of values
 * (measured on the bench's standalone world at 1000 requests/s, src/bench/scale-probe.ts:
 * 8,040 distinct latencies after 300 simulated seconds, 8,999 after an hour of 3.6M answers,
 * 144 KB). New values wait in a buffer and are merged in sorted batches; a buffer at least
 * as long as the columns keeps the merging linear in total. When every value differs this
 * costs 16 bytes a distinct value instead of 4-8 for a plain list, the price of staying flat
 * in the usual case.
 */
export class ValueCounts {
  private values = new Float64Array(0);
  private counts = new Float64Array(0);
  private distinct = 0;
  private readonly pending = new NumberList();
  /** Values added. */
  length = 0;

  add(x: number): void {
    this.pending.push(x);
    this.length++;
    if (this.pending.length >= Math.max(MIN_PENDING, this.distinct)) this.merge();
  }

  /** Nearest-rank percentile (checker/requests.ts percentile over the sorted values; 0 when empty). */
  percentile(p: number): number {
    this.merge();
    if (this.length === 0) return 0;
    const rank = Math.max(1, Math.ceil(p * this.length));
    let seen = 0;
    for (let i = 0; i < this.distinct; i++) {
      seen += this.counts[i];
      if (seen >= rank) return this.values[i];
    }
    return this.values[this.distinct - 1];
  }

  /** Distinct values held (what the memory grows with). */
  get distinctValues(): number {
    this.merge();
    return this.distinct;
  }

  private merge(): void {
    if (this.pending.length === 0) return;
    const add = this.pending.sorted();
    const vs = this.values;
    const cs = this.counts;
    const n = this.distinct;
    const m = add.length;
    const values = new Float64Array(n + m);
    const counts = new Float64Array(n + m);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < n || j < m) {
      // The smaller head (at least one value taken), then every value equal to it.
      let x: number;
      let c: number;
      if (j >= m || (i < n && !(add[j] < vs[i]))) {
        x = vs[i];
        c = cs[i++];
      } else {
        x = add[j++];
        c = 1;
      }
      while (i < n && vs[i] === x) c += cs[i++];
      while (j < m && add[j] === x) {
        c++;
        j++;
      }
      values[k] = x;
      counts[k++] = c;
    }
    this.values = values.slice(0, k);
    this.counts = counts.slice(0, k);
    this.distinct = k;
    this.pending.clear();
  }
}
