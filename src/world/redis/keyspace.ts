/**
 * One Redis node's keyspace: strings, hashes, lists, sets and sorted sets (collection-values.ts) with
 * millisecond expiry deadlines judged
 * by the node's own clock (as Redis does: deadlines are absolute wall-clock milliseconds).
 *
 * Expiry follows Redis 7 (`db.c` keyIsExpired / expireIfNeeded): a key is expired when
 * now > deadline. A primary deletes an expired key when it is touched, and the node's
 * active-expire timer deletes it at its deadline; a replica never deletes on its own but
 * answers as if the key were gone, and waits for the primary's deletion to arrive.
 * Every write reports the key's new state through `onChange`, which is how replication
 * (by effects, like Redis >= 5 for scripts) and the lock observer learn about it.
 */
import type { ServerVersion } from '../../spec/redis.js';
import { HASHTABLE_HASHES, RedisList, RedisSet, RedisZset } from './collection-values.js';

export type StoredValue = string | Map<string, string> | RedisList | RedisSet | RedisZset;

export interface Entry {
  value: StoredValue;
  /** Absolute deadline in the node's clock milliseconds, or null for no TTL. */
  expireAtMs: number | null;
  /** The request that created the key: who "holds" it when the key is a lock. */
  holderTag: string;
}

/** 'attributed': no change of Redis's state, lock-sim learning whose the key is (RedisNode.reattribute). */
type ChangeCause = 'write' | 'delete' | 'expire' | 'ttl' | 'sync' | 'clock' | 'attributed';

export interface KeyChange {
  key: string;
  /** The state after the change; undefined when the key is gone. */
  entry: Entry | undefined;
  cause: ChangeCause;
  /** The request whose command made the change ('' for the node itself). */
  byTag: string;
  /** Holder before the change, if the key existed. */
  previousHolder: string | undefined;
}

export class Keyspace {
  private readonly data = new Map<string, Entry>();
  /** Replicas report expired keys as missing but keep them until the primary deletes them. */
  deletesExpiredKeys = true;
  /** The server this keyspace's node runs: which commands and SET options exist (server-versions.ts). */
  server: ServerVersion = 'redis-7.0';
  /**
   * Told of every change. The change object is this keyspace's one, set anew for each change
   * (a run makes thousands): read it during the call, copy what you keep. No listener changes
   * the keyspace from inside it, so one change is never overwritten while it is being read.
   */
  onChange: ((change: KeyChange) => void) | null = null;
  private readonly change: KeyChange = { key: '', entry: undefined, cause: 'write', byTag: '', previousHolder: undefined };
  /**
   * The key looked up last and its entry in `data` (undefined: none): a command reads and then
   * writes the same key (SET after its NX check, DEL after its lookup, a script's EXISTS,
   * HINCRBY and PEXPIRE of one lock), so most lookups are this one again. Every change of
   * `data` goes through `put` / `drop`, which keep it true.
   */
  private lastKey: string | null = null;
  private lastEntry: Entry | undefined = undefined;

  constructor(
    readonly nowMs: () => number,
    /** The clock in microseconds (TIME); by default the milliseconds' start. */
    readonly nowUs: () => number = () => nowMs() * 1000,
  ) {}

  get size(): number {
    return this.data.size;
  }

  /** The live entry for `key`, expiring it first if its deadline has passed. */
  lookup(key: string): Entry | undefined {
    const entry = this.get(key);
    if (entry === undefined) return undefined;
    if (entry.expireAtMs !== null && this.nowMs() > entry.expireAtMs) {
      if (this.deletesExpiredKeys) this.remove(key, 'expire', '');
      return undefined;
    }
    return entry;
  }

  /** Stores a new value; whoever writes a whole value becomes the key's holder. */
  write(key: string, value: StoredValue, expireAtMs: number | null, byTag: string): void {
    const before = this.lookup(key);
    const entry: Entry = { value, expireAtMs, holderTag: byTag };
    this.put(key, entry);
    this.emit(key, entry, 'write', byTag, before?.holderTag);
  }

