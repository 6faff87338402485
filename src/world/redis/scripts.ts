/**
 * Built-in Lua scripts. Each is kept twice: as the Lua text a user would send to Redis,
 * and as a native implementation the simulator runs (no Lua VM in the hot path). The
 * differential property test runs the Lua text in ioredis-mock's Lua VM against the native
 * code on random inputs; they must agree, TTLs included.
 *
 * Inside a script time is frozen (Redis: "the time in the master is frozen"), which the
 * native code gets for free: it runs at one simulated instant.
 */
import { createHash } from 'node:crypto';
import { executeKeyspaceCommand } from './commands.js';
import type { Keyspace } from './keyspace.js';
import { isErrorReply, RedisErrorReply, type RedisReply } from './reply.js';

export interface ScriptContext {
  keyspace: Keyspace;
  /** PUBLISH from inside the script; returns the number of receivers. */
  publish(channel: string, message: string): number;
  /** The request on whose behalf the script runs. */
  tag: string;
}

export interface BuiltinScript {
  name: string;
  lua: string;
  native(ctx: ScriptContext, keys: readonly string[], argv: readonly string[]): RedisReply;
}

const call = (ctx: ScriptContext, ...args: string[]): RedisReply => executeKeyspaceCommand(ctx.keyspace, args, ctx.tag);

/** The canonical safe unlock: delete only if the value is still my token. */
export const compareAndDelete: BuiltinScript = {
  name: 'compare-and-delete',
  lua: `if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
else
  return 0
end`,
  native(ctx, keys, argv) {
    return call(ctx, 'GET', keys[0]) === argv[0] ? call(ctx, 'DEL', keys[0]) : 0;
  },
};

/**
 * Redisson RLock acquire (RedissonLock.java tryLockInnerAsync, redisson-4.7.0).
 * ARGV[1] = lease ms, ARGV[2] = "<client uuid>:<thread id>". nil = acquired, else the PTTL.
 */
export const redissonAcquire: BuiltinScript = {
  name: 'redisson-acquire',
  lua: `if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1);
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return nil;
end;
return redis.call('pttl', KEYS[1]);`,
  native(ctx, keys, argv) {
    if (call(ctx, 'EXISTS', keys[0]) === 0 || call(ctx, 'HEXISTS', keys[0], argv[1]) === 1) {
      call(ctx, 'HINCRBY', keys[0], argv[1], '1');
      call(ctx, 'PEXPIRE', keys[0], argv[0]);
      return null;
    }
    return call(ctx, 'PTTL', keys[0]);
  },
};

/** Redisson watchdog renewal, 3.x design (RedissonBaseLock.java renewExpirationAsync, redisson-3.11.0 to 3.43.x). 1 = renewed, 0 = not mine any more. */
export const redissonRenew: BuiltinScript = {
  name: 'redisson-renew',
  lua: `if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('pexpire', KEYS[1], ARGV[1]);
  return 1;
end;
return 0;`,
  native(ctx, keys, argv) {
    if (call(ctx, 'HEXISTS', keys[0], argv[1]) === 1) {
      call(ctx, 'PEXPIRE', keys[0], argv[0]);
      return 1;
    }
    return 0;
  },
};

/**
 * Redisson unlock (RedissonLock.java unlockInnerAsync as in redisson-3.11.0). KEYS = [lock, channel],
 * ARGV = [unlock message, lease ms, "<uuid>:<thread>"]. nil = not the holder, 0 = still held
 * (reentrant, TTL reset), 1 = released and waiters notified.
 */
export const redissonUnlock: BuiltinScript = {
  name: 'redisson-unlock',
  lua: `if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
  redis.call('pexpire', KEYS[1], ARGV[2]);
  return 0;
else
  redis.call('del', KEYS[1]);
  redis.call('publish', KEYS[2], ARGV[1]);
  return 1;
end;
return nil;`,
  native(ctx, keys, argv) {
    if (call(ctx, 'HEXISTS', keys[0], argv[2]) === 0) return null;
    const counter = call(ctx, 'HINCRBY', keys[0], argv[2], '-1') as number;
    if (counter > 0) {
      call(ctx, 'PEXPIRE', keys[0], argv[1]);
      return 0;
    }
    call(ctx, 'DEL', keys[0]);
    ctx.publish(keys[1], argv[0]);
    return 1;
  },
};

/**
 * Redisson unlock with an idempotency latch (RedissonLock.unlockInnerAsync, redisson-3.24.0
 * to HEAD, redisson#4871): a unique request id names a latch key that records this unlock's
 * result for `timeout` ms, so a re-sent unlock whose first copy already ran answers that
 * result instead of "not the holder". KEYS = [lock, channel, latch], ARGV = [unlock message,
 * lease ms, "<uuid>:<thread>", publish command, latch ms]. nil = not the holder, 0 = still
 * held (reentrant), 1 = released; a latch that exists answers its stored 0 or 1.
 */
