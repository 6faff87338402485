/**
 * Sorted-set commands as redis 7.0.15 runs them (src/t_zset.c): ZADD with NX / XX / GT / LT /
 * CH / INCR, ZINCRBY, ZREM, ZSCORE, ZMSCORE, ZCARD, ZCOUNT, ZLEXCOUNT, ZRANK, ZREVRANK, ZRANGE
 * (by rank, BYSCORE, BYLEX, REV, LIMIT, WITHSCORES), ZRANGEBYSCORE, ZREVRANGEBYSCORE, ZREVRANGE,
 * ZRANGEBYLEX, ZREVRANGEBYLEX, ZREMRANGEBYSCORE / BYRANK / BYLEX, ZPOPMIN, ZPOPMAX, ZMPOP, and
 * BZPOPMIN / BZPOPMAX / BZMPOP as they answer when they may not block (blocking.ts blocks the
 * client when they found nothing). Scores print as "%.17g" (networking.c addReplyDouble).
 * A sorted set that loses its last member is deleted.
 */
import type { Keyspace } from './keyspace.js';
import { ERR_NOT_INTEGER, ERR_SYNTAX, ERR_WRONGTYPE, parseInt64, RedisErrorReply, type RedisReply } from './reply.js';
import { compareBytes, longerThanBytes, RedisZset, ZSET_MAX_LISTPACK_ENTRIES, ZSET_MAX_LISTPACK_VALUE, type ZEntry } from './collection-values.js';
import type { CommandDef, Handler } from './command-def.js';
import { parseRedisDouble, replyDouble, strtod } from './float.js';
import { blockTimeoutMs, readMpop } from './list-commands.js';

/** The sorted set at `key`: undefined when missing, WRONGTYPE when another type. */
function zsetAt(ks: Keyspace, key: string): RedisZset | undefined | RedisErrorReply {
  const e = ks.lookup(key);
  if (e === undefined) return undefined;
  return e.value instanceof RedisZset ? e.value : ERR_WRONGTYPE;
}

const ERR_NOT_FLOAT = new RedisErrorReply('ERR value is not a valid float');
const ERR_RANGE_NOT_FLOAT = new RedisErrorReply('ERR min or max is not a float');
const ERR_LEX_RANGE = new RedisErrorReply('ERR min or max not valid string range item');

function long(s: string): number | RedisErrorReply {
  const n = parseInt64(s);
  return n === null ? ERR_NOT_INTEGER : Number(n);
}

/** t_zset.c zsetAdd's conversion: a listpack that would exceed 128 members or gets a member over 64 bytes becomes a skiplist. */
function insert(z: RedisZset, member: string, score: number): void {
  if (z.listpack && (z.size + 1 > ZSET_MAX_LISTPACK_ENTRIES || longerThanBytes(member, ZSET_MAX_LISTPACK_VALUE))) z.listpack = false;
  z.set(member, score);
}

/**
 * t_zset.c zaddGenericCommand: options (NX XX CH INCR GT LT, any case) until the first other
 * word; then an even, non-empty list of score-member pairs (syntax error); then the
 * incompatible options; INCR takes one pair; every score is read before anything is written
 * ("value is not a valid float"); then the key (XX on a missing key writes nothing). NaN from
 * an increment: "resulting score is not a number (NaN)". Replies the number added (CH: added
 * or changed), or with INCR the new score (nil when NX / XX / GT / LT stopped it).
 */
