/**
 * The compare-and-delete and compare-and-set commands by server version, each "unknown on an
 * older server" next to "works on the one that has it". Expected replies on redis-7.0 are
 * measured (test/conformance/server-versions.test.ts runs them on redis-server 7.0.15); the
 * others come from the documentation and sources cited in src/world/redis/compare-commands.ts
 * (redis.io DELEX / DIGEST / SET for 8.4, valkey 9.0 tests/unit/type/string.tcl for IFEQ and
 * DELIFEQ).
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine/simulation.js';
import { luaScriptRunner } from '../../../src/own-code/lua-runner.js';
import type { ServerVersion } from '../../../src/spec/redis.js';
import { LocalClock } from '../../../src/world/clock.js';
import { executeKeyspaceCommand } from '../../../src/world/redis/commands.js';
import { Keyspace } from '../../../src/world/redis/keyspace.js';
import { RedisNode } from '../../../src/world/redis/node.js';
import type { RedisReply } from '../../../src/world/redis/reply.js';
import type { TransactionReplies } from '../../../src/world/redis/transaction.js';
import { ask } from './ask.js';

const SYNTAX = 'ERR syntax error';
const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
/** redis.io DIGEST's example. */
const HELLO_DIGEST = 'b6acb9d84a38ff74';

function on(server: ServerVersion) {
  const ks = new Keyspace(() => 1_700_000_000_000);
  ks.server = server;
  /** The reply as redis-cli shows it: errors as their text. */
  const run = (...args: string[]): unknown => {
    const r: RedisReply = executeKeyspaceCommand(ks, args, 'r1');
    return r !== null && typeof r === 'object' && !Array.isArray(r) ? String(r) : r;
  };
  return { ks, run };
}

const unknown = (name: string, ...args: string[]): string => `ERR unknown command '${name}', with args beginning with: ${args.map((a) => `'${a}' `).join('')}`;

describe('DELEX (redis 8.4 db.c delexCommand)', () => {
  it('on redis-7.0 and redis-7.4 it is an unknown command, and the key stays', () => {
    for (const server of ['redis-7.0', 'redis-7.4', 'valkey-8.1', 'valkey-9.0'] as const) {
      const { run } = on(server);
      run('SET', 'lock', 'tok');
      expect(run('DELEX', 'lock', 'IFEQ', 'tok')).toBe(unknown('DELEX', 'lock', 'IFEQ', 'tok'));
      expect(run('GET', 'lock')).toBe('tok');
    }
  });

  it('on redis-8.4 IFEQ deletes its own value (1) and nothing else (0)', () => {
    const { run } = on('redis-8.4');
    run('SET', 'lock', 'tok');
    expect(run('DELEX', 'lock', 'IFEQ', 'other')).toBe(0);
    expect(run('GET', 'lock')).toBe('tok');
    expect(run('delex', 'lock', 'ifeq', 'tok')).toBe(1);
    expect(run('EXISTS', 'lock')).toBe(0);
    expect(run('DELEX', 'lock', 'IFEQ', 'tok')).toBe(0);
  });

  it('IFNE deletes when the value differs; IFDEQ / IFDNE compare DIGEST\'s hex, in either case', () => {
    const { run } = on('redis-8.4');
    run('SET', 'k', 'Hello world');
    expect(run('DELEX', 'k', 'IFNE', 'Hello world')).toBe(0);
    expect(run('DELEX', 'k', 'IFDNE', HELLO_DIGEST)).toBe(0);
    expect(run('DELEX', 'k', 'IFDEQ', '0000000000000000')).toBe(0);
    expect(run('DELEX', 'k', 'IFDEQ', HELLO_DIGEST.toUpperCase())).toBe(1);
    run('SET', 'k', 'v');
    expect(run('DELEX', 'k', 'IFNE', 'w')).toBe(1);
  });

  it('without a condition it deletes any key as DEL does; with one, another type is WRONGTYPE', () => {
    const { run } = on('redis-8.4');
    run('HSET', 'h', 'f', '1');
    expect(run('DELEX', 'h', 'IFEQ', '1')).toBe(WRONGTYPE);
    expect(run('DELEX', 'h')).toBe(1);
    expect(run('DELEX', 'h')).toBe(0);
  });

  it('refuses a bad shape before looking at the key: a lone condition, an unknown one, extra words, a digest that is not 16 hex digits', () => {
    const { run } = on('redis-8.4');
    expect(run('DELEX')).toBe("ERR wrong number of arguments for 'delex' command");
    expect(run('DELEX', 'nokey', 'IFEQ')).toBe(SYNTAX);
    expect(run('DELEX', 'nokey', 'IFGT', 'v')).toBe(SYNTAX);
    expect(run('DELEX', 'nokey', 'IFEQ', 'v', 'extra')).toBe(SYNTAX);
    expect(run('DELEX', 'nokey', 'IFDEQ', 'abc')).toBe('ERR must be exactly 16 hexadecimal characters');
    expect(run('DELEX', 'nokey', 'IFDNE', 'g000000000000000')).toBe('ERR must be exactly 16 hexadecimal characters');
    expect(run('DELEX', 'nokey', 'IFEQ', 'v')).toBe(0);
  });
});

