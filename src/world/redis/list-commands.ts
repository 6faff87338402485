/**
 * List commands as redis 7.0.15 runs them (src/t_list.c): LPUSH / RPUSH / LPUSHX / RPUSHX,
 * LINSERT, LLEN, LINDEX, LSET, LPOP / RPOP [count], LMPOP, LRANGE, LTRIM, LPOS, LREM, LMOVE,
 * RPOPLPUSH, and the blocking BLPOP / BRPOP / BLMPOP / BLMOVE / BRPOPLPUSH as they answer when
 * they may not block (inside MULTI or a script: t_list.c blockingPopGenericCommand with
 * CLIENT_DENY_BLOCKING answers nil). A blocking command that found nothing answers null here;
 * the node then blocks the client (blocking.ts). A list that loses its last element is deleted.
 */
import type { Keyspace } from './keyspace.js';
import { ERR_NOT_INTEGER, ERR_SYNTAX, ERR_WRONGTYPE, parseInt64, RedisErrorReply, type RedisReply } from './reply.js';
import { RedisList } from './collection-values.js';
import type { CommandDef, Handler } from './command-def.js';
import { parseTimeoutSecondsMs } from './float.js';

type End = 'left' | 'right';

/** The list at `key`: undefined when missing, WRONGTYPE when another type. */
export function listAt(ks: Keyspace, key: string): RedisList | undefined | RedisErrorReply {
  const e = ks.lookup(key);
  if (e === undefined) return undefined;
  return e.value instanceof RedisList ? e.value : ERR_WRONGTYPE;
}

const LONG_MAX = 9223372036854775807n;

/** object.c getRangeLongFromObjectOrReply with a message: `message` for a text that is no integer or outside [min, max]. */
function rangeLong(s: string, min: bigint, message: string): number | RedisErrorReply {
  const n = parseInt64(s);
  if (n === null || n < min || n > LONG_MAX) return new RedisErrorReply(`ERR ${message}`);
  return Number(n);
}

/** object.c getPositiveLongFromObjectOrReply without a message. */
const positiveLong = (s: string): number | RedisErrorReply => rangeLong(s, 0n, 'value is out of range, must be positive');

/** object.c getLongFromObjectOrReply: a 64-bit integer, kept as a double (indexes beyond 2^53 are only compared with lengths). */
function long(s: string): number | RedisErrorReply {
  const n = parseInt64(s);
  return n === null ? ERR_NOT_INTEGER : Number(n);
}

/** t_list.c getListPositionFromObjectOrReply: LEFT or RIGHT in any ASCII case. */
function position(s: string): End | RedisErrorReply {
  const w = s.toLowerCase();
  return w === 'left' || w === 'right' ? w : ERR_SYNTAX;
}

/** The key is deleted when its list is empty, else marked changed. */
function afterRemoval(ks: Keyspace, key: string, list: RedisList, tag: string): void {
  if (list.items.length === 0) ks.remove(key, 'delete', tag);
  else ks.touched(key, tag);
}

/** Pops one element from `where` of a non-empty list. */
export function popOne(ks: Keyspace, key: string, list: RedisList, where: End, tag: string): string {
  const value = (where === 'left' ? list.items.shift() : list.items.pop()) as string;
  afterRemoval(ks, key, list, tag);
  return value;
}

/** t_list.c listPopRangeAndReplyWithKey: [key, [up to count elements from `where`]]. */
export function popRangeWithKey(ks: Keyspace, key: string, list: RedisList, where: End, count: number, tag: string): RedisReply {
  const n = Math.min(count, list.items.length);
  const taken = where === 'left' ? list.items.splice(0, n) : list.items.splice(list.items.length - n, n).reverse();
  afterRemoval(ks, key, list, tag);
  return [key, taken];
}

/** t_list.c lmoveHandlePush: the value goes to `where` of the destination (made if missing); replies the value. */
export function pushMoved(ks: Keyspace, dstKey: string, dst: RedisList | undefined, value: string, where: End, tag: string): string {
  if (dst === undefined) ks.write(dstKey, new RedisList([value]), null, tag);
  else {
    if (where === 'left') dst.items.unshift(value);
    else dst.items.push(value);
    ks.touched(dstKey, tag);
  }
  return value;
}

