/**
 * The value types of a key beyond strings and hashes: lists, sets and sorted sets, with the
 * encodings redis 7.0.15 reports for them (OBJECT ENCODING) and that decide what HSCAN /
 * SSCAN / ZSCAN answer in one go (db.c scanGenericCommand: a listpack or an intset is returned
 * whole, cursor 0).
 *
 * - A list is a quicklist in 7.0 (t_list.c createQuicklistObject; the listpack encoding of small
 *   lists came with 7.2).
 * - A set starts as an intset when its first member is a canonical 64-bit integer (t_set.c
 *   setTypeCreate, isSdsRepresentableAsLongLong), and becomes a hashtable for good when a member
 *   that is not one is added or it outgrows set-max-intset-entries 512 (setTypeAdd).
 * - A sorted set is a listpack until it outgrows zset-max-listpack-entries 128 or a member is
 *   longer than zset-max-listpack-value 64 bytes, then a skiplist for good (t_zset.c zsetAdd,
 *   zaddGenericCommand). Members are ordered by score, then bytewise (zslInsert, sdscmp).
 * - A hash (a Map, hash-commands.ts) is a listpack until it has more than
 *   hash-max-listpack-entries 512 fields or a field or value longer than hash-max-listpack-value
 *   64 bytes is written (t_hash.c hashTypeTryConversion, hashTypeSet), then a hashtable for good:
 *   HASHTABLE_HASHES holds the converted ones.
 * - A listpack stores a score that is a whole number within +-2^62 as an integer (t_zset.c
 *   zzlInsertAt, util.c double2ll), so -0 becomes 0 there; a skiplist keeps the double.
 */

/**
 * set-max-intset-entries, zset-max-listpack-entries / -value, hash-max-listpack-entries / -value:
 * redis 7.0.15 config.c defaults, what a server started without a config file uses (the
 * redis.conf shipped with Redis sets hash-max-listpack-entries 128; a server started with it
 * converts hashes sooner).
 */
export const SET_MAX_INTSET_ENTRIES = 512;
export const ZSET_MAX_LISTPACK_ENTRIES = 128;
export const ZSET_MAX_LISTPACK_VALUE = 64;
export const HASH_MAX_LISTPACK_ENTRIES = 512;
export const HASH_MAX_LISTPACK_VALUE = 64;

export class RedisList {
  constructor(readonly items: string[] = []) {}
}

export class RedisSet {
  constructor(
    readonly members: Set<string> = new Set(),
    /** Encoded as an intset (every member a canonical integer, at most 512 of them). */
    public intset = true,
  ) {}
}

/** One member of a sorted set. */
export interface ZEntry {
  member: string;
  score: number;
}

export class RedisZset {
  /** Members in order: by score, then bytewise. */
  readonly entries: ZEntry[];
  /** Each member's score. */
  readonly scores: Map<string, number>;
  constructor(
    entries: ZEntry[] = [],
    /** Encoded as a listpack (small); a skiplist otherwise. */
    public listpack = true,
  ) {
    this.entries = entries;
    this.scores = new Map(entries.map((e) => [e.member, e.score]));
  }

  /** Where `member` with `score` sits (or would sit) in `entries`. */
  private position(member: string, score: number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = this.entries[mid];
      if (e.score < score || (e.score === score && compareBytes(e.member, member) < 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds a member that is not in the set, or moves one to its new score. */
  set(member: string, scoreIn: number): void {
    // A listpack keeps -0 as the integer 0 (see above).
    const score = this.listpack && scoreIn === 0 ? 0 : scoreIn;
    const old = this.scores.get(member);
    if (old !== undefined) this.entries.splice(this.position(member, old), 1);
    this.entries.splice(this.position(member, score), 0, { member, score });
    this.scores.set(member, score);
  }

  delete(member: string): boolean {
    const old = this.scores.get(member);
    if (old === undefined) return false;
    this.entries.splice(this.position(member, old), 1);
    this.scores.delete(member);
    return true;
  }

  /** 0-based rank of `member` from the lowest score, or -1. */
  rank(member: string): number {
    const score = this.scores.get(member);
    return score === undefined ? -1 : this.position(member, score);
  }

  /** Removes entries [from, to) and forgets their members. */
  removeRange(from: number, to: number): number {
    const gone = this.entries.splice(from, Math.max(0, to - from));
    for (const e of gone) this.scores.delete(e.member);
    return gone.length;
  }

  get size(): number {
    return this.entries.length;
  }
}

/**
 * Hashes converted to the hashtable encoding (see above). A hash is a plain Map (the hot
 * Redisson scripts work on it); the conversion is rare and sticky, so it is noted here.
 */
export const HASHTABLE_HASHES = new WeakSet<Map<string, string>>();

/**
 * sdscmp / memcmp order of two strings as their UTF-8 bytes compare: UTF-16 code units compare
 * as code points do, except a surrogate (a code point above U+FFFF) against U+E000..U+FFFF.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca >= 0xd800 && cb >= 0xd800) {
      ca = ca >= 0xe000 ? ca - 0x800 : ca + 0x2000;
      cb = cb >= 0xe000 ? cb - 0x800 : cb + 0x2000;
    }
    return ca < cb ? -1 : 1;
  }
  return a.length - b.length;
}

/** The UTF-8 length of `s` exceeds `limit` bytes (without encoding short strings). */
export function longerThanBytes(s: string, limit: number): boolean {
  if (s.length > limit) return true;
  if (s.length * 3 <= limit) return false;
  return Buffer.byteLength(s) > limit;
}

/** A canonical 64-bit integer (util.c string2ll; what an intset or a listpack integer holds). */
const CANONICAL_INT = /^(0|-?[1-9][0-9]{0,18})$/;
export function isInt64Text(s: string): boolean {
  if (!CANONICAL_INT.test(s)) return false;
  if (s.length < 19) return true;
  const n = BigInt(s);
  return n <= 9223372036854775807n && n >= -9223372036854775808n;
}