function zadd(ks: Keyspace, args: readonly string[], tag: string, incrIn: boolean): RedisReply {
  let nx = false;
  let xx = false;
  let ch = false;
  let incr = incrIn;
  let gt = false;
  let lt = false;
  let i = 2;
  for (; i < args.length; i++) {
    const opt = args[i].toLowerCase();
    if (opt === 'nx') nx = true;
    else if (opt === 'xx') xx = true;
    else if (opt === 'ch') ch = true;
    else if (opt === 'incr') incr = true;
    else if (opt === 'gt') gt = true;
    else if (opt === 'lt') lt = true;
    else break;
  }
  const pairs = args.length - i;
  if (pairs % 2 !== 0 || pairs === 0) return ERR_SYNTAX;
  if (nx && xx) return new RedisErrorReply('ERR XX and NX options at the same time are not compatible');
  if ((gt && nx) || (lt && nx) || (gt && lt)) return new RedisErrorReply('ERR GT, LT, and/or NX options at the same time are not compatible');
  if (incr && pairs > 2) return new RedisErrorReply('ERR INCR option supports a single increment-element pair');
  const scores: number[] = [];
  for (let j = i; j < args.length; j += 2) {
    const s = parseRedisDouble(args[j]);
    if (s === null) return ERR_NOT_FLOAT;
    scores.push(s);
  }
  const existing = zsetAt(ks, args[1]);
  if (existing instanceof RedisErrorReply) return existing;
  if (existing === undefined && xx) return incr ? null : 0;
  // A new key is written once filled (the change replicas and the observer see is the whole set).
  const z = existing ?? new RedisZset([], !longerThanBytes(args[i + 1], ZSET_MAX_LISTPACK_VALUE));
  let added = 0;
  let updated = 0;
  let processed = 0;
  let last = 0;
  for (let p = 0; p < scores.length; p++) {
    const member = args[i + 1 + 2 * p];
    let score = scores[p];
    const current = z.scores.get(member);
    if (current !== undefined) {
      if (nx) continue;
      if (incr) {
        score += current;
        // Only INCR gets here, with its one pair: nothing was changed before.
        if (Number.isNaN(score)) return new RedisErrorReply('ERR resulting score is not a number (NaN)');
      }
      if ((lt && score >= current) || (gt && score <= current)) continue;
      last = score;
      processed++;
      if (score !== current) {
        z.set(member, score);
        updated++;
      }
    } else if (!xx) {
      insert(z, member, score);
      last = score;
      added++;
      processed++;
    }
  }
  if (existing === undefined) ks.write(args[1], z, null, tag);
  else if (added + updated > 0) ks.touched(args[1], tag);
  if (incr) return processed > 0 ? replyDouble(last) : null;
  return ch ? added + updated : added;
}

/** t_zset.c zremCommand: the key goes with its last member. */
const zrem: Handler = (ks, args, tag) => {
  const z = zsetAt(ks, args[1]);
  if (z === undefined) return 0;
  if (z instanceof RedisErrorReply) return z;
  let deleted = 0;
  for (let i = 2; i < args.length; i++) {
    if (z.delete(args[i])) deleted++;
    if (z.size === 0) {
      ks.remove(args[1], 'delete', tag);
      return deleted;
    }
  }
  if (deleted > 0) ks.touched(args[1], tag);
  return deleted;
};

const zscore: Handler = (ks, args) => {
  const z = zsetAt(ks, args[1]);
  if (z === undefined) return null;
  if (z instanceof RedisErrorReply) return z;
  const s = z.scores.get(args[2]);
  return s === undefined ? null : replyDouble(s);
};

const zmscore: Handler = (ks, args) => {
  const z = zsetAt(ks, args[1]);
  if (z instanceof RedisErrorReply) return z;
  const out: RedisReply[] = [];
  for (let i = 2; i < args.length; i++) {
    const s = z?.scores.get(args[i]);
    out.push(s === undefined ? null : replyDouble(s));
  }
  return out;
};

const zcard: Handler = (ks, args) => {
  const z = zsetAt(ks, args[1]);
  if (z instanceof RedisErrorReply) return z;
  return z?.size ?? 0;
};

const zrank = (reverse: boolean): Handler => (ks, args) => {
  const z = zsetAt(ks, args[1]);
  if (z === undefined) return null;
  if (z instanceof RedisErrorReply) return z;
  const r = z.rank(args[2]);
  return r < 0 ? null : reverse ? z.size - 1 - r : r;
};

/** A score range (t_zset.c zslParseRange): "(" makes an end exclusive; plain strtod, so "", " 1" and "1e999" are accepted. */
interface ScoreRange {
  min: number;
  max: number;
  minex: boolean;
  maxex: boolean;
}

