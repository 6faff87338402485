/**
 * The string and key commands a lock library sends beyond SET / GET / DEL (commands.ts): SETEX,
 * PSETEX, GETSET, GETDEL, GETEX, MGET, STRLEN, INCRBY / DECR / DECRBY, PERSIST, EXPIRETIME /
 * PEXPIRETIME, UNLINK, ECHO. Semantics, argument checks and error texts follow redis 7.0.15
 * (src/t_string.c, expire.c, db.c); test/conformance/edges.test.ts runs each on the model and
 * on a real redis-server 7.0.15.
 */
import type { Keyspace } from './keyspace.js';
import { ERR_NOT_INTEGER, ERR_OVERFLOW, ERR_SYNTAX, ERR_WRONGTYPE, INT64_MAX, INT64_MIN, integerReply, invalidExpire, parseInt64, RedisErrorReply, type RedisReply } from './reply.js';

type Handler = (ks: Keyspace, args: readonly string[], tag: string) => RedisReply;

/** An expiry argument as t_string.c getExpireMillisecondsOrReply reads it: absolute ms, or the error for `command`. */
function deadline(ks: Keyspace, arg: string, seconds: boolean, absolute: boolean, command: string): number | RedisErrorReply {
  const n = parseInt64(arg);
  if (n === null) return ERR_NOT_INTEGER;
  if (n <= 0n || (seconds && n > INT64_MAX / 1000n)) return invalidExpire(command);
  let ms = seconds ? n * 1000n : n;
  if (!absolute) ms += BigInt(ks.nowMs());
  if (ms > INT64_MAX) return invalidExpire(command);
  return Number(ms);
}

function stringOf(ks: Keyspace, key: string): string | null | RedisErrorReply {
  const e = ks.lookup(key);
  if (e === undefined) return null;
  return typeof e.value === 'string' ? e.value : ERR_WRONGTYPE;
}

/** t_string.c setexCommand / psetexCommand: SET key value EX|PX n, the number checked first. */
const setex = (seconds: boolean, command: string): Handler => (ks, args, tag) => {
  const at = deadline(ks, args[2], seconds, false, command);
  if (at instanceof RedisErrorReply) return at;
  ks.write(args[1], args[3], at, tag);
  return 'OK';
};

/** t_string.c getsetCommand: the old value (WRONGTYPE on another type, and nothing written), the new one without TTL. */
const getset: Handler = (ks, args, tag) => {
  const old = stringOf(ks, args[1]);
  if (old instanceof RedisErrorReply) return old;
  ks.write(args[1], args[2], null, tag);
  return old;
};

/** t_string.c getdelCommand: the value, then the key is deleted. */
const getdel: Handler = (ks, args, tag) => {
  const old = stringOf(ks, args[1]);
  if (old instanceof RedisErrorReply || old === null) return old;
  ks.remove(args[1], 'delete', tag);
  return old;
};

/**
 * t_string.c getexCommand: options EX / PX / EXAT / PXAT (with a number) and PERSIST, one of
 * them at most (else a syntax error); then the key: nil when missing, WRONGTYPE for another
 * type, both before the number is read (measured on redis-server 7.0.15: GETEX nokey PX abc is
 * nil); a deadline already passed deletes the key (the value is still answered); PERSIST
 * removes the TTL.
 */
const getex: Handler = (ks, args, tag) => {
  let unit: string | null = null;
  let arg = '';
  let persist = false;
  for (let j = 2; j < args.length; j++) {
    const opt = args[j].toLowerCase();
    const hasNext = j < args.length - 1;
    if ((opt === 'ex' || opt === 'px' || opt === 'exat' || opt === 'pxat') && unit === null && !persist && hasNext) {
      unit = opt;
      arg = args[++j];
    } else if (opt === 'persist' && unit === null && !persist) persist = true;
    else return ERR_SYNTAX;
  }
  const value = stringOf(ks, args[1]);
  if (value === null || value instanceof RedisErrorReply) return value;
  let at: number | null = null;
  if (unit !== null) {
    const d = deadline(ks, arg, unit === 'ex' || unit === 'exat', unit === 'exat' || unit === 'pxat', 'getex');
    if (d instanceof RedisErrorReply) return d;
    at = d;
  }
  if (at !== null) {
    if (at <= ks.nowMs() && ks.deletesExpiredKeys) ks.remove(args[1], 'delete', tag);
    else ks.setExpire(args[1], at, tag);
  } else if (persist && ks.lookup(args[1])!.expireAtMs !== null) ks.setExpire(args[1], null, tag);
  return value;
};

