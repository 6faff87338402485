/**
 * Hash commands as redis 7.0.15 runs them (src/t_hash.c): HSET / HMSET, HSETNX, HGET, HMGET,
 * HGETALL, HKEYS, HVALS, HLEN, HSTRLEN, HEXISTS, HINCRBY, HDEL. A hash is a Map in insertion
 * order, which is a listpack's order; one converted to a hashtable (collection-values.ts
 * HASHTABLE_HASHES) answers HGETALL / HKEYS / HVALS in that order still, where Redis follows
 * its dict (test/conformance compares those replies as sets).
 */
import type { Keyspace } from './keyspace.js';
import {
  ERR_NOT_INTEGER,
  ERR_OVERFLOW,
  ERR_WRONGTYPE,
  INT64_MAX,
  INT64_MIN,
  integerReply,
  parseInt64,
  RedisErrorReply,
  type RedisReply,
  wrongArgs,
} from './reply.js';
import type { CommandDef, Handler } from './command-def.js';
import { HASHTABLE_HASHES, HASH_MAX_LISTPACK_ENTRIES, HASH_MAX_LISTPACK_VALUE, longerThanBytes } from './collection-values.js';

/** A canonical integer of at most 12 digits (string2ll's syntax), exact as a double with room to spare. */
const SMALL_INT = /^(0|-?[1-9][0-9]{0,11})$/;

function hashOf(ks: Keyspace, key: string): Map<string, string> | undefined | RedisErrorReply {
  const e = ks.lookup(key);
  if (e === undefined) return undefined;
  return e.value instanceof Map ? e.value : ERR_WRONGTYPE;
}

/**
 * t_hash.c hashTypeTryConversion (HSET, HMSET, HSETNX): a field or value over 64 bytes among
 * the arguments makes a listpack hash a hashtable, before anything is written.
 */
function convertForValues(hash: Map<string, string>, args: readonly string[], from: number, to = args.length): void {
  for (let i = from; i < to; i++) {
    if (longerThanBytes(args[i], HASH_MAX_LISTPACK_VALUE)) {
      HASHTABLE_HASHES.add(hash);
      return;
    }
  }
}

/** t_hash.c hashTypeSet: a listpack hash with more than 512 fields becomes a hashtable. */
function convertForSize(hash: Map<string, string>): void {
  if (hash.size > HASH_MAX_LISTPACK_ENTRIES) HASHTABLE_HASHES.add(hash);
}

/**
 * t_hash.c hsetCommand: an odd field/value list is an arity error (after the type check of
 * the declared arity, before the key's type); replies the number of new fields. Field order is
 * insertion order, as Redis's listpack keeps it for small hashes (a hash that outgrows
 * hash-max-listpack-entries 512 / -value 64 bytes becomes a hashtable in Redis, whose order
 * the model does not follow).
 */
function hset(ks: Keyspace, args: readonly string[], tag: string, command = 'hset'): RedisReply {
  if (args.length % 2 === 1) return wrongArgs(command);
  const h = hashOf(ks, args[1]);
  if (h instanceof RedisErrorReply) return h;
  const hash = h ?? new Map<string, string>();
  convertForValues(hash, args, 2);
  let added = 0;
  for (let i = 2; i < args.length; i += 2) {
    if (!hash.has(args[i])) added++;
    hash.set(args[i], args[i + 1]);
  }
  if (added > 0) convertForSize(hash);
  if (h === undefined) ks.write(args[1], hash, null, tag);
  else ks.touched(args[1], tag);
  return added;
}

/** t_hash.c hsetnxCommand: 0 when the field exists, else set it and 1. */
function hsetnx(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  const h = hashOf(ks, args[1]);
  if (h instanceof RedisErrorReply) return h;
  if (h?.has(args[2])) return 0;
  const hash = h ?? new Map<string, string>();
  convertForValues(hash, args, 2);
  hash.set(args[2], args[3]);
  convertForSize(hash);
  if (h === undefined) ks.write(args[1], hash, null, tag);
  else ks.touched(args[1], tag);
  return 1;
}

/**
 * t_hash.c hincrbyCommand: the increment is read first ("value is not an integer or out of
 * range"), then the key's type, then the field ("hash value is not an integer"), then the
 * 64-bit overflow check ("increment or decrement would overflow").
 */
