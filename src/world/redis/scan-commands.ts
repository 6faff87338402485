/**
 * KEYS, SCAN, HSCAN, SSCAN, ZSCAN as redis 7.0.15 answers them (src/db.c keysCommand,
 * scanGenericCommand, parseScanCursorOrReply; t_hash.c hscanCommand, t_set.c sscanCommand,
 * t_zset.c zscanCommand).
 *
 * A value in a compact encoding (a listpack hash or sorted set, an intset: collection-values.ts) is
 * answered whole, in its order, with cursor 0, whatever COUNT says, exactly as Redis does. A
 * hashtable (the keyspace, and the large values) is walked by a cursor over a hash of each
 * element, as Redis walks its buckets: a call takes whole hash groups until COUNT elements are
 * collected, then filters them (MATCH, TYPE, expired keys), so a call may answer fewer than
 * COUNT, even none, with a cursor that is not 0; and an element present for the whole walk is
 * answered exactly once, one added or removed meanwhile maybe. The order is the model's own:
 * Redis's follows its dict's hash seed, drawn at server start (test/conformance compares those
 * replies as sets).
 */
import type { Keyspace, StoredValue } from './keyspace.js';
import { ERR_NOT_INTEGER, ERR_SYNTAX, ERR_WRONGTYPE, parseInt64, RedisErrorReply, type RedisReply } from './reply.js';
import { HASHTABLE_HASHES, RedisList, RedisSet, RedisZset } from './collection-values.js';
import type { CommandDef, Handler } from './command-def.js';
import { globMatch } from './glob.js';
import { d2string, replyDouble } from './float.js';
import { setMembers } from './set-commands.js';

/** FNV-1a over the UTF-16 code units: the model's bucket of an element (any fixed hash would do). */
function bucketOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** db.c getObjectTypeName. */
export function typeName(v: StoredValue | undefined): string {
  if (v === undefined) return 'none';
  if (typeof v === 'string') return 'string';
  if (v instanceof Map) return 'hash';
  if (v instanceof RedisList) return 'list';
  if (v instanceof RedisSet) return 'set';
  return 'zset';
}

/** Elements in the model's hash order (bucket, then the element's text). */
function hashOrder(elements: Iterable<string>): Array<{ element: string; bucket: number }> {
  const out = [...elements].map((element) => ({ element, bucket: bucketOf(element) }));
  out.sort((a, b) => a.bucket - b.bucket || (a.element < b.element ? -1 : a.element > b.element ? 1 : 0));
  return out;
}

/** The elements of one cursor step: whole buckets from `cursor` on until `count`; the next cursor (0: done). */
function step(elements: Iterable<string>, cursor: bigint, count: number): { taken: string[]; next: bigint } {
  const ordered = hashOrder(elements);
  const taken: string[] = [];
  let i = ordered.findIndex((e) => BigInt(e.bucket) >= cursor);
  if (i < 0) return { taken, next: 0n };
  while (i < ordered.length && taken.length < count) {
    const bucket = ordered[i].bucket;
    while (i < ordered.length && ordered[i].bucket === bucket) taken.push(ordered[i++].element);
  }
  return { taken, next: i < ordered.length ? BigInt(ordered[i].bucket) : 0n };
}

const ULONG_MAX = 18446744073709551615n;

/** db.c parseScanCursorOrReply: strtoul (a sign allowed, "-1" wraps), no leading white space, nothing after, no overflow. */
function parseCursor(s: string): bigint | RedisErrorReply {
  const bad = new RedisErrorReply('ERR invalid cursor');
  if (s.length > 0 && /^\s/.test(s)) return bad;
  const m = /^([+-]?)([0-9]*)$/.exec(s);
  if (m === null) return bad;
  if (m[2] === '') return m[1] === '' ? 0n : bad;
  const n = BigInt(m[2]);
  if (n > ULONG_MAX) return bad;
  return m[1] === '-' && n !== 0n ? ULONG_MAX + 1n - n : n;
}

interface ScanOptions {
  count: number;
  pattern: string | null;
  type: string | null;
}

/** db.c scanGenericCommand step 1: COUNT (an integer >= 1), MATCH, TYPE (SCAN only), each with its argument. */
function parseOptions(args: readonly string[], from: number, keyspaceScan: boolean): ScanOptions | RedisErrorReply {
  const o: ScanOptions = { count: 10, pattern: null, type: null };
  for (let i = from; i < args.length; i += 2) {
    const opt = args[i].toLowerCase();
    const hasArg = i + 1 < args.length;
    if (opt === 'count' && hasArg) {
      const n = parseInt64(args[i + 1]);
      if (n === null) return ERR_NOT_INTEGER;
      if (n < 1n) return ERR_SYNTAX;
      o.count = Number(n);
    } else if (opt === 'match' && hasArg) {
      o.pattern = args[i + 1] === '*' ? null : args[i + 1];
    } else if (opt === 'type' && keyspaceScan && hasArg) {
      o.type = args[i + 1];
    } else return ERR_SYNTAX;
  }
  return o;
}