/** t_string.c mgetCommand: nil for a missing key or one of another type (no WRONGTYPE). */
const mget: Handler = (ks, args) => {
  const out: RedisReply[] = [];
  for (let i = 1; i < args.length; i++) {
    const v = stringOf(ks, args[i]);
    out.push(v instanceof RedisErrorReply ? null : v);
  }
  return out;
};

/** t_string.c strlenCommand: bytes of the value, 0 for a missing key. */
const strlen: Handler = (ks, args) => {
  const v = stringOf(ks, args[1]);
  if (v instanceof RedisErrorReply) return v;
  return v === null ? 0 : Buffer.byteLength(v);
};

/** t_string.c incrDecrCommand with an increment: the key keeps its TTL; overflow past 64 bits is an error. */
function incrBy(ks: Keyspace, key: string, by: bigint, tag: string): RedisReply {
  const e = ks.lookup(key);
  if (e !== undefined && typeof e.value !== 'string') return ERR_WRONGTYPE;
  const current = e === undefined ? 0n : parseInt64(e.value as string);
  if (current === null) return ERR_NOT_INTEGER;
  const next = current + by;
  if (next > INT64_MAX || next < INT64_MIN) return ERR_OVERFLOW;
  if (e === undefined) ks.write(key, String(next), null, tag);
  else {
    e.value = String(next);
    ks.touched(key, tag);
  }
  return integerReply(next);
}

const incrby = (sign: 1n | -1n, command: 'incrby' | 'decrby'): Handler => (ks, args, tag) => {
  const n = parseInt64(args[2]);
  if (n === null) return ERR_NOT_INTEGER;
  // t_string.c decrbyCommand: LLONG_MIN cannot be negated.
  if (command === 'decrby' && n === INT64_MIN) return new RedisErrorReply('ERR decrement would overflow');
  return incrBy(ks, args[1], sign * n, tag);
};

/** expire.c persistCommand: 1 when a TTL was removed, else 0. */
const persist: Handler = (ks, args, tag) => {
  const e = ks.lookup(args[1]);
  if (e === undefined || e.expireAtMs === null) return 0;
  ks.setExpire(args[1], null, tag);
  return 1;
};

/**
 * expire.c ttlGenericCommand with output_abs: -2 missing, -1 no TTL, else the deadline; in
 * seconds rounded to the nearest, (ms + 500) / 1000 as for TTL (measured on redis-server
 * 7.0.15: PXAT ...789700 answers EXPIRETIME ...790, PXAT ...789300 answers ...789).
 */
const expiretime = (ms: boolean): Handler => (ks, args) => {
  const e = ks.lookup(args[1]);
  if (e === undefined) return -2;
  if (e.expireAtMs === null) return -1;
  return ms ? e.expireAtMs : Math.floor((e.expireAtMs + 500) / 1000);
};

export const STRING_HANDLERS: ReadonlyArray<[string, Handler]> = [
  ['setex', setex(true, 'setex')],
  ['psetex', setex(false, 'psetex')],
  ['getset', getset],
  ['getdel', getdel],
  ['getex', getex],
  ['mget', mget],
  ['strlen', strlen],
  ['incrby', incrby(1n, 'incrby')],
  ['decrby', incrby(-1n, 'decrby')],
  ['decr', (ks, args, tag) => incrBy(ks, args[1], -1n, tag)],
  ['persist', persist],
  ['expiretime', expiretime(false)],
  ['pexpiretime', expiretime(true)],
  // db.c unlinkCommand: DEL, the memory freed in the background.
  ['echo', (_ks, args) => args[1]],
];

/** Arity and WRITE flag from redis 7.0.15 src/commands/<name>.json. */
export const STRING_SPECS: ReadonlyArray<[string, number, boolean]> = [
  ['setex', 4, true], ['psetex', 4, true], ['getset', 3, true], ['getdel', 2, true], ['getex', -2, true],
  ['mget', -2, false], ['strlen', 2, false], ['incrby', 3, true], ['decrby', 3, true], ['decr', 2, true],
  ['persist', 2, true], ['expiretime', 2, false], ['pexpiretime', 2, false], ['unlink', -2, true], ['echo', 2, false],
];
