/**
 * Hand-written command sequences for every edge the model claims to get exactly right, run on
 * the model and on a real redis-server 7 (harness.ts): SET's options and their syntax errors,
 * the EXPIRE family's NX/XX/GT/LT, 64-bit integers and overflow, WRONGTYPE (also inside the
 * built-in scripts), EVAL/EVALSHA/SCRIPT and NOSCRIPT, MULTI/EXEC, arity and unknown commands,
 * PUBLISH, WAIT, INFO. Every reply and the keyspace after every step must agree.
 */
import { expect, it } from 'vitest';
import { compareAndDelete, fencedAcquire, redissonAcquire, redissonRenew, redissonRenewMany, redissonUnlock, redissonUnlockLatch, sha1 } from '../../src/world/redis/scripts.js';
import type { Step } from './harness.js';
import { withRealRedis } from './setup.js';

const c = (...args: string[]): Step => ({ args });
const ms = (...args: string[]): Step => ({ args, tol: 'ms' });
const secs = (...args: string[]): Step => ({ args, tol: 's' });
const multi = (...commands: string[][]): Step => ({ multi: commands });
const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';
/** An absolute deadline `minutes` whole minutes from the sequence's start, in ms and in s. */
const atMs = (start: number, minutes: number): string => String(start + minutes * 60_000);
const atS = (start: number, minutes: number): string => String(Math.floor(start / 1000) + minutes * 60);
const channel = 'redisson_lock__channel:{h}';

type Case = [title: string, keys: string[], steps: Step[] | ((startMs: number) => Step[])];