const push = (where: End, onlyExisting: boolean): Handler => (ks, args, tag) => {
  const l = listAt(ks, args[1]);
  if (l instanceof RedisErrorReply) return l;
  if (l === undefined && onlyExisting) return 0;
  const list = l ?? new RedisList();
  for (let i = 2; i < args.length; i++) {
    if (where === 'left') list.items.unshift(args[i]);
    else list.items.push(args[i]);
  }
  if (l === undefined) ks.write(args[1], list, null, tag);
  else ks.touched(args[1], tag);
  return list.items.length;
};

/** t_list.c linsertCommand: BEFORE / AFTER first (syntax error), then the key (0 missing), -1 when the pivot is not found. */
const linsert: Handler = (ks, args, tag) => {
  const where = args[2].toLowerCase();
  if (where !== 'before' && where !== 'after') return ERR_SYNTAX;
  const list = listAt(ks, args[1]);
  if (list === undefined) return 0;
  if (list instanceof RedisErrorReply) return list;
  const at = list.items.indexOf(args[3]);
  if (at < 0) return -1;
  list.items.splice(where === 'before' ? at : at + 1, 0, args[4]);
  ks.touched(args[1], tag);
  return list.items.length;
};

const llen: Handler = (ks, args) => {
  const list = listAt(ks, args[1]);
  if (list instanceof RedisErrorReply) return list;
  return list?.items.length ?? 0;
};

/** t_list.c lindexCommand: the key is looked up before the index is read. */
const lindex: Handler = (ks, args) => {
  const list = listAt(ks, args[1]);
  if (list === undefined) return null;
  if (list instanceof RedisErrorReply) return list;
  const index = long(args[2]);
  if (index instanceof RedisErrorReply) return index;
  const i = index < 0 ? list.items.length + index : index;
  return i >= 0 && i < list.items.length ? list.items[i] : null;
};

/** t_list.c lsetCommand: "no such key", the type, then the index ("index out of range"). */
const lset: Handler = (ks, args, tag) => {
  const list = listAt(ks, args[1]);
  if (list === undefined) return new RedisErrorReply('ERR no such key');
  if (list instanceof RedisErrorReply) return list;
  const index = long(args[2]);
  if (index instanceof RedisErrorReply) return index;
  const i = index < 0 ? list.items.length + index : index;
  if (i < 0 || i >= list.items.length) return new RedisErrorReply('ERR index out of range');
  list.items[i] = args[3];
  ks.touched(args[1], tag);
  return 'OK';
};

/** t_list.c addListRangeReply: inclusive start..end with negative indexes from the end; reversed for a right pop. */
function range(items: readonly string[], startIn: number, endIn: number): string[] {
  const n = items.length;
  let start = startIn < 0 ? n + startIn : startIn;
  let end = endIn < 0 ? n + endIn : endIn;
  if (start < 0) start = 0;
  if (start > end || start >= n) return [];
  if (end >= n) end = n - 1;
  return items.slice(start, end + 1);
}

/**
 * t_list.c popGenericCommand: more than one count argument is an arity error; the count
 * (positive) is read first; a missing key is nil; count 0 an empty array; with a count an
 * array of up to count elements (a right pop lists them from the tail), without one the element.
 */
const pop = (where: End, command: string): Handler => (ks, args, tag) => {
  if (args.length > 3) return new RedisErrorReply(`ERR wrong number of arguments for '${command}' command`);
  let count = -1;
  if (args.length === 3) {
    const c = positiveLong(args[2]);
    if (c instanceof RedisErrorReply) return c;
    count = c;
  }
  const list = listAt(ks, args[1]);
  if (list === undefined) return null;
  if (list instanceof RedisErrorReply) return list;
  if (count === 0) return [];
  if (count === -1) return popOne(ks, args[1], list, where, tag);
  const n = Math.min(count, list.items.length);
  const taken = where === 'left' ? list.items.splice(0, n) : list.items.splice(list.items.length - n, n).reverse();
  afterRemoval(ks, args[1], list, tag);
  return taken;
};

/** t_list.c lrangeCommand: both indexes are read before the key. */
const lrange: Handler = (ks, args) => {
  const start = long(args[2]);
  if (start instanceof RedisErrorReply) return start;
  const end = long(args[3]);
  if (end instanceof RedisErrorReply) return end;
  const list = listAt(ks, args[1]);
  if (list instanceof RedisErrorReply) return list;
  return list === undefined ? [] : range(list.items, start, end);
};

