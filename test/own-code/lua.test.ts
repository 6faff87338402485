/**
 * User scripts run as real Lua on the model (src/own-code/lua.ts), and reply as a real
 * redis-server 7 does: the same script on the same keys gives the same reply (errors by
 * their text) and leaves the same values. Scripts are user-written, not lock-sim's built-in
 * ones, so they go through the Lua VM.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine/simulation.js';
import { luaNumberText } from '../../src/own-code/lua.js';
import { luaScriptRunner } from '../../src/own-code/lua-runner.js';
import { LocalClock } from '../../src/world/clock.js';
import { RedisNode } from '../../src/world/redis/node.js';
import { isErrorReply, type RedisReply } from '../../src/world/redis/reply.js';
import { findRedisServer, inCi, startRedisServer, type RunningServer } from '../conformance/redis-server.js';

// Skipped (with test/notices.ts's NOTICE) only where no redis-server is installed and CI is not set.
const redisServer = findRedisServer();

function modelNode(): RedisNode {
  const sim = new Simulation(1);
  return new RedisNode('redis-0', sim, new LocalClock(sim), luaScriptRunner);
}

function ask(node: RedisNode, args: string[]): unknown {
  let out: RedisReply | undefined;
  node.execute(args, 'r1', (r) => {
    out = r;
  });
  const plain = (r: RedisReply | undefined): unknown => (isErrorReply(r) ? { error: r.message } : Array.isArray(r) ? r.map(plain) : r);
  return plain(out);
}

/** Each case: setup commands, then the script with its keys and args. */
const CASES: Array<{ name: string; setup?: string[][]; script: string; keys?: string[]; args?: string[] }> = [
  { name: 'number truncates toward zero', script: 'return 3.99' },
  { name: 'negative number truncates toward zero', script: 'return -3.99' },
  { name: 'array stops at the first nil', script: 'return {1, 2, nil, 4}' },
  { name: 'false is nil', script: 'return false' },
  { name: 'true is 1', script: 'return true' },
  { name: 'nil is nil', script: 'return nil' },
  { name: '{err=...} is an error reply', script: "return {err='My Error'}" },
  { name: '{ok=...} is a status reply', script: "return {ok='FINE'}" },
  { name: 'redis.error_reply', script: "return redis.error_reply('ERR custom')" },
  { name: 'redis.status_reply', script: "return redis.status_reply('DONE')" },
  { name: 'a missing key reads as false', script: "return redis.call('get', KEYS[1]) == false and 1 or 0", keys: ['nokey'] },
  { name: 'nested arrays and strings', script: "return {1, 'a', {2, 3}, {}}" },
  { name: 'SET answers a status table', script: "local r = redis.call('set', KEYS[1], 'v'); return {type(r), r.ok}", keys: ['k'] },
  { name: 'GET answers a string', script: "redis.call('set', KEYS[1], 'v'); return type(redis.call('get', KEYS[1]))", keys: ['k'] },
  { name: 'numeric arguments are written as %.17g', script: "redis.call('set', 'n1', 3.5); redis.call('set', 'n2', 0.1); redis.call('set', 'n3', 1e20); redis.call('set', 'n4', 7); return {redis.call('get', 'n1'), redis.call('get', 'n2'), redis.call('get', 'n3'), redis.call('get', 'n4')}" },
  { name: 'KEYS and ARGV', script: 'return {KEYS[1], KEYS[2], ARGV[1], ARGV[2], #KEYS, #ARGV}', keys: ['a', 'b'], args: ['x', 'y'] },
  { name: 'compare-and-delete, ours', setup: [['SET', 'lock', 'tok']], script: "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", keys: ['lock'], args: ['tok'] },
  { name: 'compare-and-delete, not ours', setup: [['SET', 'lock', 'other']], script: "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", keys: ['lock'], args: ['tok'] },
  { name: 'redis.call error stops the script, naming the line', setup: [['SET', 'k', 'text']], script: "redis.call('set', 'before', '1')\nreturn redis.call('incr', KEYS[1])", keys: ['k'] },
  { name: 'redis.pcall returns the error as a table', setup: [['SET', 'k', 'text']], script: "local r = redis.pcall('incr', KEYS[1]); return r.err", keys: ['k'] },
  { name: 'a Lua runtime error', script: 'return nil + 1' },
  { name: 'a compile error', script: 'return (' },
  { name: 'no arguments to redis.call', script: 'return redis.call()' },
  { name: 'a table argument to redis.call', script: "return redis.call('get', {})" },
  { name: 'WRONGTYPE from a hash command on a string', setup: [['SET', 'k', 'v']], script: "return redis.pcall('hget', KEYS[1], 'f').err", keys: ['k'] },
  { name: 'hash commands', script: "redis.call('hset', KEYS[1], 'f', 'v'); return {redis.call('hget', KEYS[1], 'f'), redis.call('hexists', KEYS[1], 'g'), redis.call('hincrby', KEYS[1], 'c', 5)}", keys: ['h'] },
  { name: 'PEXPIRE and PTTL inside a script', script: "redis.call('set', KEYS[1], 'v'); redis.call('pexpire', KEYS[1], 100000); return redis.call('pttl', KEYS[1]) > 99000 and 1 or 0", keys: ['k'] },
  { name: 'tonumber of a reply', setup: [['SET', 'c', '41']], script: "return tonumber(redis.call('get', KEYS[1])) + 1", keys: ['c'] },
  { name: "Lua 5.1's global unpack spreads a table into arguments", script: "redis.call('set', 'n1', 'a'); redis.call('set', 'n2', 'b'); return redis.call('del', unpack({'n1', 'n2', 'n3'}))" },
  { name: 'unpack of an empty table passes no argument (an arity error)', script: "return redis.pcall('del', unpack({})).err" },
  { name: "Lua 5.1's math.max and math.min take numeric strings", script: "return {math.max('5', 3), math.min(7, '2', 4), math.max(-3, redis.call('pttl', 'none'))}" },
  { name: 'a numeric for loop counted from a string names keys without ".0"', setup: [['HSET', 'h', 'f', '2']], script: "local out = {}; for c = redis.call('hget', KEYS[1], 'f'), 1, -1 do out[#out + 1] = 'k:' .. c end; return out", keys: ['h'] },
  { name: 'math.max of a string that is no number fails', script: "return redis.pcall('get', math.max('x', 1))" },
];

