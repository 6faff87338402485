/**
 * The Redis commands lock-sim's variants use, executed against one keyspace at one instant.
 * Semantics follow Redis 7 (db.c expireIfNeeded, t_string.c, expire.c at 7.0.15; TTLs replicated as
 * absolute times since 7.0, redis/redis#8474); the differential
 * test in test/world/redis checks them against ioredis-mock.
 *
 * Commands that need the node beyond its keyspace (PUBLISH, WAIT, EVAL) are handled by
 * RedisNode; this module is the pure keyspace part.
 */
import type { Keyspace } from './keyspace.js';
import {
  ERR_NOT_INTEGER,
  ERR_SYNTAX,
  ERR_WRONGTYPE,
  invalidExpire,
  parseInteger,
  RedisErrorReply,
  type RedisReply,
  wrongArgs,
} from './reply.js';

/** Commands that change data; a replica refuses them from clients (READONLY). */
export const WRITE_COMMANDS = new Set([
  'SET', 'SETNX', 'EXPIRE', 'PEXPIRE', 'PEXPIREAT', 'DEL', 'INCR', 'HSET', 'HINCRBY', 'HDEL',
]);

export function executeKeyspaceCommand(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  const name = args[0].toUpperCase();
  switch (name) {
    case 'PING':
      return 'PONG';
    case 'GET':
      return get(ks, args);
    case 'SET':
      return set(ks, args, tag);
    case 'SETNX':
      if (args.length !== 3) return wrongArgs(name);
      return set(ks, ['SET', args[1], args[2], 'NX'], tag) === null ? 0 : 1;
    case 'EXPIRE':
      return expire(ks, args, tag, 1000, false);
    case 'PEXPIRE':
      return expire(ks, args, tag, 1, false);
    case 'PEXPIREAT':
      return expire(ks, args, tag, 1, true);
    case 'PTTL':
      return pttl(ks, args);
    case 'DEL': {
      if (args.length < 2) return wrongArgs(name);
      let n = 0;
      for (let i = 1; i < args.length; i++) {
        if (ks.lookup(args[i]) !== undefined && ks.remove(args[i], 'delete', tag)) n++;
      }
      return n;
    }
    case 'EXISTS': {
      if (args.length < 2) return wrongArgs(name);
      let n = 0;
      for (let i = 1; i < args.length; i++) if (ks.lookup(args[i]) !== undefined) n++;
      return n;
    }
    case 'INCR':
      return incr(ks, args, tag);
    case 'HSET':
      return hset(ks, args, tag);
    case 'HGET': {
      if (args.length !== 3) return wrongArgs(name);
      const h = hashOf(ks, args[1]);
      if (h instanceof RedisErrorReply) return h;
      return h?.get(args[2]) ?? null;
    }
    case 'HINCRBY':
      return hincrby(ks, args, tag);
    case 'HEXISTS': {
      if (args.length !== 3) return wrongArgs(name);
      const h = hashOf(ks, args[1]);
      if (h instanceof RedisErrorReply) return h;
      return h?.has(args[2]) ? 1 : 0;
    }
    case 'HDEL':
      return hdel(ks, args, tag);
    default:
      return unknownCommand(args);
  }
}

/**
 * redis 7.0.15 server.c processCommand: "unknown command '<name>', with args beginning with: "
 * then each argument quoted and followed by a space (Redis stops after 128 characters of them;
 * lock-sim's commands are far shorter).
 */
function unknownCommand(args: readonly string[]): RedisErrorReply {
  const quoted = args.slice(1).map((a) => `'${a}' `).join('');
  return new RedisErrorReply(`ERR unknown command '${args[0]}', with args beginning with: ${quoted}`);
}

function get(ks: Keyspace, args: readonly string[]): RedisReply {
  if (args.length !== 2) return wrongArgs('GET');
  const e = ks.lookup(args[1]);
  if (e === undefined) return null;
  return typeof e.value === 'string' ? e.value : ERR_WRONGTYPE;
}

