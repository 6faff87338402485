/**
 * The request ledger's requests by name, and the names whose facts it dropped. The
 * workload numbers its requests `r<n>` in order of arrival (workload/workload.ts submit) and
 * the checker holds those of the last minute or so, so a request lives in a slot of a ring
 * indexed by its number: an array read where a Map of a few thousand strings cost a hash
 * lookup into a table scattered in memory, the checker's largest self time on `compare
 * scenarios/failover.yaml` (Map get/set/delete on request names, about a third of the streaming checker then, stream.js;
 * measured with `node --cpu-prof`, see the commit that brought this file). A request whose
 * slot a newer one needs moves to a Map, as do names of any other form (hand-written
 * histories). Dropped names are one bit per number (whole-run-stores.ts TagSet's layout).
 */
import { numberedTag } from './whole-run-stores.js';

/** What the table holds: anything that knows its own name, and its number (requestNumber). */
interface Named {
  id: string;
  /** requestNumber(id), taken once when the object is filled: add and drop read no string. */
  num: number;
}

/** n for a request named `r<n>` (the workload's names), else -1. */
export function requestNumber(id: string): number {
  return numberedTag(id, 'r');
}

/** Slots at the start; the ring doubles while the requests it would push out are recent. */
const INITIAL_SLOTS = 4096;
/** The ring stops growing here (8 MB of slots); older requests then go to the overflow Map. */
const MAX_SLOTS = 1 << 20;
/** A table whose ring grew past this is not used again (clearing it would write every slot). */
const REUSE_UP_TO_SLOTS = 4 * INITIAL_SLOTS;

export class RequestTable<T extends Named> {
  private ring: Array<T | null>;
  /** The number in each slot's request (-1: empty), so a lookup reads no object to miss. */
  private nums: Int32Array;
  private mask: number;
  /** Numbered requests pushed out of the ring by newer ones. */
  private readonly overflow = new Map<number, T>();
  /** Requests whose names are not `r<n>`. */
  private readonly named = new Map<string, T>();
  private dropped = new Uint8Array(0);
  private readonly droppedNamed = new Set<string>();
  /** The highest number seen (the ring grows only for requests near it). */
  private newest = -1;
  size = 0;

  /** `slots`: the ring's first size, a power of two (a smaller one for a table that stays empty). */
  constructor(slots: number = INITIAL_SLOTS) {
    this.ring = new Array<T | null>(slots).fill(null);
    this.nums = new Int32Array(slots).fill(-1);
    this.mask = slots - 1;
  }

  get(id: string): T | undefined {
    const n = numberedTag(id, 'r');
    if (n < 0) return this.named.get(id);
    const slot = n & this.mask;
    if (this.nums[slot] === n) return this.ring[slot] as T;
    return this.overflow.size === 0 ? undefined : this.overflow.get(n);
  }

  /** Adds a request the table does not hold. */
  add(r: T): void {
    this.size++;
    const n = r.num;
    if (n < 0) {
      this.named.set(r.id, r);
      return;
    }
    if (n > this.newest) this.newest = n;
    let slot = n & this.mask;
    const held = this.nums[slot];
    if (held >= 0) {
      // A request still held a full ring behind: grow while it is recent (the ring spans the
      // requests of the grace), else move it to the overflow Map (a lock held for long). With
      // numbers in order of arrival the one held is always a full ring behind the newest, so
      // an overflow an eighth of the ring's size says the grace spans more than the ring: on
      // the scale probe's world (1000 requests/s, a minute of grace, about 60,000 requests
      // held) the ring stayed at its first 4,096 slots and the overflow held the other 56,000
      // (a 3.7 MB Map table in a heap snapshot at 240 s, and a Map set and delete per request).
      if ((this.newest - held < this.ring.length || this.overflow.size >= this.ring.length >> 3) && this.ring.length < MAX_SLOTS) {
        this.grow();
        slot = n & this.mask;
      }
      const old = this.nums[slot];
      if (old >= 0) this.overflow.set(old, this.ring[slot] as T);
    }
    this.ring[slot] = r;
    this.nums[slot] = n;
  }

  /** Removes a request and remembers that its facts were dropped. */
  drop(r: T): void {
    this.size--;
    const n = r.num;
    if (n < 0) {
      this.named.delete(r.id);
      this.droppedNamed.add(r.id);
      return;
    }
    const slot = n & this.mask;
    if (this.nums[slot] === n) {
      this.ring[slot] = null;
      this.nums[slot] = -1;
    } else this.overflow.delete(n);
    const byte = n >> 3;
    if (byte >= this.dropped.length) {
      let size = Math.max(64, this.dropped.length);
      while (size <= byte) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.dropped);
      this.dropped = grown;
    }
    this.dropped[byte] |= 1 << (n & 7);
  }

  /** Whether the facts of a request of this name were dropped. */
  wasDropped(id: string): boolean {
    const n = numberedTag(id, 'r');
    if (n < 0) return this.droppedNamed.has(id);
    return n >> 3 < this.dropped.length && (this.dropped[n >> 3] & (1 << (n & 7))) !== 0;
  }

  /** Every request held, in no particular order (the order of list()). */
  *values(): IterableIterator<T> {
    yield* this.list();
  }

  /** Every request held, in an array: ring slots in order, then the overflow, then other names (no generator step per request). */
  list(): T[] {
    const out: T[] = [];
    const ring = this.ring;
    for (let i = 0; i < ring.length; i++) {
      const r = ring[i];
      if (r !== null) out.push(r);
    }
    for (const r of this.overflow.values()) out.push(r);
    for (const r of this.named.values()) out.push(r);
    return out;
  }

  /**
   * Empties the table for another run: a table used again costs no new ring (32 KB at first,
   * filled slot by slot) for every run. Clearing writes every slot, so only a table whose
   * ring is still small is worth keeping (reusable()).
   */
  clear(): void {
    this.ring.fill(null);
    this.nums.fill(-1);
    this.overflow.clear();
    this.named.clear();
    this.droppedNamed.clear();
    if (this.newest >= 0) this.dropped.fill(0, 0, Math.min(this.dropped.length, (this.newest >> 3) + 1));
    this.newest = -1;
    this.size = 0;
  }

  /** The ring's size, and the requests held outside it (what the memory a request held costs depends on). */
  get slots(): number {
    return this.ring.length;
  }

  get overflowed(): number {
    return this.overflow.size;
  }

  /** Whether clearing this table costs less than a new one would (its ring has not grown far). */
  get reusable(): boolean {
    return this.ring.length <= REUSE_UP_TO_SLOTS;
  }

  private grow(): void {
    const ring = this.ring;
    const nums = this.nums;
    const slots = ring.length * 2;
    this.ring = new Array<T | null>(slots).fill(null);
    this.nums = new Int32Array(slots).fill(-1);
    this.mask = slots - 1;
    for (let i = 0; i < ring.length; i++) {
      const n = nums[i];
      if (n < 0) continue;
      this.ring[n & this.mask] = ring[i];
      this.nums[n & this.mask] = n;
    }
    // Pushed-out requests come back where their slot is free.
    for (const [n, r] of this.overflow) {
      const slot = n & this.mask;
      if (this.nums[slot] >= 0) continue;
      this.ring[slot] = r;
      this.nums[slot] = n;
      this.overflow.delete(n);
    }
  }
}