/** t_list.c ltrimCommand: OK for a missing key; the list keeps start..end and goes when emptied. */
const ltrim: Handler = (ks, args, tag) => {
  const start = long(args[2]);
  if (start instanceof RedisErrorReply) return start;
  const end = long(args[3]);
  if (end instanceof RedisErrorReply) return end;
  const list = listAt(ks, args[1]);
  if (list === undefined) return 'OK';
  if (list instanceof RedisErrorReply) return list;
  const kept = range(list.items, start, end);
  list.items.splice(0, list.items.length, ...kept);
  afterRemoval(ks, args[1], list, tag);
  return 'OK';
};

/**
 * t_list.c lposCommand: RANK (not zero; negative searches from the tail), COUNT and MAXLEN
 * (not negative), in any order and repeated (the last wins); then the key. Without COUNT the
 * index of the match (nil if none), with COUNT an array (COUNT 0: every match).
 */
const lpos: Handler = (ks, args) => {
  let rank = 1;
  let count = -1;
  let maxlen = 0;
  for (let j = 3; j < args.length; j++) {
    const opt = args[j].toLowerCase();
    const more = j < args.length - 1;
    if (opt === 'rank' && more) {
      const r = long(args[++j]);
      if (r instanceof RedisErrorReply) return r;
      if (r === 0) return new RedisErrorReply("ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list");
      rank = r;
    } else if (opt === 'count' && more) {
      const c = rangeLong(args[++j], 0n, "COUNT can't be negative");
      if (c instanceof RedisErrorReply) return c;
      count = c;
    } else if (opt === 'maxlen' && more) {
      const m = rangeLong(args[++j], 0n, "MAXLEN can't be negative");
      if (m instanceof RedisErrorReply) return m;
      maxlen = m;
    } else return ERR_SYNTAX;
  }
  const fromTail = rank < 0;
  if (fromTail) rank = -rank;
  const list = listAt(ks, args[1]);
  if (list === undefined) return count !== -1 ? [] : null;
  if (list instanceof RedisErrorReply) return list;
  const items = list.items;
  const n = items.length;
  const found: number[] = [];
  let matches = 0;
  for (let index = 0; index < n && (maxlen === 0 || index < maxlen); index++) {
    const i = fromTail ? n - index - 1 : index;
    if (items[i] !== args[2]) continue;
    matches++;
    if (matches < rank) continue;
    found.push(i);
    if (count === -1 || (count !== 0 && matches - rank + 1 >= count)) break;
  }
  return count !== -1 ? found : (found[0] ?? null);
};

/** t_list.c lremCommand: the count first; count < 0 removes from the tail, 0 removes all. */
const lrem: Handler = (ks, args, tag) => {
  const c = long(args[2]);
  if (c instanceof RedisErrorReply) return c;
  const list = listAt(ks, args[1]);
  if (list === undefined) return 0;
  if (list instanceof RedisErrorReply) return list;
  const limit = Math.abs(c);
  const items = list.items;
  let removed = 0;
  if (c < 0) {
    for (let i = items.length - 1; i >= 0 && (limit === 0 || removed < limit); i--) {
      if (items[i] === args[3]) {
        items.splice(i, 1);
        removed++;
      }
    }
  } else {
    for (let i = 0; i < items.length && (limit === 0 || removed < limit); ) {
      if (items[i] === args[3]) {
        items.splice(i, 1);
        removed++;
      } else i++;
    }
  }
  if (items.length === 0) ks.remove(args[1], 'delete', tag);
  else if (removed > 0) ks.touched(args[1], tag);
  return removed;
};

/**
 * t_list.c lmoveGenericCommand: the source (nil when missing, WRONGTYPE), then the destination's
 * type, then the element moves (source and destination may be the same list: a rotation).
 */