describe('DIGEST (redis 8.4)', () => {
  it('is unknown on redis-7.0, and on redis-8.4 the 16-digit XXH3 of the value', () => {
    expect(on('redis-7.0').run('DIGEST', 'k')).toBe(unknown('DIGEST', 'k'));
    const { run } = on('redis-8.4');
    expect(run('DIGEST', 'k')).toBe(null);
    run('SET', 'k', 'Hello world');
    expect(run('DIGEST', 'k')).toBe(HELLO_DIGEST);
    run('RPUSH', 'l', 'x');
    expect(run('DIGEST', 'l')).toBe(WRONGTYPE);
  });
});

describe('SET IFEQ / IFNE / IFDEQ / IFDNE', () => {
  it('on redis-7.0 and redis-7.4 IFEQ is a syntax error and nothing is written', () => {
    for (const server of ['redis-7.0', 'redis-7.4'] as const) {
      const { run } = on(server);
      run('SET', 'k', 'a');
      expect(run('SET', 'k', 'b', 'IFEQ', 'a')).toBe(SYNTAX);
      expect(run('GET', 'k')).toBe('a');
    }
  });

  it('on redis-8.4 and the Valkeys IFEQ sets only over an equal value, never creates, and keeps the expiry options', () => {
    for (const server of ['redis-8.4', 'valkey-8.1', 'valkey-9.0'] as const) {
      const { run } = on(server);
      expect(run('SET', 'k', 'b', 'IFEQ', 'a')).toBe(null);
      expect(run('EXISTS', 'k')).toBe(0);
      run('SET', 'k', 'a');
      expect(run('SET', 'k', 'b', 'IFEQ', 'x')).toBe(null);
      expect(run('SET', 'k', 'b', 'IFEQ', 'a', 'PX', '5000')).toBe('OK');
      expect([run('GET', 'k'), run('PTTL', 'k')]).toEqual(['b', 5000]);
    }
  });

  it('IFEQ excludes NX and XX; with GET it answers the old value either way; another type is WRONGTYPE', () => {
    const { run } = on('valkey-8.1');
    expect(run('SET', 'k', 'v', 'IFEQ', 'a', 'NX')).toBe(SYNTAX);
    expect(run('SET', 'k', 'v', 'XX', 'IFEQ', 'a')).toBe(SYNTAX);
    expect(run('SET', 'k', 'v', 'IFEQ')).toBe(SYNTAX);
    run('SET', 'k', 'a');
    expect(run('SET', 'k', 'b', 'IFEQ', 'x', 'GET')).toBe('a');
    expect(run('SET', 'k', 'b', 'IFEQ', 'a', 'GET')).toBe('a');
    expect(run('GET', 'k')).toBe('b');
    run('SADD', 's', 'x');
    expect(run('SET', 's', 'v', 'IFEQ', 'x')).toBe(WRONGTYPE);
    expect(run('SET', 's', 'v', 'IFEQ', 'x', 'GET')).toBe(WRONGTYPE);
  });

  it('IFNE, IFDEQ and IFDNE exist on redis-8.4 only: a missing key is created by IFNE and IFDNE', () => {
    for (const server of ['valkey-8.1', 'valkey-9.0'] as const) expect(on(server).run('SET', 'k', 'v', 'IFNE', 'a')).toBe(SYNTAX);
    const { run } = on('redis-8.4');
    expect(run('SET', 'k', 'v', 'IFDEQ', HELLO_DIGEST)).toBe(null);
    expect(run('SET', 'k', 'Hello world', 'IFNE', 'a')).toBe('OK');
    expect(run('SET', 'k', 'x', 'IFNE', 'Hello world')).toBe(null);
    expect(run('SET', 'k', 'x', 'IFDEQ', HELLO_DIGEST)).toBe('OK');
    expect(run('SET', 'k', 'y', 'IFDNE', HELLO_DIGEST)).toBe('OK');
    expect(run('SET', 'k', 'z', 'IFDEQ', 'nothex')).toBe('ERR must be exactly 16 hexadecimal characters');
    expect(run('GET', 'k')).toBe('y');
    expect(run('SET', 'n', 'v', 'IFDNE', HELLO_DIGEST)).toBe('OK');
  });
});