const matches = (o: ScanOptions, s: string): boolean => o.pattern === null || globMatch(o.pattern, s);

/** SCAN cursor [MATCH pattern] [COUNT n] [TYPE type]: keys of another type and expired keys are left out (the expired ones deleted). */
const scan: Handler = (ks, args) => {
  const cursor = parseCursor(args[1]);
  if (cursor instanceof RedisErrorReply) return cursor;
  const o = parseOptions(args, 2, true);
  if (o instanceof RedisErrorReply) return o;
  const { taken, next } = step(ks.keys(), cursor, o.count);
  const out: string[] = [];
  for (const key of taken) {
    if (!matches(o, key)) continue;
    const e = ks.lookup(key);
    if (o.type !== null && typeName(e?.value).toLowerCase() !== o.type.toLowerCase()) continue;
    if (e === undefined) continue;
    out.push(key);
  }
  return [String(next), out];
};

/** The value at `key` for xSCAN, or the reply when missing (["0", []]) or of another type. */
function scanned(ks: Keyspace, args: readonly string[], is: (v: StoredValue) => boolean): StoredValue | RedisReply {
  const e = ks.lookup(args[1]);
  if (e === undefined) return ['0', []];
  return is(e.value) ? e.value : ERR_WRONGTYPE;
}

/** HSCAN / SSCAN / ZSCAN key cursor [MATCH pattern] [COUNT n]: the cursor, then the key, then the options. */
const xscan = (kind: 'hash' | 'set' | 'zset'): Handler => (ks, args) => {
  const cursor = parseCursor(args[2]);
  if (cursor instanceof RedisErrorReply) return cursor;
  const is = (v: StoredValue): boolean => (kind === 'hash' ? v instanceof Map : kind === 'set' ? v instanceof RedisSet : v instanceof RedisZset);
  const value = scanned(ks, args, is);
  if (!is(value as StoredValue)) return value as RedisReply;
  const o = parseOptions(args, 3, false);
  if (o instanceof RedisErrorReply) return o;
  const out: string[] = [];
  if (value instanceof Map) {
    const hashtable = HASHTABLE_HASHES.has(value);
    const { taken, next } = hashtable ? step(value.keys(), cursor, o.count) : { taken: [...value.keys()], next: 0n };
    for (const f of taken) if (matches(o, f)) out.push(f, value.get(f) as string);
    return [String(next), out];
  }
  if (value instanceof RedisSet) {
    const { taken, next } = value.intset ? { taken: setMembers(value), next: 0n } : step(value.members, cursor, o.count);
    for (const m of taken) if (matches(o, m)) out.push(m);
    return [String(next), out];
  }
  const z = value as RedisZset;
  if (z.listpack) {
    // The listpack holds each score as util.c d2string wrote it.
    for (const e of z.entries) if (matches(o, e.member)) out.push(e.member, d2string(e.score));
    return ['0', out];
  }
  const { taken, next } = step(z.scores.keys(), cursor, o.count);
  // db.c scanCallback: createStringObjectFromLongDouble(score, 0), "%.17Lg".
  for (const m of taken) if (matches(o, m)) out.push(m, replyDouble(z.scores.get(m) as number));
  return [String(next), out];
};

/** db.c keysCommand: every key that matches and is not expired (expired keys are skipped, not deleted). */
const keys: Handler = (ks, args) => {
  const now = ks.nowMs();
  const out: string[] = [];
  for (const { element } of hashOrder(ks.keys())) {
    const e = ks.rawGet(element);
    if (e === undefined || (e.expireAtMs !== null && now > e.expireAtMs)) continue;
    if (globMatch(args[1], element)) out.push(element);
  }
  return out;
};

/** Arity and flags from redis 7.0.15 src/commands/<name>.json. */
export const SCAN_COMMANDS: readonly CommandDef[] = [
  ['keys', 2, 'k', keys],
  ['scan', -2, 'k', scan],
  ['hscan', -3, '', xscan('hash')],
  ['sscan', -3, '', xscan('set')],
  ['zscan', -3, '', xscan('zset')],
];