const CASES: Case[] = [
  ['SET NX / XX, and both at once is a syntax error', ['k', 'k2'], [
    c('SET', 'k', 'v'), c('SET', 'k', 'w', 'NX'), c('SET', 'k', 'w', 'XX'), c('SET', 'k2', 'v', 'XX'), c('SET', 'k2', 'v', 'NX'),
    c('SET', 'k', 'x', 'NX', 'XX'), c('SET', 'k', 'x', 'XX', 'NX'), c('SET', 'k', 'x', 'nx', 'nx'), c('set', 'k', 'y', 'xx'),
  ]],
  ['SET GET: the old value, nil, WRONGTYPE on a hash (and then nothing is written); with NX / XX', ['k', 'h', 'k3'], [
    c('SET', 'k', 'v', 'GET'), c('SET', 'k', 'w', 'GET'), c('HSET', 'h', 'f', '1'), c('SET', 'h', 'v', 'GET'),
    c('SET', 'k', 'z', 'NX', 'GET'), c('SET', 'k3', 'z', 'XX', 'GET'), c('SET', 'k', 'z', 'GET', 'XX'), c('SET', 'k', 'q', 'get', 'get'),
    c('SET', 'h', 'v'), c('TYPE', 'h'),
  ]],
  ['SET expiry options: a repeated one (last wins), mixed ones and KEEPTTL are syntax errors', ['k'], [
    ms('SET', 'k', 'v', 'PX', '90000', 'PX', '150000'), ms('PTTL', 'k'), c('SET', 'k', 'v', 'EX', '90', 'EX', '150'), ms('PTTL', 'k'),
    c('SET', 'k', 'v', 'PX', '90000', 'EX', '90'), c('SET', 'k', 'v', 'EX', '90', 'PXAT', '1'), c('SET', 'k', 'v', 'KEEPTTL', 'PX', '90000'),
    c('SET', 'k', 'v', 'PX', '90000', 'KEEPTTL'), c('SET', 'k', 'v', 'PX'), c('SET', 'k', 'v', 'NX', 'EX'), c('SET', 'k', 'v', 'FOO'),
    c('SET', 'k', 'v', 'px', '150000', 'nx'), c('SET', 'k', 'v', 'Px', '210000', 'xX'),
  ]],
  ['SET expiry numbers: not an integer, not positive, 64-bit overflow; a syntax error wins over a bad number', ['k'], [
    c('SET', 'k', 'v', 'PX', 'abc'), c('SET', 'k', 'v', 'PX', 'abc', 'NX', 'XX'), c('SET', 'k', 'v', 'PX', '0'), c('SET', 'k', 'v', 'PX', '-1'),
    c('SET', 'k', 'v', 'EX', '0'), c('SET', 'k', 'v', 'EXAT', '-1'), c('SET', 'k', 'v', 'PX', '1.5'), c('SET', 'k', 'v', 'PX', '-0'),
    c('SET', 'k', 'v', 'PX', '090000'), c('SET', 'k', 'v', 'EX', MAX), c('SET', 'k', 'v', 'EX', '9223372036854775'),
    c('SET', 'k', 'v', 'PX', MAX), c('SET', 'k', 'v', 'PX', '9223372036854775808'), c('SET', 'k', 'v', 'EXAT', '9223372036854776'),
  ]],
  ['SET EXAT / PXAT: in the past the key is set and gone; far ahead it lives', ['k', 'k2', 'k3'], (start) => [
    c('SET', 'k', 'v', 'EXAT', '1'), c('GET', 'k'), c('SET', 'k2', 'v', 'PXAT', atMs(start, -2)), c('EXISTS', 'k2'),
    ms('SET', 'k3', 'v', 'PXAT', atMs(start, 2)), ms('PTTL', 'k3'), c('SET', 'k3', 'v', 'EXAT', atS(start, 3)), secs('TTL', 'k3'),
    c('SET', 'k', 'v', 'PXAT', MAX), ms('PTTL', 'k'),
  ]],
  ['SET KEEPTTL keeps the TTL; a plain SET clears it; SETNX answers 1 / 0', ['k', 'k2'], [
    c('SET', 'k', 'v', 'PX', '90000'), c('SET', 'k', 'w', 'KEEPTTL'), ms('PTTL', 'k'), c('SET', 'k', 'x'), c('PTTL', 'k'),
    c('SET', 'k2', 'v', 'KEEPTTL'), c('PTTL', 'k2'), c('SETNX', 'k2', 'w'), c('SETNX', 'k3', 'w'), c('DEL', 'k3'), c('SETNX', 'k'),
  ]],
  ['PEXPIRE / EXPIRE NX XX GT LT with relative times', ['k', 'h'], [
    c('PEXPIRE', 'k', '90000'), c('SET', 'k', 'v'), c('PEXPIRE', 'k', '90000', 'XX'), c('PEXPIRE', 'k', '90000', 'GT'),
    ms('PEXPIRE', 'k', '150000', 'LT'), ms('PTTL', 'k'), c('PEXPIRE', 'k', '90000', 'NX'), c('PEXPIRE', 'k', '210000', 'LT'),
    c('PEXPIRE', 'k', '90000', 'LT'), ms('PTTL', 'k'), c('PEXPIRE', 'k', '90000', 'GT'), c('EXPIRE', 'k', '150', 'gt'), ms('PTTL', 'k'),
    c('EXPIRE', 'k', '210', 'XX', 'GT'), c('EXPIRE', 'k', '90', 'XX', 'LT'), secs('TTL', 'k'),
    c('HSET', 'h', 'f', '1'), c('PEXPIRE', 'h', '90000', 'NX'), c('PEXPIRE', 'h', '90000', 'NX'), ms('PTTL', 'h'),
  ]],
  ['PEXPIREAT / EXPIREAT: ties on the same deadline, GT and LT refuse an equal one', ['k'], (start) => [
    c('SET', 'k', 'v'), c('PEXPIREAT', 'k', atMs(start, 2)), c('PEXPIREAT', 'k', atMs(start, 2), 'GT'), c('PEXPIREAT', 'k', atMs(start, 2), 'LT'),
    c('PEXPIREAT', 'k', atMs(start, 3), 'GT'), ms('PTTL', 'k'), c('EXPIREAT', 'k', atS(start, 1), 'LT'), secs('TTL', 'k'), c('EXPIREAT', 'k', atS(start, 1), 'XX'),
    c('PEXPIREAT', 'k', MAX), ms('PTTL', 'k'), c('EXPIREAT', 'k', '1'), c('EXISTS', 'k'),
  ]],
  ['EXPIRE family errors: options before the number, incompatible pairs, overflow even for a missing key', ['k'], [
    c('SET', 'k', 'v'), c('PEXPIRE', 'k', '100', 'NX', 'XX'), c('PEXPIRE', 'k', '100', 'NX', 'GT'), c('PEXPIRE', 'k', '100', 'lt', 'NX'),
    c('PEXPIRE', 'k', '100', 'GT', 'LT'), c('PEXPIRE', 'k', '100', 'Foo'), c('PEXPIRE', 'k', 'abc', 'Foo'), c('PEXPIRE', 'k', 'abc'),
    c('PEXPIRE', 'k', '1.5'), c('PEXPIRE', 'k', '-0'), c('EXPIRE', 'k', MAX), c('EXPIRE', 'k', MIN), c('EXPIRE', 'k', '9223372036854775'),
    c('PEXPIRE', 'k', MAX), c('PEXPIRE', 'missing', MAX), c('EXPIRE', 'missing', '9223372036854775'), c('PEXPIREAT', 'k', '9223372036854775808'),
    c('EXPIRE', 'k'), c('PEXPIRE'), c('TTL', 'k'), c('PTTL', 'k', 'x'),
  ]],
  ['a deadline already reached deletes the key and answers 1 (negative, zero, past absolute)', ['k', 'k2', 'k3', 'k4'], [
    c('SET', 'k', 'v'), c('PEXPIRE', 'k', '-1'), c('SET', 'k2', 'v'), c('EXPIRE', 'k2', '0'), c('SET', 'k3', 'v'), c('EXPIREAT', 'k3', '1'),
    c('SET', 'k4', 'v'), c('PEXPIRE', 'k4', MIN), c('PEXPIRE', 'k4', '-1'),
  ]],
  ['TTL and PTTL: -2 missing, -1 no TTL, seconds rounded', ['k', 'h'], [
    c('TTL', 'k'), c('PTTL', 'k'), c('SET', 'k', 'v'), c('TTL', 'k'), c('SET', 'k', 'v', 'EX', '90'), secs('TTL', 'k'), ms('PTTL', 'k'),
    c('HSET', 'h', 'f', 'v'), c('TTL', 'h'),
  ]],
  ['INCR: 64-bit counters, overflow, and values that are no canonical integer ("-0", "007", " 1", "1.0", "")', ['n', 'h'], [
    c('INCR', 'n'), c('SET', 'n', '9223372036854775806'), c('INCR', 'n'), c('INCR', 'n'), c('GET', 'n'),
    c('SET', 'n', MIN), c('INCR', 'n'), c('SET', 'n', '9223372036854775808'), c('INCR', 'n'), c('SET', 'n', '-0'), c('INCR', 'n'),
    c('SET', 'n', '007'), c('INCR', 'n'), c('SET', 'n', ' 1'), c('INCR', 'n'), c('SET', 'n', '1.0'), c('INCR', 'n'), c('SET', 'n', ''), c('INCR', 'n'),
    c('SET', 'n', '+1'), c('INCR', 'n'), c('SET', 'n', '-1'), c('INCR', 'n'), c('INCR', 'n'), c('HSET', 'h', 'f', '1'), c('INCR', 'h'), c('INCR', 'n', 'n'),
  ]],
  ['INCR keeps the TTL', ['n'], [c('SET', 'n', '5', 'PX', '90000'), c('INCR', 'n'), ms('PTTL', 'n')]],
  // The model adds in doubles while every operand has at most 12 digits, in 64 bits beyond.
  ['INCR and HINCRBY across 12 and 13 digits, negative, down to zero', ['n', 'h'], [
    c('SET', 'n', '999999999998'), c('INCR', 'n'), c('INCR', 'n'), c('INCR', 'n'), c('GET', 'n'), c('SET', 'n', '-999999999999'), c('INCR', 'n'),
    c('SET', 'n', '-1'), c('INCR', 'n'), c('GET', 'n'),
    c('HINCRBY', 'h', 'f', '999999999999'), c('HINCRBY', 'h', 'f', '999999999999'), c('HINCRBY', 'h', 'f', '1'), c('HINCRBY', 'h', 'f', '-1999999999999'),
    c('HGET', 'h', 'f'), c('HINCRBY', 'h', 'g', '1000000000000'), c('HINCRBY', 'h', 'g', '-1'), c('HGET', 'h', 'g'), c('HINCRBY', 'h', 'g', '-999999999999'),
  ]],
  ['HINCRBY: 64-bit, overflow both ways, the increment is read before the type, a field that is no integer', ['h', 'k'], [
    c('HINCRBY', 'h', 'f', MAX), c('HINCRBY', 'h', 'f', '1'), c('HINCRBY', 'h', 'f', MIN), c('HINCRBY', 'h', 'g', MIN), c('HINCRBY', 'h', 'g', '-1'),
    c('HINCRBY', 'h', 'f', 'abc'), c('HINCRBY', 'h', 'f', '9223372036854775808'), c('HINCRBY', 'h', 'f', '-0'), c('HSET', 'h', 's', 'abc'),
    c('HINCRBY', 'h', 's', '1'), c('HSET', 'h', 'z', '-0'), c('HINCRBY', 'h', 'z', '1'), c('HSET', 'h', 'y', '007'), c('HINCRBY', 'h', 'y', '1'),
    c('SET', 'k', 'v'), c('HINCRBY', 'k', 'f', '1'), c('HINCRBY', 'k', 'f', 'x'), c('HINCRBY', 'h', 'f'), c('HGETALL', 'h'),
  ]],
  ['hash commands: HSET counts new fields, HSETNX, HGETALL in insertion order, HLEN, HEXISTS, HDEL deletes the emptied key', ['h'], [
    c('HGETALL', 'h'), c('HLEN', 'h'), c('HSET', 'h', 'a', '1', 'b', '2', 'a', '3'), c('HSET', 'h', 'c', '4', 'a', '5'), c('HGETALL', 'h'),
    c('HSETNX', 'h', 'a', '9'), c('HSETNX', 'h', 'd', '9'), c('HSETNX', 'h2', 'x', '1'), c('DEL', 'h2'), c('HEXISTS', 'h', 'a'), c('HEXISTS', 'h', 'z'),
    c('HGET', 'h', 'b'), c('HGET', 'h', 'z'), c('HGET', 'missing', 'z'), c('HDEL', 'h', 'a', 'a', 'z'), c('HSET', 'h', 'a', '6'), c('HGETALL', 'h'), c('HLEN', 'h'),
    c('HDEL', 'h', 'a', 'b', 'c', 'd'), c('EXISTS', 'h'), c('HDEL', 'h', 'a'),
  ]],
  ['hash command arity: HSET with an odd list, HGET, HSETNX, HDEL, HLEN, HGETALL', ['h'], [
    c('HSET', 'h'), c('HSET', 'h', 'f'), c('HSET', 'h', 'f', 'v', 'g'), c('HGET', 'h'), c('HSETNX', 'h', 'f'), c('HDEL', 'h'), c('HLEN'),
    c('HGETALL', 'h', 'x'), c('HEXISTS', 'h'), c('HINCRBY', 'h', 'f'),
  ]],
  ['WRONGTYPE: string commands on a hash, hash commands on a string; a plain SET overwrites either', ['k', 'h'], [
    c('SET', 'k', 'v'), c('HSET', 'h', 'f', '1'), c('GET', 'h'), c('HGET', 'k', 'f'), c('HSET', 'k', 'f', '1'), c('HSETNX', 'k', 'f', '1'),
    c('HGETALL', 'k'), c('HLEN', 'k'), c('HEXISTS', 'k', 'f'), c('HDEL', 'k', 'f'), c('TYPE', 'k'), c('TYPE', 'h'), c('TYPE', 'nothing'),
    c('PEXPIRE', 'h', '90000'), c('EXISTS', 'k', 'h', 'k', 'x'), c('DEL', 'k', 'k', 'h'), c('SET', 'h', 'v'),
  ]],
  ['SETEX / PSETEX: the number first (not an integer, not positive, overflow), then the write with its TTL', ['k', 'h'], [
    ms('SETEX', 'k', '90', 'v'), ms('PTTL', 'k'), ms('PSETEX', 'k', '150000', 'w'), ms('PTTL', 'k'), c('GET', 'k'), c('SETEX', 'k', 'x', 'v'),
    c('SETEX', 'k', '0', 'v'), c('PSETEX', 'k', '-5', 'v'), c('SETEX', 'k', MAX, 'v'), c('PSETEX', 'k', MAX, 'v'), c('setex', 'k', '1.5', 'v'),
    c('HSET', 'h', 'f', '1'), ms('SETEX', 'h', '90', 'v'), c('TYPE', 'h'), c('SETEX', 'k', '90'), c('PSETEX', 'k'),
  ]],
  ['GETSET / GETDEL / MGET / STRLEN: old values, nil, WRONGTYPE on a hash (MGET: nil)', ['k', 'h', 'k2'], [
    c('GETSET', 'k', 'v'), c('SET', 'k', 'w', 'PX', '90000'), c('GETSET', 'k', 'x'), c('PTTL', 'k'), c('HSET', 'h', 'f', '1'), c('GETSET', 'h', 'v'),
    c('GETDEL', 'k'), c('GETDEL', 'k'), c('GETDEL', 'h'), c('SET', 'k2', 'héllo'), c('MGET', 'k', 'h', 'k2', 'k2'), c('STRLEN', 'k2'), c('STRLEN', 'k'),
    c('STRLEN', 'h'), c('GETDEL'), c('MGET'),
  ]],
  ['GETEX: EX / PX / EXAT / PXAT / PERSIST, one at most; the key before the number; a past deadline deletes', ['k', 'h', 'k2'], (start) => [
    c('GETEX', 'k'), c('SET', 'k', 'v'), ms('GETEX', 'k', 'PX', '90000'), ms('PTTL', 'k'), c('GETEX', 'k', 'PERSIST'), c('PTTL', 'k'),
    ms('GETEX', 'k', 'EX', '150'), ms('PTTL', 'k'), c('GETEX', 'k', 'EX', '10', 'PX', '100'), c('GETEX', 'k', 'PERSIST', 'EX', '10'), c('GETEX', 'k', 'FOO'),
    c('GETEX', 'k', 'PX'), c('GETEX', 'k', 'PX', 'abc'), c('GETEX', 'k', 'PX', '0'), c('GETEX', 'nokey', 'PX', 'abc'), c('HSET', 'h', 'f', '1'),
    c('GETEX', 'h'), c('GETEX', 'h', 'PX', '1000'), c('GETEX', 'h', 'PX', 'abc'), ms('GETEX', 'k', 'PXAT', atMs(start, 2)), ms('PTTL', 'k'), c('GETEX', 'k', 'EXAT', '1'), c('EXISTS', 'k'),
    c('SET', 'k2', 'v'), c('GETEX', 'k2', 'persist'),
  ]],
  ['INCRBY / DECR / DECRBY: 64-bit bounds, a bad increment, WRONGTYPE, the TTL kept', ['k', 'h'], [
    c('INCRBY', 'k', '5'), c('DECR', 'k'), c('DECRBY', 'k', '10'), c('INCRBY', 'k', 'x'), c('DECRBY', 'k', MIN), c('SET', 'k', MAX), c('INCRBY', 'k', '1'),
    c('SET', 'k', MIN), c('DECR', 'k'), c('DECRBY', 'k', '1'), c('SET', 'k', '10', 'PX', '90000'), c('DECRBY', 'k', '3'), ms('PTTL', 'k'), c('SET', 'k', '1.5'),
    c('DECR', 'k'), c('HSET', 'h', 'f', '1'), c('INCRBY', 'h', '1'), c('DECR', 'h'), c('INCRBY', 'k'),
  ]],
  ['PERSIST / EXPIRETIME / PEXPIRETIME / UNLINK / ECHO', ['k', 'k2', 'h'], (start) => [
    c('PERSIST', 'k'), c('EXPIRETIME', 'k'), c('PEXPIRETIME', 'k'), c('SET', 'k', 'v'), c('PERSIST', 'k'), c('EXPIRETIME', 'k'),
    c('SET', 'k', 'v', 'PXAT', atMs(start, 5)), c('PEXPIRETIME', 'k'), c('EXPIRETIME', 'k'),
    // EXPIRETIME rounds to the nearest second: a deadline at .700 and one at .300.
    c('SET', 'k', 'v', 'PXAT', String(Math.floor(start / 1000) * 1000 + 300_700)), c('EXPIRETIME', 'k'),
    c('SET', 'k', 'v', 'PXAT', String(Math.floor(start / 1000) * 1000 + 300_300)), c('EXPIRETIME', 'k'), c('PERSIST', 'k'), c('PEXPIRETIME', 'k'),
    c('HSET', 'h', 'f', '1'), c('PEXPIRE', 'h', '90000'), c('PERSIST', 'h'), c('SET', 'k2', 'v'), c('UNLINK', 'k', 'k2', 'nokey', 'k'), c('UNLINK'),
    c('ECHO', 'hello'), c('ECHO'), c('ECHO', 'a', 'b'),
  ]],
  ['arity errors and unknown commands (with the first arguments quoted, cut at 128 characters)', [], [
    c('GET'), c('GET', 'a', 'b'), c('SET', 'k'), c('DEL'), c('EXISTS'), c('INCR'), c('TYPE'), c('PING', 'a', 'b'), c('PING', 'hello'), c('PING'),
    c('FOO'), c('foo', 'a', 'b'), c('NOSUCHCMD', 'x'.repeat(200), 'y'), c('nosuch', ...Array.from({ length: 40 }, (_, i) => `arg${i}`)),
    c('SETNX', 'a'), c('PUBLISH', 'ch'), c('WAIT', '0'), c('EVAL', 'return 1'), c('EVALSHA'), c('SCRIPT'), c('MULTI', 'x'), c('EXEC'), c('DISCARD'),
  ]],
  ['EVALSHA: NOSCRIPT until loaded (a text not 40 long at once; numkeys checked before the cache), SCRIPT LOAD / EXISTS / FLUSH', [], [
    c('EVALSHA', 'abc', '0'), c('EVALSHA', 'abc', 'x'), c('EVALSHA', sha1(compareAndDelete.lua), '1', 'k', 'v'), c('EVALSHA', sha1(compareAndDelete.lua), 'x'),
    c('EVALSHA', sha1(compareAndDelete.lua), '2', 'k'), c('EVALSHA', sha1(compareAndDelete.lua), '-1'),
    c('SCRIPT', 'LOAD', compareAndDelete.lua), c('SCRIPT', 'EXISTS', sha1(compareAndDelete.lua), sha1(redissonUnlock.lua), sha1(compareAndDelete.lua).toUpperCase()),
    c('EVALSHA', sha1(compareAndDelete.lua).toUpperCase(), '1', 'k', 'v'), c('script', 'flush'), c('EVALSHA', sha1(compareAndDelete.lua), '1', 'k', 'v'),
    c('EVAL', redissonRenew.lua, '1', 'h', '30000', 'o'), c('EVALSHA', sha1(redissonRenew.lua), '1', 'h', '30000', 'o'), c('SCRIPT', 'FLUSH', 'ASYNC'),
    c('SCRIPT', 'FLUSH', 'SYNC'), c('SCRIPT', 'FLUSH', 'x'), c('SCRIPT', 'FLUSH', 'SYNC', 'x'), c('SCRIPT', 'FOO'), c('SCRIPT', 'LOAD'), c('SCRIPT', 'EXISTS'),
    c('EVAL', compareAndDelete.lua, 'x'), c('EVAL', compareAndDelete.lua, '2', 'k'), c('EVAL', compareAndDelete.lua, '-1'), c('EVAL', compareAndDelete.lua, '1'),
  ]],
  ['compare-and-delete: deletes only my token; a hash key is WRONGTYPE at line 1', ['k', 'h'], [
    c('SET', 'k', 'mine', 'PX', '90000'), c('EVAL', compareAndDelete.lua, '1', 'k', 'other'), c('EVAL', compareAndDelete.lua, '1', 'k', 'mine'),
    c('EVAL', compareAndDelete.lua, '1', 'k', 'mine'), c('HSET', 'h', 'f', '1'), c('EVAL', compareAndDelete.lua, '1', 'h', 'mine'),
  ]],
  ['Redisson acquire / renew / unlock on a hash, with reentry; on a string key each refuses with WRONGTYPE and keeps the key', ['h', 'k'], [
    c('EVAL', redissonAcquire.lua, '1', 'h', '90000', 'u:1'), ms('EVAL', redissonAcquire.lua, '1', 'h', '90000', 'u:2'), c('EVAL', redissonAcquire.lua, '1', 'h', '150000', 'u:1'),
    c('EVAL', redissonRenew.lua, '1', 'h', '210000', 'u:1'), c('EVAL', redissonRenew.lua, '1', 'h', '210000', 'u:2'),
    c('EVAL', redissonUnlock.lua, '2', 'h', channel, '0', '90000', 'u:2'), c('EVAL', redissonUnlock.lua, '2', 'h', channel, '0', '90000', 'u:1'),
    c('EVAL', redissonUnlock.lua, '2', 'h', channel, '0', '90000', 'u:1'),
    c('SET', 'k', 'v'), c('EVAL', redissonUnlock.lua, '2', 'k', channel, '0', '90000', 'u:1'), c('EVAL', redissonAcquire.lua, '1', 'k', '90000', 'u:1'),
    c('EVAL', redissonRenew.lua, '1', 'k', '90000', 'u:1'), c('EVAL', redissonRenewMany.lua, '2', 'h', 'k', '90000', 'u:1', 'u:1'),
  ]],
  ['Redisson unlock with a latch; the shared watchdog; a bad latch PX fails after the writes before it', ['h', 'l', 'l2'], [
    c('EVAL', redissonAcquire.lua, '1', 'h', '90000', 'u:1'), c('EVAL', redissonAcquire.lua, '1', 'h', '90000', 'u:1'),
    c('EVAL', redissonRenewMany.lua, '2', 'h', 'h2', '150000', 'u:1', 'u:1'),
    c('EVAL', redissonUnlockLatch.lua, '3', 'h', channel, 'l', '0', '90000', 'u:1', 'PUBLISH', '150000'),
    c('EVAL', redissonUnlockLatch.lua, '3', 'h', channel, 'l', '0', '90000', 'u:1', 'PUBLISH', '150000'),
    c('EVAL', redissonUnlockLatch.lua, '3', 'h', channel, 'l2', '0', '90000', 'u:1', 'publish', '0'), c('EXISTS', 'h'),
    c('EVAL', redissonAcquire.lua, '1', 'h', '90000', 'u:1'), c('EVAL', redissonUnlockLatch.lua, '3', 'h', channel, 'l2', '0', '90000', 'u:1', 'PUBLISH', 'abc'),
  ]],
  ['fenced acquire: SET PX then INCR; a bad lease fails at line 2, a hash counter at line 3 after the SET', ['k', 'n', 'k2'], [
    c('EVAL', fencedAcquire.lua, '2', 'k', 'n', 'tok', '90000'), c('EVAL', fencedAcquire.lua, '2', 'k', 'n', 'tok', '90000'), c('DEL', 'k'),
    c('EVAL', fencedAcquire.lua, '2', 'k', 'n', 'tok', '0'), c('EVAL', fencedAcquire.lua, '2', 'k', 'n', 'tok', 'x'), c('HSET', 'n', 'f', '1'),
    c('EVAL', fencedAcquire.lua, '2', 'k2', 'n', 'tok', '90000'), c('SET', 'n', MAX), c('DEL', 'k2'), c('EVAL', fencedAcquire.lua, '2', 'k2', 'n', 'tok', '90000'),
  ]],
  ['integers a script returns pass through a Lua number: 2^63-1 comes back as -2^63; tonumber of a latch value', ['k', 'n', 'h', 'l'], [
    c('SET', 'n', '9223372036854775806'), c('EVAL', fencedAcquire.lua, '2', 'k', 'n', 'tok', '90000'), c('DEL', 'k'), c('SET', 'n', '9007199254740992'),
    c('EVAL', fencedAcquire.lua, '2', 'k', 'n', 'tok', '90000'),
    ...['-9223372036854775808', '1.5', '-2.5', 'abc', ' 1 ', '1e2', '', '7'].flatMap((latch) => [
      c('SET', 'l', latch), c('EVAL', redissonUnlockLatch.lua, '3', 'h', channel, 'l', '0', '90000', 'u:1', 'PUBLISH', '90000'),
    ]),
  ]],
  ['MULTI/EXEC: replies per command, a run-time error does not stop the rest, a queue-time error aborts all', ['k', 'n', 'h'], [
    multi(['SET', 'k', 'v'], ['INCR', 'n'], ['INCR', 'k'], ['SET', 'n', 'x', 'PX', '0'], ['HSET', 'h', 'f', '1'], ['GET', 'h']),
    multi(['SET', 'k', 'w'], ['FOO', 'bar'], ['INCR', 'n']), multi(['SET', 'k', 'w'], ['GET']), multi(['SET', 'k', 'w'], ['MULTI'], ['GET', 'k']),
    multi(), multi(['WAIT', '0', '0'], ['WAIT', '1', '0'], ['PUBLISH', 'ch', 'm'], ['PING']),
    multi(['SCRIPT', 'LOAD', compareAndDelete.lua], ['EVALSHA', sha1(compareAndDelete.lua), '1', 'k', 'w'], ['EVAL', compareAndDelete.lua, '1', 'h', 'w']),
    multi(['SCRIPT', 'FOO'], ['GET', 'k']), multi(['SET', 'k', 'v', 'PX', '90000'], ['PEXPIRE', 'k', '150000', 'GT'], ['TTL', 'k']),
  ]],
  ['PUBLISH, WAIT and INFO on a primary without replicas', [], [
    c('PUBLISH', 'ch', 'm'), c('WAIT', '0', '0'), c('WAIT', '1', '20'), c('WAIT', 'x', '0'), c('WAIT', '0', '-1'), c('WAIT', '0', 'x'), c('WAIT', '0', '1.5'),
    c('INFO', 'replication'), c('INFO'), c('INFO', 'nosuchsection'), c('INFO', 'server', 'replication'),
  ]],
];

withRealRedis('the model against redis-server 7: hand-written sequences', (conformance) => {
  for (const [title, keys, steps] of CASES) {
    it(title, async () => {
      expect(await conformance().run(steps, keys)).toEqual([]);
    });
  }
});