function set(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  if (args.length < 3) return wrongArgs('SET');
  const [, key, value] = args;
  let nx = false;
  let xx = false;
  let keepTtl = false;
  // redis 7.0.15 t_string.c parseExtendedStringArgumentsOrReply: an expiry option excludes the
  // other three and KEEPTTL, but may be repeated (the last one counts); its number is read
  // after every option has been parsed (getExpireMillisecondsOrReply), so a syntax error wins.
  let expire: { opt: string; arg: string } | null = null;
  for (let i = 3; i < args.length; i++) {
    const opt = args[i].toUpperCase();
    if (opt === 'NX' && !xx) nx = true;
    else if (opt === 'XX' && !nx) xx = true;
    else if (opt === 'KEEPTTL' && expire === null) keepTtl = true;
    else if (EXPIRE_OPTIONS.has(opt) && (expire === null || expire.opt === opt) && !keepTtl && i + 1 < args.length) {
      expire = { opt, arg: args[++i] };
    } else return ERR_SYNTAX;
  }
  let expireAtMs: number | null = null;
  if (expire !== null) {
    const n = parseInteger(expire.arg);
    if (n === null) return ERR_NOT_INTEGER;
    if (n <= 0) return invalidExpire('set');
    if (expire.opt === 'EX') expireAtMs = ks.nowMs() + n * 1000;
    else if (expire.opt === 'PX') expireAtMs = ks.nowMs() + n;
    else if (expire.opt === 'EXAT') expireAtMs = n * 1000;
    else expireAtMs = n;
  }
  const existing = ks.lookup(key);
  if (nx && existing !== undefined) return null;
  if (xx && existing === undefined) return null;
  if (keepTtl && existing !== undefined) expireAtMs = existing.expireAtMs;
  ks.write(key, value, expireAtMs, tag);
  return 'OK';
}

const EXPIRE_OPTIONS = new Set(['EX', 'PX', 'EXAT', 'PXAT']);

function expire(ks: Keyspace, args: readonly string[], tag: string, unitMs: number, absolute: boolean): RedisReply {
  if (args.length !== 3) return wrongArgs(args[0]);
  const n = parseInteger(args[2]);
  if (n === null) return ERR_NOT_INTEGER;
  const e = ks.lookup(args[1]);
  if (e === undefined) return 0;
  const deadline = (absolute ? 0 : ks.nowMs()) + n * unitMs;
  // A deadline already reached deletes the key at once (Redis: "expired immediately").
  if (deadline <= ks.nowMs()) {
    ks.remove(args[1], 'delete', tag);
    return 1;
  }
  ks.setExpire(args[1], deadline, tag);
  return 1;
}

function pttl(ks: Keyspace, args: readonly string[]): RedisReply {
  if (args.length !== 2) return wrongArgs('PTTL');
  const e = ks.lookup(args[1]);
  if (e === undefined) return -2;
  if (e.expireAtMs === null) return -1;
  // Never negative: lookup() answered a live key, so now <= deadline (db.c keyIsExpired).
  return e.expireAtMs - ks.nowMs();
}

function incr(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  if (args.length !== 2) return wrongArgs('INCR');
  const e = ks.lookup(args[1]);
  if (e !== undefined && typeof e.value !== 'string') return ERR_WRONGTYPE;
  const current = e === undefined ? 0 : parseInteger(e.value as string);
  if (current === null) return ERR_NOT_INTEGER;
  const next = current + 1;
  if (e === undefined) ks.write(args[1], String(next), null, tag);
  else {
    e.value = String(next);
    ks.touched(args[1], tag);
  }
  return next;
}

function hashOf(ks: Keyspace, key: string): Map<string, string> | undefined | RedisErrorReply {
  const e = ks.lookup(key);
  if (e === undefined) return undefined;
  return typeof e.value === 'string' ? ERR_WRONGTYPE : e.value;
}

function hset(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  if (args.length < 4 || args.length % 2 !== 0) return wrongArgs('HSET');
  const h = hashOf(ks, args[1]);
  if (h instanceof RedisErrorReply) return h;
  const hash = h ?? new Map<string, string>();
  let added = 0;
  for (let i = 2; i < args.length; i += 2) {
    if (!hash.has(args[i])) added++;
    hash.set(args[i], args[i + 1]);
  }
  if (h === undefined) ks.write(args[1], hash, null, tag);
  else ks.touched(args[1], tag);
  return added;
}

function hincrby(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  if (args.length !== 4) return wrongArgs('HINCRBY');
  const by = parseInteger(args[3]);
  if (by === null) return ERR_NOT_INTEGER;
  const h = hashOf(ks, args[1]);
  if (h instanceof RedisErrorReply) return h;
  const hash = h ?? new Map<string, string>();
  const before = hash.has(args[2]) ? parseInteger(hash.get(args[2]) as string) : 0;
  if (before === null) return new RedisErrorReply('ERR hash value is not an integer');
  const next = before + by;
  hash.set(args[2], String(next));
  if (h === undefined) ks.write(args[1], hash, null, tag);
  else ks.touched(args[1], tag);
  return next;
}

function hdel(ks: Keyspace, args: readonly string[], tag: string): RedisReply {
  if (args.length < 3) return wrongArgs('HDEL');
  const h = hashOf(ks, args[1]);
  if (h instanceof RedisErrorReply) return h;
  if (h === undefined) return 0;
  let n = 0;
  for (let i = 2; i < args.length; i++) if (h.delete(args[i])) n++;
  // Redis deletes a hash when its last field goes.
  if (h.size === 0) ks.remove(args[1], 'delete', tag);
  else if (n > 0) ks.touched(args[1], tag);
  return n;
}