function hincrby(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  const byText = args[3];
  const smallBy = SMALL_INT.test(byText);
  const by = smallBy ? null : parseInt64(byText);
  if (!smallBy && by === null) return ERR_NOT_INTEGER;
  const h = hashOf(ks, args[1]);
  if (h instanceof RedisErrorReply) return h;
  const hash = h ?? new Map<string, string>();
  const stored = hash.get(args[2]);
  // Fast path, same rules: two integers of at most 12 digits (SMALL_INT) cannot overflow, and
  // a safe integer prints as its bigint does.
  // t_hash.c hashTypeSet: a new field over 64 bytes makes a listpack a hashtable (an existing
  // field of a listpack is no longer than that).
  if (stored === undefined && args[2].length > 21) convertForValues(hash, args, 2, 3);
  if (smallBy && (stored === undefined || SMALL_INT.test(stored))) {
    const small = (stored === undefined ? 0 : Number(stored)) + Number(byText);
    hash.set(args[2], String(small));
    if (stored === undefined) convertForSize(hash);
    if (h === undefined) ks.write(args[1], hash, null, tag);
    else ks.touched(args[1], tag);
    return small;
  }
  const before = stored === undefined ? 0n : parseInt64(stored);
  if (before === null) return new RedisErrorReply('ERR hash value is not an integer');
  const next = before + (by ?? BigInt(byText));
  if (next > INT64_MAX || next < INT64_MIN) return ERR_OVERFLOW;
  hash.set(args[2], String(next));
  if (stored === undefined) convertForSize(hash);
  if (h === undefined) ks.write(args[1], hash, null, tag);
  else ks.touched(args[1], tag);
  return integerReply(next);
}

/** t_hash.c hdelCommand: the hash goes when its last field does. */
function hdel(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  const h = hashOf(ks, args[1]);
  if (h instanceof RedisErrorReply) return h;
  if (h === undefined) return 0;
  let n = 0;
  for (let i = 2; i < args.length; i++) if (h.delete(args[i])) n++;
  if (h.size === 0) ks.remove(args[1], 'delete', tag);
  else if (n > 0) ks.touched(args[1], tag);
  return n;
}

/** t_hash.c hmgetCommand: nil for each field of a missing key; WRONGTYPE for another type. */
const hmget: Handler = (ks, args) => {
  const h = hashOf(ks, args[1]);
  if (h instanceof RedisErrorReply) return h;
  const out: RedisReply[] = [];
  for (let i = 2; i < args.length; i++) out.push(h?.get(args[i]) ?? null);
  return out;
};

/** t_hash.c hstrlenCommand: the value's length in bytes, 0 for a missing key or field. */
const hstrlen: Handler = (ks, args) => {
  const h = hashOf(ks, args[1]);
  if (h instanceof RedisErrorReply) return h;
  const v = h?.get(args[2]);
  return v === undefined ? 0 : Buffer.byteLength(v);
};

/** t_hash.c genericHgetallCommand: fields, values, or both. */
const hgetallOf = (fields: boolean, values: boolean): Handler => (ks, args) => {
  const h = hashOf(ks, args[1]);
  if (h instanceof RedisErrorReply) return h;
  if (h === undefined) return [];
  if (fields && values) return [...h].flat();
  return fields ? [...h.keys()] : [...h.values()];
};

/** Arity and flags from redis 7.0.15 src/commands/<name>.json. */
export const HASH_COMMANDS: readonly CommandDef[] = [
  ['hset', -4, 'w', (ks, args, tag) => hset(ks, args, tag)],
  ['hmset', -4, 'w', (ks, args, tag) => {
    const r = hset(ks, args, tag, 'hmset');
    return r instanceof RedisErrorReply ? r : 'OK';
  }],
  ['hsetnx', 4, 'w', hsetnx],
  // Hash reads: WRONGTYPE on another type, else the answer (no closure per call: HEXISTS is in
  // every Redisson script).
  ['hget', 3, '', (ks, args) => {
    const h = hashOf(ks, args[1]);
    return h instanceof RedisErrorReply ? h : (h?.get(args[2]) ?? null);
  }],
  ['hmget', -3, '', hmget],
  ['hgetall', 2, '', hgetallOf(true, true)],
  ['hkeys', 2, '', hgetallOf(true, false)],
  ['hvals', 2, '', hgetallOf(false, true)],
  ['hlen', 2, '', (ks, args) => {
    const h = hashOf(ks, args[1]);
    return h instanceof RedisErrorReply ? h : (h?.size ?? 0);
  }],
  ['hstrlen', 3, '', hstrlen],
  ['hexists', 3, '', (ks, args) => {
    const h = hashOf(ks, args[1]);
    return h instanceof RedisErrorReply ? h : h?.has(args[2]) ? 1 : 0;
  }],
  ['hincrby', 4, 'w', hincrby],
  ['hdel', -3, 'w', hdel],
];