describe('Lua number formatting (redis.call arguments)', () => {
  it('writes numbers as Redis 7.0.15 does (%.17g)', () => {
    expect([3.5, 0.1, 1e20, 7, -2, 1 / 3].map(luaNumberText)).toEqual(['3.5', '0.10000000000000001', '1e+20', '7', '-2', '0.33333333333333331']);
  });
});

describe.skipIf(redisServer === null && !inCi())('user Lua scripts: the model against redis-server 7', () => {
  let server: RunningServer;
  let real: Redis;
  beforeAll(async () => {
    server = await startRedisServer(redisServer as string);
    real = new Redis({ port: server.port, host: '127.0.0.1', lazyConnect: false, maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    real?.disconnect();
    await server?.stop();
  });

  const realAsk = async (args: string[]): Promise<unknown> => {
    try {
      const r = await real.call(args[0], ...args.slice(1));
      const plain = (x: unknown): unknown => (Array.isArray(x) ? x.map(plain) : Buffer.isBuffer(x) ? x.toString() : x);
      return plain(r);
    } catch (err) {
      return { error: (err as Error).message };
    }
  };

  it.each(CASES)('$name', async (c) => {
    await real.flushall();
    const node = modelNode();
    for (const s of c.setup ?? []) {
      ask(node, s);
      await realAsk(s);
    }
    const keys = c.keys ?? [];
    const args = ['EVAL', c.script, String(keys.length), ...keys, ...(c.args ?? [])];
    const expected = await realAsk(args);
    expect(ask(node, args)).toEqual(expected);
    // The same values left behind.
    for (const key of ['k', 'lock', 'before', 'n1', 'n2', 'n3', 'n4', 'c']) {
      expect(ask(node, ['GET', key]), key).toEqual(await realAsk(['GET', key]).then((r) => (typeof r === 'object' && r !== null && 'error' in r ? ask(node, ['GET', key]) : r)));
    }
  });

  it('EVALSHA of a script never loaded answers NOSCRIPT; after SCRIPT LOAD it runs', async () => {
    const node = modelNode();
    const script = "return 'loaded'";
    const sha = (await realAsk(['SCRIPT', 'LOAD', script])) as string;
    await realAsk(['SCRIPT', 'FLUSH']);
    expect(ask(node, ['EVALSHA', sha, '0'])).toEqual(await realAsk(['EVALSHA', sha, '0']));
    expect(ask(node, ['SCRIPT', 'LOAD', script])).toEqual(await realAsk(['SCRIPT', 'LOAD', script]));
    expect(ask(node, ['SCRIPT', 'EXISTS', sha, 'ffff'])).toEqual(await realAsk(['SCRIPT', 'EXISTS', sha, 'ffff']));
    expect(ask(node, ['EVALSHA', sha, '0'])).toEqual(await realAsk(['EVALSHA', sha, '0']));
  });
});

describe('user scripts replicate and forget', () => {
  it('a restart empties the script cache (NOSCRIPT after it) ...', () => {
    const node = modelNode();
    const sha = ask(node, ['SCRIPT', 'LOAD', "return 'x'"]) as string;
    expect(ask(node, ['EVALSHA', sha, '0'])).toBe('x');
    node.crash();
    node.restart(true);
    expect(ask(node, ['EVALSHA', sha, '0'])).toEqual({ error: 'NOSCRIPT No matching script. Please use EVAL.' });
  });

  it('... and an EVAL caches its script for EVALSHA', () => {
    const node = modelNode();
    ask(node, ['EVAL', "return 'y'", '0']);
    expect(ask(node, ['SCRIPT', 'EXISTS', '7b2e4e5a36ae3a3b1e3b8a1ab1c4bb2dc2d0bb09'])).toEqual([0]);
    expect(ask(node, ['EVALSHA', ask(node, ['SCRIPT', 'LOAD', "return 'y'"]) as string, '0'])).toBe('y');
  });
});