function scoreBound(s: string): { v: number; ex: boolean } | null {
  const ex = s.startsWith('(');
  const text = ex ? s.slice(1) : s;
  // Nothing parsed leaves the end at the start: the whole text only when it is "".
  const r = strtod(text);
  if (r.end !== text.length || Number.isNaN(r.value)) return null;
  return { v: r.value, ex };
}

function parseScoreRange(minArg: string, maxArg: string): ScoreRange | null {
  const min = scoreBound(minArg);
  const max = scoreBound(maxArg);
  if (min === null || max === null) return null;
  return { min: min.v, max: max.v, minex: min.ex, maxex: max.ex };
}

const gteMin = (s: number, r: ScoreRange): boolean => (r.minex ? s > r.min : s >= r.min);
const lteMax = (s: number, r: ScoreRange): boolean => (r.maxex ? s < r.max : s <= r.max);

/** A lex range item (t_zset.c zslParseLexRangeItem): "+" / "-" alone, or "(" / "[" then the string. */
interface LexBound {
  kind: 'min' | 'max' | 'value';
  value: string;
  ex: boolean;
}
interface LexRange {
  min: LexBound;
  max: LexBound;
}

function lexBound(s: string): LexBound | null {
  if (s === '+') return { kind: 'max', value: '', ex: true };
  if (s === '-') return { kind: 'min', value: '', ex: true };
  if (s.startsWith('(')) return { kind: 'value', value: s.slice(1), ex: true };
  if (s.startsWith('[')) return { kind: 'value', value: s.slice(1), ex: false };
  return null;
}

function parseLexRange(minArg: string, maxArg: string): LexRange | null {
  const min = lexBound(minArg);
  const max = lexBound(maxArg);
  return min === null || max === null ? null : { min, max };
}

/** t_zset.c sdscmplex: "-" below everything, "+" above. */
function cmpLex(value: string, b: LexBound): number {
  if (b.kind === 'min') return 1;
  if (b.kind === 'max') return -1;
  return compareBytes(value, b.value);
}
const lexGteMin = (v: string, r: LexRange): boolean => (r.min.ex ? cmpLex(v, r.min) > 0 : cmpLex(v, r.min) >= 0);
const lexLteMax = (v: string, r: LexRange): boolean => (r.max.ex ? cmpLex(v, r.max) < 0 : cmpLex(v, r.max) <= 0);

/** Rank range as genericZrangebyrankCommand sanitizes it: [start, end] inclusive, or null when empty. */
function rankRange(size: number, startIn: number, endIn: number): [number, number] | null {
  let start = startIn < 0 ? size + startIn : startIn;
  let end = endIn < 0 ? size + endIn : endIn;
  if (start < 0) start = 0;
  if (start > end || start >= size) return null;
  if (end >= size) end = size - 1;
  return [start, end];
}

/**
 * The entries of a score or lex range walked as t_zset.c genericZrangebyscoreCommand /
 * genericZrangebylexCommand walk a listpack: from the first entry in range (the last, reversed),
 * `offset` entries skipped without a range check (a negative offset skips them all), then up to
 * `limit` entries (negative: no limit) while they stay in range.
 */
function walkRange(entries: readonly ZEntry[], inMin: (e: ZEntry) => boolean, inMax: (e: ZEntry) => boolean, reverse: boolean, offset: number, limit: number): ZEntry[] {
  const out: ZEntry[] = [];
  if (offset > 0 && offset >= entries.length) return out;
  let i: number;
  if (!reverse) {
    i = entries.findIndex(inMin);
    if (i >= 0 && !inMax(entries[i])) i = -1;
  } else {
    i = -1;
    for (let j = entries.length - 1; j >= 0; j--) {
      if (inMax(entries[j])) {
        i = inMin(entries[j]) ? j : -1;
        break;
      }
    }
  }
  if (i < 0) return out;
  const step = reverse ? -1 : 1;
  if (offset < 0) return out;
  i += step * offset;
  for (let left = limit; i >= 0 && i < entries.length && left !== 0; i += step, left--) {
    const e = entries[i];
    if (reverse ? !inMin(e) : !inMax(e)) break;
    out.push(e);
  }
  return out;
}