describe('DELIFEQ (valkey 9.0 t_string.c delifeqCommand)', () => {
  it('is unknown on valkey-8.1 and redis-8.4, and on valkey-9.0 deletes only an equal value', () => {
    for (const server of ['valkey-8.1', 'redis-8.4', 'redis-7.0'] as const) expect(on(server).run('DELIFEQ', 'k', 'v')).toBe(unknown('DELIFEQ', 'k', 'v'));
    const { run } = on('valkey-9.0');
    expect(run('DELIFEQ', 'k', 'test')).toBe(0);
    run('SET', 'k', 'nope');
    expect(run('DELIFEQ', 'k', 'test')).toBe(0);
    expect(run('GET', 'k')).toBe('nope');
    expect(run('DELIFEQ', 'k', 'nope')).toBe(1);
    expect(run('EXISTS', 'k')).toBe(0);
    run('SADD', 's', 'test');
    expect(run('DELIFEQ', 's', 'test')).toBe(WRONGTYPE);
    expect(run('DELIFEQ', 's')).toBe("ERR wrong number of arguments for 'delifeq' command");
  });
});

describe('through the node: scripts and transactions see the same commands', () => {
  function node(server: ServerVersion): RedisNode {
    const sim = new Simulation(1);
    const n = new RedisNode('redis-0', sim, new LocalClock(sim), luaScriptRunner);
    n.keyspace.server = server;
    return n;
  }
  const SCRIPT = "return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])";

  it('redis.call of DELEX on redis-7.0 ends the script with the unknown-command error and deletes nothing', () => {
    const n = node('redis-7.0');
    ask(n, 'SET', 'lock', 'tok');
    expect(String(ask(n, 'EVAL', SCRIPT, '1', 'lock', 'tok'))).toMatch(/^ERR Unknown Redis command called from script script: [0-9a-f]{40}, on @user_script:1\.$/);
    expect(ask(n, 'GET', 'lock')).toBe('tok');
  });

  it('... and on redis-8.4 it deletes the lock (1)', () => {
    const n = node('redis-8.4');
    ask(n, 'SET', 'lock', 'tok');
    expect(ask(n, 'EVAL', SCRIPT, '1', 'lock', 'tok')).toBe(1);
    expect(ask(n, 'EXISTS', 'lock')).toBe(0);
  });

  it('MULTI with DELEX aborts on redis-7.0 (refused when queued) and runs on redis-8.4', () => {
    const exec = (n: RedisNode): TransactionReplies => {
      let out: TransactionReplies | undefined;
      n.executeTransaction([['SET', 'k', 'v'], ['DELEX', 'k', 'IFEQ', 'v']], 'r1', (r) => (out = r));
      return out!;
    };
    const old = node('redis-7.0');
    expect(String(exec(old).exec)).toBe('EXECABORT Transaction discarded because of previous errors.');
    expect(ask(old, 'EXISTS', 'k')).toBe(0);
    expect(exec(node('redis-8.4')).exec).toEqual(['OK', 1]);
  });

  it('a replica refuses DELEX as a write (READONLY) where the server has it', () => {
    const n = node('redis-8.4');
    n.role = 'replica';
    expect(String(ask(n, 'DELEX', 'k', 'IFEQ', 'v'))).toMatch(/^READONLY/);
  });
});