export const redissonUnlockLatch: BuiltinScript = {
  name: 'redisson-unlock-latch',
  lua: `local val = redis.call('get', KEYS[3]); if val ~= false then return tonumber(val);end; if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil;end; local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); redis.call('set', KEYS[3], 0, 'px', ARGV[5]); return 0; else redis.call('del', KEYS[1]); redis.call(ARGV[4], KEYS[2], ARGV[1]); redis.call('set', KEYS[3], 1, 'px', ARGV[5]); return 1; end; `,
  native(ctx, keys, argv) {
    const latch = call(ctx, 'GET', keys[2]);
    if (typeof latch === 'string') return Math.trunc(Number(latch));
    if (call(ctx, 'HEXISTS', keys[0], argv[2]) === 0) return null;
    const counter = call(ctx, 'HINCRBY', keys[0], argv[2], '-1') as number;
    // A Lua error (an invalid latch PX) aborts the script after the writes before it, as Redis does.
    if (counter > 0) {
      call(ctx, 'PEXPIRE', keys[0], argv[1]);
      const set = call(ctx, 'SET', keys[2], '0', 'PX', argv[4]);
      return isErrorReply(set) ? set : 0;
    }
    call(ctx, 'DEL', keys[0]);
    if (argv[3].toUpperCase() !== 'PUBLISH') return new RedisErrorReply(`ERR lock-sim scripts publish with PUBLISH only, found ${argv[3]}`);
    ctx.publish(keys[1], argv[0]);
    const set = call(ctx, 'SET', keys[2], '1', 'PX', argv[4]);
    return isErrorReply(set) ? set : 1;
  },
};

/**
 * Redisson's shared watchdog (renewal/LockTask.renew, redisson-3.44.0 to HEAD): one script
 * renews every lock a client holds. KEYS = the locks, ARGV = [lease ms, then each key's
 * "<uuid>:<thread>"]. Returns 1 (renewed) or 0 (not that thread's any more) per key.
 */
export const redissonRenewMany: BuiltinScript = {
  name: 'redisson-renew-many',
  lua: `local result = {} for i = 1, #KEYS, 1 do if (redis.call('hexists', KEYS[i], ARGV[i + 1]) == 1) then redis.call('pexpire', KEYS[i], ARGV[1]); table.insert(result, 1); else table.insert(result, 0); end; end; return result;`,
  native(ctx, keys, argv) {
    return keys.map((key, i) => {
      if (call(ctx, 'HEXISTS', key, argv[i + 1]) !== 1) return 0;
      call(ctx, 'PEXPIRE', key, argv[0]);
      return 1;
    });
  },
};

/**
 * A token lock that also mints a fencing token in the same atomic step, as Redisson's
 * RFencedLock does with INCR inside its acquire script (RedissonFencedLock.java, redisson-3.19.0). KEYS =
 * [lock, token counter], ARGV = [token, lease ms]. Returns the new fencing token, or 0 when
 * the lock is held. The counter never expires, but it lives on the same asynchronously
 * replicated primary as the lock.
 */
export const fencedAcquire: BuiltinScript = {
  name: 'fenced-acquire',
  lua: `if redis.call('exists', KEYS[1]) == 0 then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]);
  return redis.call('incr', KEYS[2]);
end;
return 0;`,
  native(ctx, keys, argv) {
    if (call(ctx, 'EXISTS', keys[0]) !== 0) return 0;
    call(ctx, 'SET', keys[0], argv[0], 'PX', argv[1]);
    return call(ctx, 'INCR', keys[1]);
  },
};

export const BUILTIN_SCRIPTS: readonly BuiltinScript[] = [
  compareAndDelete,
  fencedAcquire,
  redissonAcquire,
  redissonRenew,
  redissonUnlock,
  redissonUnlockLatch,
  redissonRenewMany,
];

export function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

const byText = new Map(BUILTIN_SCRIPTS.map((s) => [s.lua, s]));
const bySha = new Map(BUILTIN_SCRIPTS.map((s) => [sha1(s.lua), s]));

/** Finds a built-in script by its Lua text (EVAL) or SHA1 (EVALSHA). */
export function findScript(textOrSha: string, isSha: boolean): BuiltinScript | RedisErrorReply {
  const script = isSha ? bySha.get(textOrSha.toLowerCase()) : byText.get(textOrSha);
  if (script) return script;
  return isSha
    ? new RedisErrorReply('NOSCRIPT No matching script. Please use EVAL.')
    : new RedisErrorReply('ERR lock-sim runs only its built-in scripts (no Lua VM in the simulator)');
}