  /**
   * Marks an in-place mutation of an existing entry (hash field change, counter). The writer
   * becomes the holder: a Redisson re-entry by a thread's next request is that request's lock.
   */
  touched(key: string, byTag: string): void {
    const entry = this.get(key);
    if (!entry) return;
    const previous = entry.holderTag;
    entry.holderTag = byTag;
    this.emit(key, entry, 'write', byTag, previous);
  }

  setExpire(key: string, expireAtMs: number | null, byTag: string): void {
    const entry = this.get(key);
    if (!entry) return;
    entry.expireAtMs = expireAtMs;
    if (expireAtMs !== null && this.nowMs() > expireAtMs && this.deletesExpiredKeys) {
      this.remove(key, 'expire', byTag);
      return;
    }
    this.emit(key, entry, 'ttl', byTag, entry.holderTag);
  }

  remove(key: string, cause: ChangeCause, byTag: string): boolean {
    const entry = this.get(key);
    if (!entry) return false;
    this.drop(key);
    this.emit(key, undefined, cause, byTag, entry.holderTag);
    return true;
  }

  /**
   * The live entry's holder `from` becomes `to`, with no change of the key's state (nothing
   * replicates: it is lock-sim's knowledge of who wrote it, not a write). The entry, or
   * undefined when the key is gone, expired or held by another.
   */
  reattribute(key: string, from: string, to: string): Entry | undefined {
    const entry = this.get(key);
    if (entry === undefined || entry.holderTag !== from) return undefined;
    if (entry.expireAtMs !== null && this.nowMs() > entry.expireAtMs) return undefined;
    entry.holderTag = to;
    return entry;
  }

  /** Raw access for replication and failover; bypasses expiry. */
  rawGet(key: string): Entry | undefined {
    return this.get(key);
  }

  rawSet(key: string, entry: Entry | undefined): void {
    const before = this.get(key);
    if (entry === undefined) this.drop(key);
    else this.put(key, entry);
    this.emit(key, entry, 'sync', entry?.holderTag ?? '', before?.holderTag);
  }

  /** Drops everything (a restart without persistence, or a full resync). */
  clear(): void {
    for (const key of [...this.data.keys()]) this.remove(key, 'sync', '');
  }

  keys(): string[] {
    return [...this.data.keys()];
  }

  /** data.get(key), the last key's entry without a lookup. */
  private get(key: string): Entry | undefined {
    if (key === this.lastKey) return this.lastEntry;
    const entry = this.data.get(key);
    this.lastKey = key;
    this.lastEntry = entry;
    return entry;
  }

  private put(key: string, entry: Entry): void {
    this.data.set(key, entry);
    this.lastKey = key;
    this.lastEntry = entry;
  }

  private drop(key: string): void {
    this.data.delete(key);
    this.lastKey = key;
    this.lastEntry = undefined;
  }

  private emit(
    key: string,
    entry: Entry | undefined,
    cause: ChangeCause,
    byTag: string,
    previousHolder: string | undefined,
  ): void {
    const onChange = this.onChange;
    if (onChange === null) return;
    const change = this.change;
    change.key = key;
    change.entry = entry;
    change.cause = cause;
    change.byTag = byTag;
    change.previousHolder = previousHolder;
    onChange(change);
  }
}

export function cloneEntry(entry: Entry): Entry {
  return { value: cloneValue(entry.value), expireAtMs: entry.expireAtMs, holderTag: entry.holderTag };
}

/** A copy of a value that shares nothing mutable with it, its encoding kept. */
function cloneValue(v: StoredValue): StoredValue {
  if (typeof v === 'string') return v;
  if (v instanceof Map) {
    const copy = new Map(v);
    if (HASHTABLE_HASHES.has(v)) HASHTABLE_HASHES.add(copy);
    return copy;
  }
  if (v instanceof RedisList) return new RedisList([...v.items]);
  if (v instanceof RedisSet) return new RedisSet(new Set(v.members), v.intset);
  return new RedisZset(v.entries.map((e) => ({ member: e.member, score: e.score })), v.listpack);
}
