/**
 * Hand-written sequences for lists, sets and sorted sets, run on the model and on a real
 * redis-server 7 (harness.ts): every reply, and each key after every step read by its type
 * with its OBJECT ENCODING, must agree. WRONGTYPE across every pair of types, the empty value's
 * deletion, the encodings' conversions (intset -> hashtable, listpack -> skiplist / hashtable),
 * argument errors in Redis's order, the blocking pops as they answer inside MULTI and scripts.
 */
import { expect, it } from 'vitest';
import type { Step } from './harness.js';
import { withRealRedis } from './setup.js';

const c = (...args: string[]): Step => ({ args });
const u = (...args: string[]): Step => ({ args, unordered: true });
const multi = (...commands: string[][]): Step => ({ multi: commands });
const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';
const long = (n: number, prefix = 'm'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

type Case = [title: string, keys: string[], steps: Step[]];

const LISTS: Case[] = [
  ['LPUSH / RPUSH / LPUSHX / RPUSHX, LLEN, LRANGE with negative and out-of-range indexes', ['l', 'l2'], [
    c('LPUSH', 'l', 'a', 'b', 'c'), c('RPUSH', 'l', 'd', 'e'), c('LPUSHX', 'l2', 'x'), c('RPUSHX', 'l2', 'x'), c('LPUSHX', 'l', 'z'), c('RPUSHX', 'l', 'y'),
    c('LLEN', 'l'), c('LLEN', 'l2'), c('LRANGE', 'l', '0', '-1'), c('LRANGE', 'l', '-3', '-2'), c('LRANGE', 'l', '5', '2'), c('LRANGE', 'l', '-100', '100'),
    c('LRANGE', 'l', '10', '20'), c('LRANGE', 'l', 'x', '1'), c('LRANGE', 'l', '0', MAX), c('LRANGE', 'l', MIN, '0'), c('LRANGE', 'nokey', '0', '-1'), c('LRANGE', 'nokey', 'a', '1'),
  ]],
  ['LPOP / RPOP with and without a count; the emptied list goes; count errors before the key', ['l'], [
    c('RPUSH', 'l', 'a', 'b', 'c', 'd', 'e'), c('LPOP', 'l'), c('RPOP', 'l'), c('LPOP', 'l', '2'), c('LPOP', 'l', '0'), c('RPOP', 'l', '5'), c('LPOP', 'l'), c('LPOP', 'l', '2'),
    c('LPOP', 'l', '-1'), c('LPOP', 'l', 'x'), c('RPOP', 'l', '1', '2'), c('RPUSH', 'l', 'x'), c('RPOP', 'l', '0'), c('RPOP', 'l', '9223372036854775808'),
  ]],
  ['LINDEX / LSET / LINSERT / LREM / LTRIM', ['l'], [
    c('RPUSH', 'l', 'a', 'b', 'a', 'c', 'a'), c('LINDEX', 'l', '0'), c('LINDEX', 'l', '-1'), c('LINDEX', 'l', '9'), c('LINDEX', 'l', 'x'), c('LINDEX', 'nokey', 'x'),
    c('LSET', 'l', '1', 'B'), c('LSET', 'l', '-1', 'Z'), c('LSET', 'l', '9', 'x'), c('LSET', 'l', 'x', 'y'), c('LSET', 'nokey', '0', 'x'), c('LSET', 'nokey', 'x', 'y'),
    c('LINSERT', 'l', 'BEFORE', 'a', 'p'), c('LINSERT', 'l', 'after', 'c', 'q'), c('LINSERT', 'l', 'AFTER', 'zz', 'q'), c('LINSERT', 'l', 'middle', 'a', 'x'),
    c('LINSERT', 'nokey', 'BEFORE', 'a', 'x'), c('LINSERT', 'nokey', 'x', 'a', 'x'), c('LREM', 'l', '1', 'a'), c('LREM', 'l', '-1', 'a'), c('LREM', 'l', '0', 'zz'),
    c('RPUSH', 'l', 'a', 'a', 'a'), c('LREM', 'l', '0', 'a'), c('LREM', 'l', 'x', 'a'), c('LTRIM', 'l', '1', '-2'), c('LTRIM', 'l', '0', '0'), c('LTRIM', 'l', '5', '2'),
    c('LTRIM', 'nokey', '0', '1'), c('LTRIM', 'nokey', 'x', '1'),
  ]],
  ['LPOS: RANK, COUNT, MAXLEN and their errors', ['l'], [
    c('RPUSH', 'l', 'a', 'b', 'c', 'a', 'b', 'a'), c('LPOS', 'l', 'a'), c('LPOS', 'l', 'a', 'RANK', '2'), c('LPOS', 'l', 'a', 'RANK', '-1'), c('LPOS', 'l', 'a', 'RANK', '-3'),
    c('LPOS', 'l', 'a', 'COUNT', '0'), c('LPOS', 'l', 'a', 'COUNT', '2'), c('LPOS', 'l', 'a', 'RANK', '-1', 'COUNT', '2'), c('LPOS', 'l', 'a', 'MAXLEN', '3'),
    c('LPOS', 'l', 'a', 'RANK', '2', 'MAXLEN', '3'), c('LPOS', 'l', 'zz'), c('LPOS', 'l', 'zz', 'COUNT', '1'), c('LPOS', 'l', 'a', 'RANK', '0'), c('LPOS', 'l', 'a', 'COUNT', '-1'),
    c('LPOS', 'l', 'a', 'MAXLEN', '-1'), c('LPOS', 'l', 'a', 'RANK', 'x'), c('LPOS', 'l', 'a', 'FOO'), c('LPOS', 'l', 'a', 'RANK'), c('LPOS', 'nokey', 'a'),
    c('LPOS', 'nokey', 'a', 'COUNT', '3'), c('LPOS', 'l', 'a', 'RANK', '1', 'RANK', '3'),
  ]],
  ['LMOVE / RPOPLPUSH, also onto the same list; a destination of another type is refused before anything moves', ['l', 'l2', 's'], [
    c('RPUSH', 'l', 'a', 'b', 'c'), c('LMOVE', 'l', 'l2', 'LEFT', 'RIGHT'), c('LMOVE', 'l', 'l2', 'right', 'left'), c('RPOPLPUSH', 'l2', 'l'), c('LMOVE', 'l', 'l', 'LEFT', 'RIGHT'),
    c('LMOVE', 'l', 'l2', 'UP', 'LEFT'), c('LMOVE', 'l', 'l2', 'LEFT', 'DOWN'), c('LMOVE', 'nokey', 'l2', 'LEFT', 'LEFT'), c('SET', 's', 'v'), c('LMOVE', 'l', 's', 'LEFT', 'LEFT'),
    c('RPOPLPUSH', 'l', 's'), c('RPOPLPUSH', 's', 'l'), c('RPOPLPUSH', 'l', 'l'), c('LMOVE', 'l2', 'l2', 'RIGHT', 'LEFT'), c('RPOPLPUSH', 'l2', 'l3'), c('DEL', 'l3'),
  ]],
  ['LMPOP: numkeys, LEFT / RIGHT, COUNT, the first non-empty list', ['l', 'l2'], [
    c('RPUSH', 'l2', 'a', 'b', 'c'), c('LMPOP', '2', 'l', 'l2', 'LEFT'), c('LMPOP', '2', 'l', 'l2', 'RIGHT', 'COUNT', '5'), c('LMPOP', '2', 'l', 'l2', 'LEFT'),
    c('LMPOP', '0', 'l', 'LEFT'), c('LMPOP', 'x', 'l', 'LEFT'), c('LMPOP', '3', 'l', 'LEFT'), c('LMPOP', '1', 'l', 'UP'), c('LMPOP', '1', 'l', 'LEFT', 'COUNT', '0'),
    c('LMPOP', '1', 'l', 'LEFT', 'COUNT', '1', 'COUNT', '2'), c('LMPOP', '1', 'l', 'LEFT', 'FOO'), c('RPUSH', 'l', 'x'), c('LMPOP', '1', 'l', 'left', 'count', '3'),
    c('LMPOP', '-1', 'l', 'LEFT'), c('LMPOP', '1'),
  ]],
  ['blocking pops that find elements, their argument errors, and inside MULTI (nil where they would block)', ['l', 'l2', 'z'], [
    c('RPUSH', 'l', 'a', 'b'), c('BLPOP', 'nokey', 'l', '0'), c('BRPOP', 'l', '1'), c('BLPOP', 'l', 'x'), c('BLPOP', 'l', '-1'), c('BLPOP', 'l', 'nan'), c('BLPOP', 'l', ' 1'),
    c('BLPOP', 'l', 'inf'), c('BLPOP', 'l', '1e400'), c('RPUSH', 'l', 'c', 'd'), c('BLMOVE', 'l', 'l2', 'LEFT', 'RIGHT', '0'), c('BRPOPLPUSH', 'l', 'l2', '0.5'),
    c('BLMOVE', 'l', 'l2', 'UP', 'RIGHT', 'x'), c('BLMOVE', 'l', 'l2', 'LEFT', 'RIGHT', 'x'), c('BRPOPLPUSH', 'l', 'l2', 'x'), c('BLMPOP', '0', '1', 'l2', 'LEFT', 'COUNT', '2'),
    c('BLMPOP', 'x', '1', 'l2', 'LEFT'), c('BLMPOP', '0', '1', 'l2', 'UP'), c('BLPOP', 'l'),
    multi(['BLPOP', 'l', '0'], ['BRPOP', 'l', 'l2', '0'], ['BLMOVE', 'nokey', 'l', 'LEFT', 'LEFT', '0'], ['BRPOPLPUSH', 'nokey', 'l', '0'], ['BLMPOP', '0', '1', 'nokey', 'LEFT'], ['LPUSH', 'l', 'q'], ['BLPOP', 'l', '0']),
    c('ZADD', 'z', '1', 'm'), c('BLPOP', 'z', '0'), multi(['BZPOPMIN', 'nokey', '0'], ['BZPOPMAX', 'z', '0'], ['BZMPOP', '0', '1', 'z', 'MIN']),
  ]],
  ['blocking commands inside a script: BLPOP and its kin are refused (NOSCRIPT), BLMPOP and BZMPOP run without blocking', ['l', 'z'], [
    c('RPUSH', 'l', 'a'), c('EVAL', "return redis.call('blpop', KEYS[1], 0)", '1', 'l'), c('EVAL', "return redis.call('blmpop', 0, 1, KEYS[1], 'LEFT')", '1', 'l'),
    c('EVAL', "return redis.call('blmpop', 0, 1, KEYS[1], 'LEFT')", '1', 'l'), c('EVAL', "return redis.call('bzmpop', 0, 1, KEYS[1], 'MIN')", '1', 'z'),
    c('EVAL', "return redis.call('brpoplpush', KEYS[1], 'x', 0)", '1', 'l'), c('EVAL', "return redis.call('bzpopmin', KEYS[1], 0)", '1', 'z'),
    c('EVAL', "redis.call('rpush', KEYS[1], 'a', 'b'); return redis.call('lrange', KEYS[1], 0, -1)", '1', 'l'), c('EVAL', "return redis.call('lpop', KEYS[1], 5)", '1', 'l'),
  ]],
];

const SETS: Case[] = [
  ['SADD / SREM / SCARD / SISMEMBER / SMISMEMBER / SMEMBERS; an intset answers in order', ['s', 'i'], [
    c('SADD', 'i', '5', '-3', '10', '0', '5'), c('SMEMBERS', 'i'), c('SISMEMBER', 'i', '5'), c('SISMEMBER', 'i', '05'), c('SMISMEMBER', 'i', '5', 'x', '-3'), c('SCARD', 'i'),
    c('SADD', 's', 'b', 'a', 'c', 'a'), u('SMEMBERS', 's'), c('SREM', 's', 'a', 'zz', 'a'), c('SCARD', 's'), c('SREM', 's', 'b', 'c', 'd'), c('EXISTS', 's'), c('SREM', 's', 'a'),
    c('SMEMBERS', 'nokey'), c('SCARD', 'nokey'), c('SISMEMBER', 'nokey', 'a'), c('SMISMEMBER', 'nokey', 'a', 'b'),
  ]],
  ['intset -> hashtable: a member that is no 64-bit integer ("007", "-0", 2^63), or a 513th member; it stays a hashtable', ['i', 'j', 'k'], [
    c('SADD', 'i', '1', MAX, MIN), c('SADD', 'i', '9223372036854775808'), u('SMEMBERS', 'i'), c('SREM', 'i', '9223372036854775808'), u('SMEMBERS', 'i'),
    c('SADD', 'j', '007'), c('SADD', 'j', '7'), u('SMEMBERS', 'j'), c('SADD', 'k', ...Array.from({ length: 512 }, (_, n) => String(n))), c('SCARD', 'k'), c('SADD', 'k', '512'),
    c('SREM', 'k', '512', '511'), c('SCARD', 'k'),
  ]],
  ['SMOVE: the source first, WRONGTYPE for either side, the same key, the emptied source goes', ['s', 't', 'x'], [
    c('SMOVE', 'nokey', 's', 'a'), c('SADD', 's', 'a', 'b'), c('SMOVE', 's', 't', 'a'), c('SMOVE', 's', 't', 'zz'), c('SMOVE', 's', 's', 'b'), c('SMOVE', 's', 's', 'zz'),
    c('SET', 'x', 'v'), c('SMOVE', 's', 'x', 'b'), c('SMOVE', 'x', 's', 'b'), c('SMOVE', 'nokey', 'x', 'b'), c('SMOVE', 's', 't', 'b'), c('SMOVE', 't', 'u', '1'), c('DEL', 'u'),
  ]],
  ['SSCAN / HSCAN / ZSCAN of compact values answer everything in order with cursor 0 (COUNT ignored); MATCH filters; errors', ['i', 'h', 'z'], [
    c('SADD', 'i', '3', '1', '2'), c('SSCAN', 'i', '0'), c('SSCAN', 'i', '0', 'COUNT', '1'), c('SSCAN', 'i', '0', 'MATCH', '[12]'), c('HSET', 'h', 'b', '1', 'a', '2', 'ab', '3'),
    c('HSCAN', 'h', '0'), c('HSCAN', 'h', '0', 'MATCH', 'a*', 'COUNT', '1'), c('ZADD', 'z', '2', 'b', '1', 'a', '1.5', 'c', '1e17', 'big', '-0.1', 'neg'), c('ZSCAN', 'z', '0'),
    c('ZSCAN', 'z', '0', 'MATCH', '?'), c('SSCAN', 'i', 'x'), c('SSCAN', 'i', '-1'), c('SSCAN', 'i', ' 0'), c('SSCAN', 'i', '0', 'COUNT', '0'), c('SSCAN', 'i', '0', 'COUNT', 'x'),
    c('SSCAN', 'i', '0', 'TYPE', 'set'), c('SSCAN', 'i', '0', 'MATCH'), c('HSCAN', 'nokey', '0', 'COUNT', 'x'), c('ZSCAN', 'h', '0'), c('HSCAN', 'i', '0'), c('SSCAN', 'h', 'x'),
    c('SSCAN', 'i', '18446744073709551616'), c('SSCAN', 'i', ''),
  ]],
  ['hashtable values walked by cursor: every member seen, with MATCH', ['s', 'h', 'z'], [
    c('SADD', 's', ...long(40)), { scanAll: ['SSCAN', 's'] }, { scanAll: ['SSCAN', 's', 'COUNT', '7'] }, { scanAll: ['SSCAN', 's', 'MATCH', 'm1*'] },
    c('HSET', 'h', ...long(520).flatMap((f) => [f, `v${f}`])), { scanAll: ['HSCAN', 'h', 'COUNT', '20'] }, { scanAll: ['HSCAN', 'h', 'MATCH', '*9'] },
    c('ZADD', 'z', ...long(130).flatMap((m, i) => [String(i % 7), m])), { scanAll: ['ZSCAN', 'z'] }, { scanAll: ['ZSCAN', 'z', 'MATCH', 'm12?'] },
  ]],
];

const ZSETS: Case[] = [
  ['ZADD: options, pairs, incompatible options, INCR, scores as %.17g, the first error before any write', ['z'], [
    c('ZADD', 'z', '1', 'a', '2', 'b'), c('ZADD', 'z', 'NX', '5', 'a', '3', 'c'), c('ZADD', 'z', 'XX', '6', 'a', '4', 'd'), c('ZADD', 'z', 'CH', '7', 'a', '3', 'c', '8', 'e'),
    c('ZADD', 'z', 'GT', 'CH', '1', 'a', '9', 'b'), c('ZADD', 'z', 'LT', 'CH', '1', 'a', '99', 'b'), c('ZADD', 'z', 'XX', 'GT', '100', 'b'), c('ZADD', 'z', 'NX', 'XX', '1', 'a'),
    c('ZADD', 'z', 'NX', 'GT', '1', 'a'), c('ZADD', 'z', 'GT', 'LT', '1', 'a'), c('ZADD', 'z', 'INCR', '1', 'a', '2', 'b'), c('ZADD', 'z', 'INCR', '0.1', 'a'),
    c('ZADD', 'z', 'INCR', 'NX', '1', 'a'), c('ZADD', 'z', 'INCR', 'XX', '1', 'zz'), c('ZADD', 'z', '1'), c('ZADD', 'z', '1', 'a', '2'), c('ZADD', 'z', 'x', 'a'),
    c('ZADD', 'z', '1', 'q', 'x', 'r'), c('ZADD', 'z', 'nan', 'a'), c('ZADD', 'z', 'inf', 'p', '-inf', 'n', '+inf', 'pp'), c('ZADD', 'z', 'INCR', '-inf', 'p'),
    c('ZADD', 'z', ' 1', 'a'), c('ZADD', 'z', '1e400', 'a'), c('ZADD', 'z', '1e-400', 'a'), c('ZADD', 'z', '4.9e-324', 'tiny'), c('ZADD', 'z', '0x10', 'hex'),
    c('ZADD', 'z', '1.1', 'f'), c('ZADD', 'z', '1000000000000000.25', 'tie'), c('ZADD', 'z', '-0', 'negzero'), c('ZADD', 'z', '1e21', 'e21'), c('ZADD', 'z', '0.0001', 'e4'),
    c('ZADD', 'z', '0.00001', 'e5'), c('ZADD', 'z', '123456789012345678', 'r17'), c('ZSCORE', 'z', 'f'), c('ZSCORE', 'z', 'tie'), c('ZSCORE', 'z', 'negzero'),
    c('ZMSCORE', 'z', 'e21', 'e4', 'e5', 'r17', 'zz', 'tiny', 'hex'), c('ZADD', 'nokey', 'XX', '1', 'a'), c('ZADD', 'nokey', 'XX', 'INCR', '1', 'a'),
  ]],
  ['ZINCRBY and ZADD INCR: the new score, NaN from inf - inf, a member created', ['z'], [
    c('ZINCRBY', 'z', '2.5', 'a'), c('ZINCRBY', 'z', '-1', 'a'), c('ZINCRBY', 'z', 'x', 'a'), c('ZINCRBY', 'z', 'inf', 'b'), c('ZINCRBY', 'z', '-inf', 'b'), c('ZSCORE', 'z', 'b'),
    c('ZINCRBY', 'z', 'nx', 'a'), c('ZINCRBY', 'z', '1e308', 'c'), c('ZINCRBY', 'z', '1e308', 'c'),
  ]],
  ['ZREM / ZCARD / ZSCORE / ZRANK / ZREVRANK; the emptied set goes', ['z'], [
    c('ZADD', 'z', '1', 'a', '1', 'b', '2', 'c'), c('ZRANK', 'z', 'b'), c('ZREVRANK', 'z', 'b'), c('ZRANK', 'z', 'zz'), c('ZRANK', 'nokey', 'a'), c('ZCARD', 'z'),
    c('ZREM', 'z', 'a', 'zz', 'a'), c('ZSCORE', 'z', 'a'), c('ZSCORE', 'nokey', 'a'), c('ZREM', 'z', 'b', 'c', 'd'), c('EXISTS', 'z'), c('ZCARD', 'nokey'), c('ZMSCORE', 'nokey', 'a'),
  ]],
  ['ZRANGE by rank, BYSCORE, BYLEX, REV, LIMIT, WITHSCORES and the legacy forms; option errors', ['z', 'lex'], [
    c('ZADD', 'z', '1', 'a', '2', 'b', '2', 'bb', '3', 'c', '4.5', 'd'), c('ZRANGE', 'z', '0', '-1'), c('ZRANGE', 'z', '0', '-1', 'WITHSCORES'), c('ZRANGE', 'z', '1', '2', 'REV'),
    c('ZRANGE', 'z', '-2', '100'), c('ZRANGE', 'z', '3', '1'), c('ZRANGE', 'z', '(1', '3', 'BYSCORE'), c('ZRANGE', 'z', '3', '(1', 'BYSCORE', 'REV', 'WITHSCORES'),
    c('ZRANGE', 'z', '-inf', '+inf', 'BYSCORE', 'LIMIT', '1', '2'), c('ZRANGE', 'z', '-inf', '+inf', 'BYSCORE', 'LIMIT', '1', '-1'), c('ZRANGE', 'z', '-inf', '+inf', 'BYSCORE', 'LIMIT', '-1', '2'),
    c('ZRANGE', 'z', '-inf', '+inf', 'BYSCORE', 'LIMIT', '9', '2'), c('ZRANGE', 'z', '-inf', '+inf', 'BYSCORE', 'LIMIT', '0', '0'), c('ZRANGE', 'z', '0', '1', 'LIMIT', '0', '1'),
    c('ZRANGE', 'z', '[a', '[b', 'BYLEX', 'WITHSCORES'), c('ZRANGE', 'z', 'x', '1', 'BYSCORE'), c('ZRANGE', 'z', 'x', '1'), c('ZRANGE', 'z', '0', '1', 'FOO'), c('ZRANGE', 'z', '(', '3', 'BYSCORE'),
    c('ZRANGE', 'z', '', '2', 'BYSCORE'), c('ZRANGE', 'z', ' 2', '3', 'BYSCORE'), c('ZRANGE', 'z', '2', '1e999', 'BYSCORE'), c('ZRANGE', 'z', '(2', '(2', 'BYSCORE'),
    c('ZRANGEBYSCORE', 'z', '2', '4.5', 'WITHSCORES', 'LIMIT', '0', '2'), c('ZRANGEBYSCORE', 'z', '2', '4', 'REV'), c('ZREVRANGEBYSCORE', 'z', '4.5', '2', 'LIMIT', '1', '5'),
    c('ZREVRANGE', 'z', '0', '1', 'WITHSCORES'), c('ZREVRANGE', 'z', '0', '1', 'BYSCORE'), c('ZRANGE', 'nokey', '0', '-1'), c('ZRANGE', 'nokey', 'x', '1'),
    c('ZADD', 'lex', '0', 'a', '0', 'b', '0', 'c', '0', 'd', '0', 'e'), c('ZRANGE', 'lex', '[b', '(d', 'BYLEX'), c('ZRANGE', 'lex', '-', '+', 'BYLEX', 'LIMIT', '1', '2'),
    c('ZRANGE', 'lex', '+', '-', 'BYLEX', 'REV'), c('ZRANGEBYLEX', 'lex', '(a', '[c'), c('ZREVRANGEBYLEX', 'lex', '[c', '-'), c('ZRANGEBYLEX', 'lex', 'a', 'c'),
    c('ZRANGEBYLEX', 'lex', '[a', '+x'), c('ZLEXCOUNT', 'lex', '[b', '+'), c('ZLEXCOUNT', 'lex', '-', '-'), c('ZCOUNT', 'z', '(1', '+inf'), c('ZCOUNT', 'z', 'x', '1'), c('ZCOUNT', 'nokey', '0', '1'),
  ]],
  ['ZREMRANGEBYSCORE / BYRANK / BYLEX (the semaphore cleanup); ZPOPMIN / ZPOPMAX / ZMPOP', ['z', 'z2'], [
    c('ZADD', 'z', '1', 'a', '2', 'b', '3', 'c', '4', 'd', '5', 'e'), c('ZREMRANGEBYSCORE', 'z', '-inf', '1'), c('ZREMRANGEBYSCORE', 'z', '(4', 'x'), c('ZREMRANGEBYRANK', 'z', '-1', '-1'),
    c('ZREMRANGEBYRANK', 'z', 'x', '1'), c('ZREMRANGEBYLEX', 'z', '[b', '[b'), c('ZREMRANGEBYLEX', 'z', 'b', 'c'), c('ZREMRANGEBYSCORE', 'nokey', '0', '1'), c('ZPOPMIN', 'z'),
    c('ZADD', 'z', '7', 'x', '8', 'y', '9', 'w'), c('ZPOPMAX', 'z', '2'), c('ZPOPMIN', 'z', '0'), c('ZPOPMIN', 'z', '-1'), c('ZPOPMIN', 'z', '1', '2'), c('ZPOPMIN', 'nokey'),
    c('ZPOPMIN', 'nokey', 'x'), c('ZPOPMAX', 'z', '10'), c('ZADD', 'z2', '1', 'a', '2', 'b'), c('ZMPOP', '2', 'z', 'z2', 'MAX', 'COUNT', '5'), c('ZMPOP', '1', 'z2', 'MIN'),
    c('ZMPOP', '1', 'z', 'LEFT'), c('ZMPOP', '0', 'z', 'MIN'), c('ZREMRANGEBYRANK', 'nokey', '0', '-1'),
  ]],
  ['listpack -> skiplist: a 129th member, or a member over 64 bytes (also the first); it stays a skiplist', ['z', 'z2'], [
    c('ZADD', 'z', ...long(128).flatMap((m, i) => [String(i), m])), c('ZCARD', 'z'), c('ZADD', 'z', '200', 'last'), c('ZREM', 'z', 'last', 'm0'), c('ZRANGE', 'z', '0', '2', 'WITHSCORES'),
    c('ZADD', 'z2', '1', 'x'.repeat(65)), c('ZADD', 'z2', '2', 'short'), c('ZREM', 'z2', 'x'.repeat(65)), c('ZADD', 'z2', '1', 'y'.repeat(64)),
  ]],
];

const ACROSS: Case[] = [
  ['WRONGTYPE across every pair of types, TYPE of each, and DEL / EXISTS / EXPIRE on each', ['s', 'h', 'l', 'st', 'z'], [
    c('SET', 's', 'v'), c('HSET', 'h', 'f', 'v'), c('RPUSH', 'l', 'a'), c('SADD', 'st', 'a'), c('ZADD', 'z', '1', 'a'),
    ...['s', 'h', 'l', 'st', 'z'].flatMap((k) => [c('TYPE', k), c('GET', k), c('HGET', k, 'f'), c('LPUSH', k, 'x'), c('LLEN', k), c('SADD', k, 'x'), c('SCARD', k), c('ZADD', k, '1', 'x'), c('ZCARD', k), c('INCR', k), c('LRANGE', k, '0', '-1'), u('SMEMBERS', k), c('ZRANGE', k, '0', '-1'), c('HGETALL', k)]),
    c('EXISTS', 's', 'h', 'l', 'st', 'z', 'nokey'), c('PEXPIRE', 'l', '90000'), c('PEXPIRE', 'st', '90000'), c('PEXPIRE', 'z', '90000'), c('PERSIST', 'l'), c('DEL', 's', 'h', 'l'), c('UNLINK', 'st', 'z'),
  ]],
  ['OBJECT ENCODING / REFCOUNT / FREQ / HELP, DBSIZE, TOUCH, KEYS, SCAN with MATCH and TYPE', ['a', 'n', 'big'], [
    c('SET', 'a', 'v'), c('SET', 'n', '123'), c('SET', 'big', 'x'.repeat(45)), c('OBJECT', 'ENCODING', 'a'), c('OBJECT', 'ENCODING', 'n'), c('OBJECT', 'REFCOUNT', 'n'),
    c('OBJECT', 'REFCOUNT', 'a'), c('SET', 'n', '10000'), c('OBJECT', 'REFCOUNT', 'n'), c('SET', 'n', '-1'), c('OBJECT', 'REFCOUNT', 'n'), c('SET', 'n', '12345678901234567890'),
    c('OBJECT', 'ENCODING', 'n'), c('OBJECT', 'ENCODING', 'nokey'), c('OBJECT', 'FREQ', 'a'), c('OBJECT', 'FREQ', 'nokey'), c('OBJECT', 'HELP'), c('object', 'help'), c('OBJECT', 'FOO', 'a'),
    c('OBJECT', 'ENCODING'), c('OBJECT', 'HELP', 'x'), c('INCR', 'n'), c('SET', 'n', '5'), c('INCR', 'n'), c('OBJECT', 'REFCOUNT', 'n'), c('DBSIZE'), c('TOUCH', 'a', 'a', 'nokey'),
    u('KEYS', '*'), u('KEYS', '?'), u('KEYS', '[ab]*'), u('KEYS', 'a'), u('KEYS', 'b*g'), c('HSET', 'h', 'f', 'v'), c('RPUSH', 'l', 'x'), { scanAll: ['SCAN'] }, { scanAll: ['SCAN', 'TYPE', 'string'] },
    { scanAll: ['SCAN', 'TYPE', 'LIST'] }, { scanAll: ['SCAN', 'MATCH', '*g*', 'COUNT', '1'] }, { scanAll: ['SCAN', 'TYPE', 'nosuchtype'] }, c('SCAN', '0', 'COUNT', '0'), c('SCAN', 'x'),
    c('SCAN', '0', 'MATCH'), c('SCAN', '0', 'FOO', 'bar'), c('DEL', 'h', 'l'),
  ]],
  ['glob patterns: escapes, classes, ranges (also reversed), negation, and a class left open', ['a'], [
    c('MSET', 'a', '1', 'ab', '2', 'a*c', '3', 'a]', '4', 'b-1', '5', 'x\\y', '6', 'héllo', '7'), u('KEYS', 'a\\*c'), u('KEYS', '[^a]*'), u('KEYS', '[a-b]*'), u('KEYS', '[b-a]*'),
    u('KEYS', 'a[]]'), u('KEYS', 'a['), u('KEYS', '[a'), u('KEYS', 'x\\\\y'), u('KEYS', 'h?llo'), u('KEYS', 'h??llo'), u('KEYS', '*\\'), u('KEYS', '[\\]]*'), u('KEYS', '**b**'),
    c('MSET', 'k'), c('MSET', 'k', 'v', 'k2'), c('MSETNX', 'a', 'x', 'new', 'y'), c('MSETNX', 'new', 'y', 'new2', 'z'), c('DEL', 'ab', 'a*c', 'a]', 'b-1', 'x\\y', 'héllo', 'new', 'new2'),
  ]],
  ['hash reads: HMGET, HKEYS, HVALS, HSTRLEN, HMSET; a hash turned hashtable by a long value (also a new HINCRBY field) or a 513th field', ['h', 'h2', 'h3'], [
    c('HMSET', 'h', 'a', '1', 'b', 'héllo'), c('HMGET', 'h', 'a', 'zz', 'b'), c('HMGET', 'nokey', 'a'), c('HKEYS', 'h'), c('HVALS', 'h'), c('HSTRLEN', 'h', 'b'), c('HSTRLEN', 'h', 'zz'),
    c('HMSET', 'h', 'a'), c('HSET', 'h2', 'f', 'x'.repeat(65)), c('HDEL', 'h2', 'f'), c('HSET', 'h3', ...long(512).flatMap((f) => [f, '1'])), c('HSET', 'h3', 'one-more', '1'), c('HLEN', 'h3'), u('HKEYS', 'h3'),
    c('HSETNX', 'h', 'long', 'x'.repeat(65)), c('HINCRBY', 'h2', 'y'.repeat(70), '1'), c('DEL', 'h3'),
  ]],
  ['TIME, SELECT, ECHO', [], [
    c('SELECT', '0'), c('SELECT', '16'), c('SELECT', '-1'), c('SELECT', 'x'), c('SELECT', '4294967296'), c('TIME', 'x'), c('DBSIZE', 'x'),
  ]],
];

withRealRedis('the model against redis-server 7: lists, sets, sorted sets, keys', (conformance) => {
  for (const [title, keys, steps] of [...LISTS, ...SETS, ...ZSETS, ...ACROSS]) {
    it(title, async () => {
      const found = await conformance().run(steps, keys);
      expect(found, found.slice(0, 6).map((d) => `step ${d.step} ${d.what}: model ${JSON.stringify(d.model)}, real ${JSON.stringify(d.real)}`).join('\n')).toEqual([]);
    });
  }
});
