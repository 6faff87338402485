/**
 * The built-in scripts' native twins, case by case, with the replies their Lua gives on
 * redis-server 7.0.15 (Debian 12 package, redis-cli on loopback; the differential test runs
 * the same Lua in ioredis-mock on random sequences). Return conventions are Redisson's and
 * the canonical compare-and-delete's (https://redis.io/docs/latest/develop/use/patterns/distributed-locks/).
 */
import { describe, expect, it } from 'vitest';
import { Keyspace } from '../../../src/world/redis/keyspace.js';
import { isErrorReply, type RedisReply } from '../../../src/world/redis/reply.js';
import {
  BUILTIN_SCRIPTS,
  compareAndDelete,
  fencedAcquire,
  builtinScriptByText,
  redissonAcquire,
  redissonRenew,
  redissonRenewMany,
  redissonUnlock,
  redissonUnlockLatch,
  runBuiltin,
  sha1,
  type BuiltinScript,
} from '../../../src/world/redis/scripts.js';
import { executeKeyspaceCommand } from '../../../src/world/redis/commands.js';

const T0 = 1_700_000_000_000;

function world() {
  const clock = { ms: T0 };
  const ks = new Keyspace(() => clock.ms);
  const published: string[] = [];
  const run = (script: BuiltinScript, keys: string[], argv: string[], tag = 'req-1'): RedisReply =>
    runBuiltin(script, { keyspace: ks, publish: (c, m) => (published.push(`${c}:${m}`), 3), tag, sha: sha1(script.lua), writeRefusal: () => null }, keys, argv);
  const cmd = (...args: string[]): RedisReply => executeKeyspaceCommand(ks, args, 'setup');
  return { clock, ks, run, cmd, published };
}

describe('compare-and-delete', () => {
  it('deletes the key when it still holds my token (1), leaves another token alone (0)', () => {
    const { run, cmd } = world();
    cmd('SET', 'lock', 'mine', 'PX', '1000');
    expect(run(compareAndDelete, ['lock'], ['theirs'])).toBe(0);
    expect(cmd('GET', 'lock')).toBe('mine');
    expect(run(compareAndDelete, ['lock'], ['mine'])).toBe(1);
    expect(cmd('EXISTS', 'lock')).toBe(0);
    expect(run(compareAndDelete, ['lock'], ['mine'])).toBe(0);
  });
});

describe('fenced-acquire (a lock and its fencing token in one step)', () => {
  it('takes a free lock with the lease and answers the next token; a held lock answers 0 and mints nothing', () => {
    const { run, cmd, ks } = world();
    expect(run(fencedAcquire, ['lock', 'fence'], ['tokA', '5000'])).toBe(1);
    expect(ks.rawGet('lock')).toMatchObject({ value: 'tokA', expireAtMs: T0 + 5000, holderTag: 'req-1' });
    expect(run(fencedAcquire, ['lock', 'fence'], ['tokB', '5000'])).toBe(0);
    expect(cmd('GET', 'fence')).toBe('1');
    cmd('DEL', 'lock');
    expect(run(fencedAcquire, ['lock', 'fence'], ['tokB', '5000'], 'req-2')).toBe(2);
    expect(ks.rawGet('fence')?.expireAtMs).toBe(null);
  });
});

describe('redisson-acquire (RedissonLock tryLockInnerAsync)', () => {
  it('takes a free lock: nil, the thread counted once, the lease as TTL', () => {
    const { run, cmd } = world();
    expect(run(redissonAcquire, ['lock'], ['30000', 'uuid:1'])).toBe(null);
    expect(cmd('HGET', 'lock', 'uuid:1')).toBe('1');
    expect(cmd('PTTL', 'lock')).toBe(30_000);
  });

  it('re-enters for the same thread: nil, counted twice, the lease renewed', () => {
    const { run, cmd, clock } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    clock.ms += 10_000;
    expect(run(redissonAcquire, ['lock'], ['30000', 'uuid:1'])).toBe(null);
    expect(cmd('HGET', 'lock', 'uuid:1')).toBe('2');
    expect(cmd('PTTL', 'lock')).toBe(30_000);
  });

  it("answers another thread the lock's PTTL and changes nothing", () => {
    const { run, cmd, clock } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    clock.ms += 10_000;
    expect(run(redissonAcquire, ['lock'], ['30000', 'uuid:2'])).toBe(20_000);
    expect(cmd('HEXISTS', 'lock', 'uuid:2')).toBe(0);
    expect(cmd('PTTL', 'lock')).toBe(20_000);
  });
});