function lmove(ks: Keyspace, src: string, dst: string, from: End, to: End, tag: string): RedisReply {
  const source = listAt(ks, src);
  if (source === undefined) return null;
  if (source instanceof RedisErrorReply) return source;
  const destination = listAt(ks, dst);
  if (destination instanceof RedisErrorReply) return destination;
  const value = (from === 'left' ? source.items.shift() : source.items.pop()) as string;
  // Pushed first: with src = dst the list is not emptied on the way (lmoveHandlePush runs before the source's deletion).
  pushMoved(ks, dst, src === dst ? source : destination, value, to, tag);
  if (src !== dst) afterRemoval(ks, src, source, tag);
  return value;
}

const lmoveCommand: Handler = (ks, args, tag) => {
  const from = position(args[3]);
  if (from instanceof RedisErrorReply) return from;
  const to = position(args[4]);
  if (to instanceof RedisErrorReply) return to;
  return lmove(ks, args[1], args[2], from, to, tag);
};

/** The timeout of a blocking command in ms (0: none), or its error (timeout.c getTimeoutFromObjectOrReply). */
export function blockTimeoutMs(arg: string): bigint | RedisErrorReply {
  const ms = parseTimeoutSecondsMs(arg);
  if (ms === 'not-a-float') return new RedisErrorReply('ERR timeout is not a float or out of range');
  if (ms < 0n) return new RedisErrorReply('ERR timeout is negative');
  return ms;
}

/** What a blocking list command waits for, once it found nothing (blocking.ts reads it). */
export interface ListBlock {
  keys: string[];
  where: End;
  /** BLMPOP's count; -1 for BLPOP / BRPOP / BLMOVE. */
  count: number;
  /** BLMOVE / BRPOPLPUSH: the destination and its end. */
  target: { key: string; where: End } | null;
  timeoutMs: bigint;
}

/**
 * t_list.c blockingPopGenericCommand: the timeout first, then each key in order (a missing or
 * empty one is skipped, one of another type is WRONGTYPE): the first non-empty list is popped.
 * Nothing to pop: null (the node blocks the client, or answers nil where it may not block).
 */
function blockingPop(ks: Keyspace, keys: readonly string[], where: End, count: number, tag: string): RedisReply {
  for (const key of keys) {
    const list = listAt(ks, key);
    if (list === undefined) continue;
    if (list instanceof RedisErrorReply) return list;
    if (count !== -1) return popRangeWithKey(ks, key, list, where, count, tag);
    return [key, popOne(ks, key, list, where, tag)];
  }
  return null;
}

const bpop = (where: End): Handler => (ks, args, tag) => {
  const timeout = blockTimeoutMs(args[args.length - 1]);
  if (timeout instanceof RedisErrorReply) return timeout;
  return blockingPop(ks, args.slice(1, -1), where, -1, tag);
};

/** t_list.c blmoveGenericCommand: a missing source blocks (the destination is not looked at then). */
const blmoveLike = (read: (args: readonly string[]) => { from: End; to: End; timeoutArg: string } | RedisErrorReply): Handler => (ks, args, tag) => {
  const r = read(args);
  if (r instanceof RedisErrorReply) return r;
  const timeout = blockTimeoutMs(r.timeoutArg);
  if (timeout instanceof RedisErrorReply) return timeout;
  const source = listAt(ks, args[1]);
  if (source instanceof RedisErrorReply) return source;
  if (source === undefined) return null;
  return lmove(ks, args[1], args[2], r.from, r.to, tag);
};

const readBlmove = (args: readonly string[]): { from: End; to: End; timeoutArg: string } | RedisErrorReply => {
  const from = position(args[3]);
  if (from instanceof RedisErrorReply) return from;
  const to = position(args[4]);
  if (to instanceof RedisErrorReply) return to;
  return { from, to, timeoutArg: args[5] };
};

/**
 * t_list.c lmpopGenericCommand: numkeys (1 or more: "numkeys should be greater than 0"), then
 * LEFT / RIGHT right after the keys (missing: syntax error), then COUNT once (1 or more: "count
 * should be greater than 0"); anything else is a syntax error.
 */
