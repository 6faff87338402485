/**
 * redis.call inside the built-in scripts (script-call.ts): a failed call ends the script with
 * "<error> script: <sha>, on @user_script:<line>.", keeping the writes before it, as
 * redis-server 7.0.15 does (test/conformance runs the same on a real server).
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine/simulation.js';
import { LocalClock } from '../../../src/world/clock.js';
import { RedisNode, type UserScriptRunner } from '../../../src/world/redis/node.js';
import { compareAndDelete, fencedAcquire, redissonAcquire, redissonUnlock, sha1 } from '../../../src/world/redis/scripts.js';
import { scriptCall } from '../../../src/world/redis/script-call.js';
import { ask } from './ask.js';

function node(userScripts: UserScriptRunner | null = null) {
  const sim = new Simulation(1);
  return new RedisNode('redis-0', sim, new LocalClock(sim), userScripts);
}
const text = (r: unknown): unknown => (r !== null && typeof r === 'object' && !Array.isArray(r) ? String(r) : r);
const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
const unlock = (n: RedisNode, key: string, owner: string) => ask(n, 'EVAL', redissonUnlock.lua, '2', key, 'ch', '0', '30000', owner);

describe('script errors (script_lua.c luaRedisGenericCommand)', () => {
  it('a Redisson unlock of a string key is WRONGTYPE at line 1 and keeps the key', () => {
    const n = node();
    ask(n, 'SET', 'lock', 'v');
    expect(text(unlock(n, 'lock', 'u:1'))).toBe(`${WRONGTYPE} script: ${sha1(redissonUnlock.lua)}, on @user_script:1.`);
    expect(ask(n, 'GET', 'lock')).toBe('v');
  });

  it('the same unlock of its own hash lock releases it (1)', () => {
    const n = node();
    expect(ask(n, 'EVAL', redissonAcquire.lua, '1', 'lock', '30000', 'u:1')).toBe(null);
    expect(unlock(n, 'lock', 'u:1')).toBe(1);
    expect(ask(n, 'EXISTS', 'lock')).toBe(0);
  });

  it('compare-and-delete of a hash key is WRONGTYPE at line 1; of a string it deletes my token', () => {
    const n = node();
    ask(n, 'HSET', 'h', 'f', '1');
    expect(text(ask(n, 'EVAL', compareAndDelete.lua, '1', 'h', 'x'))).toBe(`${WRONGTYPE} script: ${sha1(compareAndDelete.lua)}, on @user_script:1.`);
    ask(n, 'SET', 'k', 'x');
    expect(ask(n, 'EVAL', compareAndDelete.lua, '1', 'k', 'x')).toBe(1);
  });

  it('a failure at line 3 keeps the write of line 2 (no rollback): the fenced acquire with a hash counter', () => {
    const n = node();
    ask(n, 'HSET', 'fence', 'f', '1');
    expect(text(ask(n, 'EVAL', fencedAcquire.lua, '2', 'lock', 'fence', 'tok', '30000'))).toBe(
      `${WRONGTYPE} script: ${sha1(fencedAcquire.lua)}, on @user_script:3.`,
    );
    expect(ask(n, 'GET', 'lock')).toBe('tok');
  });

  it('an invalid lease fails at line 2 before anything is written', () => {
    const n = node();
    expect(text(ask(n, 'EVAL', fencedAcquire.lua, '2', 'lock', 'fence', 'tok', '0'))).toBe(
      `ERR invalid expire time in 'set' command script: ${sha1(fencedAcquire.lua)}, on @user_script:2.`,
    );
    expect(ask(n, 'EXISTS', 'lock', 'fence')).toBe(0);
  });

  it('a fencing token of 2^63-1 comes back through a Lua number as -2^63; one below 2^53 comes back exact', () => {
    const n = node();
    ask(n, 'SET', 'fence', '9223372036854775806');
    expect(ask(n, 'EVAL', fencedAcquire.lua, '2', 'lock', 'fence', 'tok', '30000')).toBe(-9223372036854775808n);
    ask(n, 'DEL', 'lock');
    ask(n, 'SET', 'fence', '41');
    expect(ask(n, 'EVAL', fencedAcquire.lua, '2', 'lock', 'fence', 'tok', '30000')).toBe(42);
  });
});

describe('the script cache (eval.c)', () => {
  it('EVALSHA of a script never loaded on this node is NOSCRIPT; after SCRIPT LOAD it runs', () => {
    const n = node();
    const sha = sha1(compareAndDelete.lua);
    expect(text(ask(n, 'EVALSHA', sha, '1', 'k', 'v'))).toBe('NOSCRIPT No matching script. Please use EVAL.');
    expect(ask(n, 'SCRIPT', 'EXISTS', sha, 'abc')).toEqual([0, 0]);
    expect(ask(n, 'SCRIPT', 'LOAD', compareAndDelete.lua)).toBe(sha);
    expect(ask(n, 'SCRIPT', 'EXISTS', sha.toUpperCase(), 'abc')).toEqual([1, 0]);
    expect(ask(n, 'EVALSHA', sha, '1', 'k', 'v')).toBe(0);
  });

  it('SCRIPT FLUSH and a restart forget the scripts; another node never knew them', () => {
    const n = node();
    const other = node();
    const sha = sha1(compareAndDelete.lua);
    ask(n, 'EVAL', compareAndDelete.lua, '1', 'k', 'v');
    expect(ask(n, 'EVALSHA', sha, '1', 'k', 'v')).toBe(0);
    expect(text(ask(other, 'EVALSHA', sha, '1', 'k', 'v'))).toBe('NOSCRIPT No matching script. Please use EVAL.');
    expect(ask(n, 'SCRIPT', 'FLUSH')).toBe('OK');
    expect(text(ask(n, 'EVALSHA', sha, '1', 'k', 'v'))).toBe('NOSCRIPT No matching script. Please use EVAL.');
    ask(n, 'SCRIPT', 'LOAD', compareAndDelete.lua);
    n.crash();
    n.restart(true);
    expect(text(ask(n, 'EVALSHA', sha, '1', 'k', 'v'))).toBe('NOSCRIPT No matching script. Please use EVAL.');
  });

  it('a body that is not a built-in script runs on the user script runner the node was built with, whose redis.call errors carry the line', () => {
    expect(text(ask(node(), 'EVAL', 'return 1', '0'))).toBe('ERR lock-sim runs only its built-in scripts here (no Lua VM attached to this node)');
    const n = node((ctx, body) => {
      expect(body).toBe('return 1');
      return ctx.sha;
    });
    expect(ask(n, 'EVAL', 'return 1', '0')).toBe('e0e1f9fabfc9d4800c877a703b823ac0578ff8db');
  });

  it('redis.call refuses an unknown command, a wrong arity and a NOSCRIPT command (WAIT) with their script texts', () => {
    const n = node((ctx, _body, _keys, argv) => scriptCall(ctx, 2, argv));
    const sha = sha1('user');
    expect(text(ask(n, 'EVAL', 'user', '0', 'NOPE'))).toBe(`ERR Unknown Redis command called from script script: ${sha}, on @user_script:2.`);
    expect(text(ask(n, 'EVAL', 'user', '0', 'GET'))).toBe(`ERR Wrong number of args calling Redis command from script script: ${sha}, on @user_script:2.`);
    expect(text(ask(n, 'EVAL', 'user', '0', 'WAIT', '0', '0'))).toBe(`ERR This Redis command is not allowed from script script: ${sha}, on @user_script:2.`);
    expect(ask(n, 'EVAL', 'user', '0', 'SET', 'k', 'v')).toBe('OK');
    expect(ask(n, 'EVAL', 'user', '0', 'PUBLISH', 'ch', 'm')).toBe(0);
  });
});