describe('redisson-renew (the 3.x watchdog)', () => {
  it("renews the holder's lease (1); another thread, or a lock gone, gets 0 and nothing is created", () => {
    const { run, cmd, clock } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    clock.ms += 10_000;
    expect(run(redissonRenew, ['lock'], ['30000', 'uuid:2'])).toBe(0);
    expect(cmd('PTTL', 'lock')).toBe(20_000);
    expect(run(redissonRenew, ['lock'], ['30000', 'uuid:1'])).toBe(1);
    expect(cmd('PTTL', 'lock')).toBe(30_000);
    expect(run(redissonRenew, ['gone'], ['30000', 'uuid:1'])).toBe(0);
    expect(cmd('EXISTS', 'gone')).toBe(0);
  });
});

describe('redisson-renew-many (the shared watchdog, 3.44.0 on)', () => {
  it('answers 1 or 0 per lock, in order, and renews only the ones still held by their thread', () => {
    const { run, cmd, clock } = world();
    run(redissonAcquire, ['a'], ['30000', 'uuid:1']);
    run(redissonAcquire, ['b'], ['30000', 'uuid:2']);
    clock.ms += 10_000;
    expect(run(redissonRenewMany, ['a', 'b', 'c'], ['30000', 'uuid:1', 'uuid:1', 'uuid:1'])).toEqual([1, 0, 0]);
    expect(cmd('PTTL', 'a')).toBe(30_000);
    expect(cmd('PTTL', 'b')).toBe(20_000);
    expect(run(redissonRenewMany, ['b', 'a'], ['5000', 'uuid:2', 'uuid:1'])).toEqual([1, 1]);
    expect(cmd('PTTL', 'b')).toBe(5000);
  });
});

describe('redisson-unlock (3.11.0)', () => {
  const unlock = (run: ReturnType<typeof world>['run'], thread: string) =>
    run(redissonUnlock, ['lock', 'channel'], ['unlock-msg', '30000', thread]);

  it('not the holder: nil, nothing changes, nobody is told', () => {
    const { run, cmd, published } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    expect(unlock(run, 'uuid:2')).toBe(null);
    expect(cmd('HGET', 'lock', 'uuid:1')).toBe('1');
    expect(published).toEqual([]);
  });

  it('re-entered: 0, one level released, the lease reset, nobody told', () => {
    const { run, cmd, clock, published } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    clock.ms += 10_000;
    expect(unlock(run, 'uuid:1')).toBe(0);
    expect(cmd('HGET', 'lock', 'uuid:1')).toBe('1');
    expect(cmd('PTTL', 'lock')).toBe(30_000);
    expect(published).toEqual([]);
  });

  it('the last level: 1, the lock deleted and the unlock message published on the channel', () => {
    const { run, cmd, published } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    expect(unlock(run, 'uuid:1')).toBe(1);
    expect(cmd('EXISTS', 'lock')).toBe(0);
    expect(published).toEqual(['channel:unlock-msg']);
  });
});