export function readMpop(args: readonly string[], numkeysIndex: number, ends: readonly [string, string]): { keys: string[]; first: boolean; count: number } | RedisErrorReply {
  const numkeys = rangeLong(args[numkeysIndex], 1n, 'numkeys should be greater than 0');
  if (numkeys instanceof RedisErrorReply) return numkeys;
  const whereIndex = numkeysIndex + numkeys + 1;
  if (whereIndex >= args.length) return ERR_SYNTAX;
  const w = args[whereIndex].toLowerCase();
  if (w !== ends[0] && w !== ends[1]) return ERR_SYNTAX;
  let count = -1;
  for (let j = whereIndex + 1; j < args.length; j++) {
    if (count === -1 && args[j].toLowerCase() === 'count' && j < args.length - 1) {
      const c = rangeLong(args[++j], 1n, 'count should be greater than 0');
      if (c instanceof RedisErrorReply) return c;
      count = c;
    } else return ERR_SYNTAX;
  }
  return { keys: args.slice(numkeysIndex + 1, whereIndex), first: w === ends[0], count: count === -1 ? 1 : count };
}

/** t_list.c mpopGenericCommand: the first key holding a list is popped; none: nil. */
const lmpop: Handler = (ks, args, tag) => {
  const r = readMpop(args, 1, ['left', 'right']);
  if (r instanceof RedisErrorReply) return r;
  return blockingPop(ks, r.keys, r.first ? 'left' : 'right', r.count, tag);
};

/** BLMPOP timeout numkeys key... LEFT|RIGHT [COUNT n]: the options, then the timeout (argument 1). */
const blmpop: Handler = (ks, args, tag) => {
  const r = readMpop(args, 2, ['left', 'right']);
  if (r instanceof RedisErrorReply) return r;
  const timeout = blockTimeoutMs(args[1]);
  if (timeout instanceof RedisErrorReply) return timeout;
  return blockingPop(ks, r.keys, r.first ? 'left' : 'right', r.count, tag);
};

/** What a blocking list command that found nothing waits for (its arguments already checked by its handler). */
export function listBlockOf(name: string, args: readonly string[]): ListBlock {
  switch (name) {
    case 'blpop':
    case 'brpop':
      return { keys: args.slice(1, -1), where: name === 'blpop' ? 'left' : 'right', count: -1, target: null, timeoutMs: blockTimeoutMs(args[args.length - 1]) as bigint };
    case 'brpoplpush':
      return { keys: [args[1]], where: 'right', count: -1, target: { key: args[2], where: 'left' }, timeoutMs: blockTimeoutMs(args[3]) as bigint };
    case 'blmove': {
      const r = readBlmove(args) as { from: End; to: End; timeoutArg: string };
      return { keys: [args[1]], where: r.from, count: -1, target: { key: args[2], where: r.to }, timeoutMs: blockTimeoutMs(r.timeoutArg) as bigint };
    }
    default: {
      const r = readMpop(args, 2, ['left', 'right']) as { keys: string[]; first: boolean; count: number };
      return { keys: r.keys, where: r.first ? 'left' : 'right', count: r.count, target: null, timeoutMs: blockTimeoutMs(args[1]) as bigint };
    }
  }
}

/** Arity and flags from redis 7.0.15 src/commands/<name>.json. */
export const LIST_COMMANDS: readonly CommandDef[] = [
  ['lpush', -3, 'w', push('left', false)],
  ['rpush', -3, 'w', push('right', false)],
  ['lpushx', -3, 'w', push('left', true)],
  ['rpushx', -3, 'w', push('right', true)],
  ['linsert', 5, 'w', linsert],
  ['llen', 2, '', llen],
  ['lindex', 3, '', lindex],
  ['lset', 4, 'w', lset],
  ['lpop', -2, 'w', pop('left', 'lpop')],
  ['rpop', -2, 'w', pop('right', 'rpop')],
  ['lmpop', -4, 'w', lmpop],
  ['lrange', 4, '', lrange],
  ['ltrim', 4, 'w', ltrim],
  ['lpos', -3, '', lpos],
  ['lrem', 4, 'w', lrem],
  ['lmove', 5, 'w', lmoveCommand],
  ['rpoplpush', 3, 'w', (ks, args, tag) => lmove(ks, args[1], args[2], 'right', 'left', tag)],
  ['blpop', -3, 'wnb', bpop('left')],
  ['brpop', -3, 'wnb', bpop('right')],
  ['blmove', 6, 'wnb', blmoveLike(readBlmove)],
  ['brpoplpush', 4, 'wnb', blmoveLike((args) => ({ from: 'right', to: 'left', timeoutArg: args[3] }))],
  ['blmpop', -5, 'wb', blmpop],
];
