/**
 * A set of names, compact for the simulator's numbered names (`r<n>` requests, `o<n>` order
 * keys, workload/workload.ts submit): one bit per number instead of a string and a hash-table
 * entry (about 60 bytes) per name. Other names go to a plain Set. Long runs remember millions
 * of them (the orders table's unique index, the checker's dropped requests).
 */

/** n when `tag` is `prefix` followed by the canonical decimal form of n (no leading zero), else -1. */
export function numberedTag(tag: string, prefix: string): number {
  if (tag.length <= prefix.length || tag.length > prefix.length + 9 || !tag.startsWith(prefix)) return -1;
  let n = 0;
  for (let i = prefix.length; i < tag.length; i++) {
    const c = tag.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    if (c === 0 && i === prefix.length && tag.length > prefix.length + 1) return -1; // leading zero
    n = n * 10 + c;
  }
  return n;
}

export class TagSet {
  private bits = new Uint8Array(0);
  private readonly other = new Set<string>();
  /** Names in the set. */
  size = 0;

  constructor(private readonly prefix: string) {}

  add(tag: string): void {
    if (this.has(tag)) return;
    this.size++;
    const n = numberedTag(tag, this.prefix);
    if (n < 0) {
      this.other.add(tag);
      return;
    }
    const byte = n >> 3;
    if (byte >= this.bits.length) {
      let size = Math.max(64, this.bits.length);
      while (size <= byte) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[byte] |= 1 << (n & 7);
  }

  has(tag: string): boolean {
    const n = numberedTag(tag, this.prefix);
    if (n < 0) return this.other.has(tag);
    return n >> 3 < this.bits.length && (this.bits[n >> 3] & (1 << (n & 7))) !== 0;
  }
}