describe('redisson-unlock-latch (3.24.0 on, redisson#4871)', () => {
  const unlock = (run: ReturnType<typeof world>['run'], latch: string, thread = 'uuid:1', latchPx = '5000', publish = 'PUBLISH') =>
    run(redissonUnlockLatch, ['lock', 'channel', latch], ['unlock-msg', '30000', thread, publish, latchPx]);

  it('releases (1), publishes, and records 1 in the latch for its PX; a re-sent copy answers 1 again', () => {
    const { run, cmd, published } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    expect(unlock(run, 'latch-1')).toBe(1);
    expect(cmd('EXISTS', 'lock')).toBe(0);
    expect(cmd('GET', 'latch-1')).toBe('1');
    expect(cmd('PTTL', 'latch-1')).toBe(5000);
    expect(published).toEqual(['channel:unlock-msg']);
    expect(unlock(run, 'latch-1')).toBe(1);
    expect(published).toEqual(['channel:unlock-msg']);
  });

  it('a new request id on a lock already gone is not the holder (nil) and records nothing', () => {
    const { run, cmd } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    unlock(run, 'latch-1');
    expect(unlock(run, 'latch-2')).toBe(null);
    expect(cmd('EXISTS', 'latch-2')).toBe(0);
  });

  it('a re-entered lock: 0, the lease reset, 0 recorded in the latch and answered to the re-sent copy', () => {
    const { run, cmd, clock } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    clock.ms += 10_000;
    expect(unlock(run, 'latch-1')).toBe(0);
    expect(cmd('HGET', 'lock', 'uuid:1')).toBe('1');
    expect(cmd('PTTL', 'lock')).toBe(30_000);
    expect(cmd('GET', 'latch-1')).toBe('0');
    expect(unlock(run, 'latch-1')).toBe(0);
    expect(cmd('HGET', 'lock', 'uuid:1')).toBe('1');
  });

  it('an invalid latch PX fails the script after its earlier writes, as a Lua error does in Redis (no rollback)', () => {
    const { run, cmd } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    // redis-server 7.0.15: ERR invalid expire time in 'set' command script: ..., HGET lock u:1 -> 1, GET latch -> nil.
    expect(isErrorReply(unlock(run, 'latch-1', 'uuid:1', '0'))).toBe(true);
    expect(cmd('HGET', 'lock', 'uuid:1')).toBe('1');
    expect(cmd('EXISTS', 'latch-1')).toBe(0);
    expect(isErrorReply(unlock(run, 'latch-2', 'uuid:1', '0'))).toBe(true);
    expect(cmd('EXISTS', 'lock')).toBe(0);
    expect(cmd('EXISTS', 'latch-2')).toBe(0);
  });

  it('publishes with PUBLISH only (SPUBLISH, which Redisson uses in sharded mode, is not modelled: an unknown command in a script)', () => {
    const { run, cmd, published } = world();
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    const refused = unlock(run, 'latch-1', 'uuid:1', '5000', 'SPUBLISH');
    expect(isErrorReply(refused) && refused.message).toBe(
      `ERR Unknown Redis command called from script script: ${sha1(redissonUnlockLatch.lua)}, on @user_script:1.`,
    );
    expect(published).toEqual([]);
    expect(cmd('EXISTS', 'latch-1')).toBe(0);
    run(redissonAcquire, ['lock'], ['30000', 'uuid:1']);
    expect(unlock(run, 'latch-2', 'uuid:1', '5000', 'publish')).toBe(1);
  });
});

describe('finding a script (EVAL by text, EVALSHA by SHA1)', () => {
  it("computes Redis's SHA1 of a script (SCRIPT LOAD \"return 1\" on redis-server 7.0.15: e0e1f9fa...)", () => {
    expect(sha1('return 1')).toBe('e0e1f9fabfc9d4800c877a703b823ac0578ff8db');
    // SCRIPT LOAD of the compare-and-delete text on the same server.
    expect(sha1(compareAndDelete.lua)).toBe('6bb4316b6f6f39a2e19e6408432d4fc36e80bbd4');
  });

  it('finds every built-in script by its exact text, and nothing for other text', () => {
    for (const script of BUILTIN_SCRIPTS) expect(builtinScriptByText(script.lua)).toBe(script);
    expect(builtinScriptByText(sha1(compareAndDelete.lua))).toBeUndefined();
    expect(builtinScriptByText(`${compareAndDelete.lua} `)).toBeUndefined();
  });

  it('the scripts have distinct names and texts', () => {
    expect(new Set(BUILTIN_SCRIPTS.map((s) => s.name)).size).toBe(BUILTIN_SCRIPTS.length);
    expect(new Set(BUILTIN_SCRIPTS.map((s) => s.lua)).size).toBe(BUILTIN_SCRIPTS.length);
  });
});