const emit = (entries: readonly ZEntry[], withScores: boolean): RedisReply =>
  withScores ? entries.flatMap((e) => [e.member, replyDouble(e.score)]) : entries.map((e) => e.member);

type RangeType = 'auto' | 'rank' | 'score' | 'lex';

/**
 * t_zset.c zrangeGenericCommand: options after key min max (WITHSCORES, LIMIT offset count,
 * and where the command leaves them open REV, BYSCORE, BYLEX), then the conflicts, then the
 * range (reversed ranges give max first), then the key.
 */
const zrange = (fixedType: RangeType, fixedReverse: boolean | null): Handler => (ks, args) => {
  let type = fixedType;
  let reverse = fixedReverse;
  let withScores = false;
  let offset = 0;
  let limit = -1;
  for (let j = 4; j < args.length; j++) {
    const opt = args[j].toLowerCase();
    if (opt === 'withscores') withScores = true;
    else if (opt === 'limit' && args.length - j - 1 >= 2) {
      const o = long(args[j + 1]);
      if (o instanceof RedisErrorReply) return o;
      const l = long(args[j + 2]);
      if (l instanceof RedisErrorReply) return l;
      offset = o;
      limit = l;
      j += 2;
    } else if (fixedReverse === null && opt === 'rev') reverse = true;
    else if (fixedType === 'auto' && opt === 'bylex') type = 'lex';
    else if (fixedType === 'auto' && opt === 'byscore') type = 'score';
    else return ERR_SYNTAX;
  }
  const rev = reverse === true;
  if (type === 'auto') type = 'rank';
  if (limit !== -1 && type === 'rank') return new RedisErrorReply('ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
  if (withScores && type === 'lex') return new RedisErrorReply('ERR syntax error, WITHSCORES not supported in combination with BYLEX');
  const [minArg, maxArg] = rev && type !== 'rank' ? [args[3], args[2]] : [args[2], args[3]];
  let ranks: [number, number] | null = null;
  let scores: ScoreRange | null = null;
  let lex: LexRange | null = null;
  if (type === 'rank') {
    const start = long(minArg);
    if (start instanceof RedisErrorReply) return start;
    const end = long(maxArg);
    if (end instanceof RedisErrorReply) return end;
    ranks = [start, end];
  } else if (type === 'score') {
    scores = parseScoreRange(minArg, maxArg);
    if (scores === null) return ERR_RANGE_NOT_FLOAT;
  } else {
    lex = parseLexRange(minArg, maxArg);
    if (lex === null) return ERR_LEX_RANGE;
  }
  const z = zsetAt(ks, args[1]);
  if (z === undefined) return [];
  if (z instanceof RedisErrorReply) return z;
  if (ranks !== null) {
    const r = rankRange(z.size, ranks[0], ranks[1]);
    if (r === null) return [];
    const picked = rev ? z.entries.slice(z.size - 1 - r[1], z.size - r[0]).reverse() : z.entries.slice(r[0], r[1] + 1);
    return emit(picked, withScores);
  }
  if (scores !== null) {
    const s = scores;
    return emit(walkRange(z.entries, (e) => gteMin(e.score, s), (e) => lteMax(e.score, s), rev, offset, limit), withScores);
  }
  const l = lex as LexRange;
  return emit(walkRange(z.entries, (e) => lexGteMin(e.member, l), (e) => lexLteMax(e.member, l), rev, offset, limit), false);
};

/** t_zset.c zcountCommand / zlexcountCommand: the range first, then the key (0 when missing). */
const zcount = (lexical: boolean): Handler => (ks, args) => {
  const scores = lexical ? null : parseScoreRange(args[2], args[3]);
  const lex = lexical ? parseLexRange(args[2], args[3]) : null;
  if (!lexical && scores === null) return ERR_RANGE_NOT_FLOAT;
  if (lexical && lex === null) return ERR_LEX_RANGE;
  const z = zsetAt(ks, args[1]);
  if (z === undefined) return 0;
  if (z instanceof RedisErrorReply) return z;
  if (scores !== null) return walkRange(z.entries, (e) => gteMin(e.score, scores), (e) => lteMax(e.score, scores), false, 0, -1).length;
  const l = lex as LexRange;
  return walkRange(z.entries, (e) => lexGteMin(e.member, l), (e) => lexLteMax(e.member, l), false, 0, -1).length;
};

/** t_zset.c zremrangeGenericCommand: the range, then the key (0 when missing); the key goes when emptied. */
const zremrange = (type: 'rank' | 'score' | 'lex'): Handler => (ks, args, tag) => {
  let start = 0;
  let end = 0;
  let scores: ScoreRange | null = null;
  let lex: LexRange | null = null;
  if (type === 'rank') {
    const s = long(args[2]);
    if (s instanceof RedisErrorReply) return s;
    const e = long(args[3]);
    if (e instanceof RedisErrorReply) return e;
    start = s;
    end = e;
  } else if (type === 'score') {
    scores = parseScoreRange(args[2], args[3]);
    if (scores === null) return ERR_RANGE_NOT_FLOAT;
  } else {
    lex = parseLexRange(args[2], args[3]);
    if (lex === null) return ERR_LEX_RANGE;
  }
  const z = zsetAt(ks, args[1]);
  if (z === undefined) return 0;
  if (z instanceof RedisErrorReply) return z;
  let deleted: number;
  if (type === 'rank') {
    const r = rankRange(z.size, start, end);
    if (r === null) return 0;
    deleted = z.removeRange(r[0], r[1] + 1);
  } else {
    const picked =
      scores !== null
        ? walkRange(z.entries, (e) => gteMin(e.score, scores), (e) => lteMax(e.score, scores), false, 0, -1)
        : walkRange(z.entries, (e) => lexGteMin(e.member, lex as LexRange), (e) => lexLteMax(e.member, lex as LexRange), false, 0, -1);
    for (const e of picked) z.delete(e.member);
    deleted = picked.length;
  }
  if (z.size === 0) ks.remove(args[1], 'delete', tag);
  else if (deleted > 0) ks.touched(args[1], tag);
  return deleted;
};

type ZEnd = 'min' | 'max';

/**
 * t_zset.c genericZpopCommand on one sorted set: up to `count` members from the low (min) or
 * high (max) end, each with its score; the key goes when emptied.
 */
function zpopEntries(ks: Keyspace, key: string, z: RedisZset, where: ZEnd, count: number, tag: string): RedisReply[][] {
  const n = Math.min(count, z.size);
  const taken = where === 'min' ? z.entries.slice(0, n) : z.entries.slice(z.size - n).reverse();
  for (const e of taken) z.delete(e.member);
  if (z.size === 0) ks.remove(key, 'delete', tag);
  else ks.touched(key, tag);
  return taken.map((e) => [e.member, replyDouble(e.score)]);
}

/** ZPOPMIN / ZPOPMAX key [count]: a flat array; more than one count argument is a syntax error. */
const zpop = (where: ZEnd): Handler => (ks, args, tag) => {
  if (args.length > 3) return ERR_SYNTAX;
  let count = -1;
  if (args.length === 3) {
    const n = parseInt64(args[2]);
    if (n === null || n < 0n) return new RedisErrorReply('ERR value is out of range, must be positive');
    count = Number(n);
  }
  const z = zsetAt(ks, args[1]);
  if (z === undefined) return [];
  if (z instanceof RedisErrorReply) return z;
  if (count === 0) return [];
  return zpopEntries(ks, args[1], z, where, count === -1 ? 1 : count, tag).flat();
}

/**
 * The first key holding a sorted set (one of another type: WRONGTYPE) is popped: BZPOPMIN /
 * BZPOPMAX answer [key, member, score], ZMPOP / BZMPOP [key, [[member, score], ...]]; none: null.
 */
function zpopFirst(ks: Keyspace, keys: readonly string[], where: ZEnd, count: number, nested: boolean, tag: string): RedisReply {
  for (const key of keys) {
    const z = zsetAt(ks, key);
    if (z === undefined) continue;
    if (z instanceof RedisErrorReply) return z;
    const popped = zpopEntries(ks, key, z, where, count, tag);
    return nested ? [key, popped] : [key, ...popped.flat()];
  }
  return null;
}

const bzpop = (where: ZEnd): Handler => (ks, args, tag) => {
  const timeout = blockTimeoutMs(args[args.length - 1]);
  if (timeout instanceof RedisErrorReply) return timeout;
  return zpopFirst(ks, args.slice(1, -1), where, 1, false, tag);
};

const zmpop = (blocking: boolean): Handler => (ks, args, tag) => {
  const r = readMpop(args, blocking ? 2 : 1, ['min', 'max']);
  if (r instanceof RedisErrorReply) return r;
  if (blocking) {
    const timeout = blockTimeoutMs(args[1]);
    if (timeout instanceof RedisErrorReply) return timeout;
  }
  return zpopFirst(ks, r.keys, r.first ? 'min' : 'max', r.count, true, tag);
};

/** What a blocking sorted-set command that found nothing waits for (its arguments already checked by its handler). */
export interface ZsetBlock {
  keys: string[];
  where: ZEnd;
  /** BZMPOP's count; -1 for BZPOPMIN / BZPOPMAX. */
  count: number;
  timeoutMs: bigint;
}

export function zsetBlockOf(name: string, args: readonly string[]): ZsetBlock {
  if (name === 'bzmpop') {
    const r = readMpop(args, 2, ['min', 'max']) as { keys: string[]; first: boolean; count: number };
    return { keys: r.keys, where: r.first ? 'min' : 'max', count: r.count, timeoutMs: blockTimeoutMs(args[1]) as bigint };
  }
  return { keys: args.slice(1, -1), where: name === 'bzpopmin' ? 'min' : 'max', count: -1, timeoutMs: blockTimeoutMs(args[args.length - 1]) as bigint };
}

/** A blocked BZPOPMIN / BZPOPMAX / BZMPOP served from `key` (blocked.c serveClientsBlockedOnSortedSetKey). */
export function serveZsetBlock(ks: Keyspace, key: string, z: RedisZset, block: ZsetBlock, tag: string): RedisReply {
  const popped = zpopEntries(ks, key, z, block.where, block.count === -1 ? 1 : block.count, tag);
  return block.count === -1 ? [key, ...popped.flat()] : [key, popped];
}

/** Arity and flags from redis 7.0.15 src/commands/<name>.json. */
export const ZSET_COMMANDS: readonly CommandDef[] = [
  ['zadd', -4, 'w', (ks, args, tag) => zadd(ks, args, tag, false)],
  ['zincrby', 4, 'w', (ks, args, tag) => zadd(ks, args, tag, true)],
  ['zrem', -3, 'w', zrem],
  ['zscore', 3, '', zscore],
  ['zmscore', -3, '', zmscore],
  ['zcard', 2, '', zcard],
  ['zcount', 4, '', zcount(false)],
  ['zlexcount', 4, '', zcount(true)],
  ['zrank', 3, '', zrank(false)],
  ['zrevrank', 3, '', zrank(true)],
  ['zrange', -4, '', zrange('auto', null)],
  ['zrangebyscore', -4, '', zrange('score', false)],
  ['zrevrangebyscore', -4, '', zrange('score', true)],
  ['zrevrange', -4, '', zrange('rank', true)],
  ['zrangebylex', -4, '', zrange('lex', false)],
  ['zrevrangebylex', -4, '', zrange('lex', true)],
  ['zremrangebyscore', 4, 'w', zremrange('score')],
  ['zremrangebyrank', 4, 'w', zremrange('rank')],
  ['zremrangebylex', 4, 'w', zremrange('lex')],
  ['zpopmin', -2, 'w', zpop('min')],
  ['zpopmax', -2, 'w', zpop('max')],
  ['zmpop', -4, 'w', zmpop(false)],
  ['bzpopmin', -3, 'wnb', bzpop('min')],
  ['bzpopmax', -3, 'wnb', bzpop('max')],
  ['bzmpop', -5, 'wb', zmpop(true)],
];
