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
import { INT64_MIN, integerReply, type RedisReply } from './reply.js';
import { ScriptCallError, scriptCall, type ScriptContext } from './script-call.js';

export interface BuiltinScript {
  name: string;
  lua: string;
  /** Runs the script; a failed redis.call throws ScriptCallError (script-call.ts). */
  native(ctx: ScriptContext, keys: readonly string[], argv: readonly string[]): RedisReply;
}

/**
 * One argument array per length, refilled by each redis.call of a built-in script: a call's
 * arguments are read while it runs and kept by nothing after it (a key's value is the string,
 * not the array), and one script's calls run one after the other, so no array per call.
 */
const CALL_ARGS: string[][] = [[], [''], ['', ''], ['', '', ''], ['', '', '', ''], ['', '', '', '', '']];

/** redis.call at `line` of the script's Lua text (the line goes into an error's message). */
function call(ctx: ScriptContext, line: number, a0: string, a1: string, a2?: string, a3?: string, a4?: string): RedisReply {
  const n = a2 === undefined ? 2 : a3 === undefined ? 3 : a4 === undefined ? 4 : 5;
  const args = CALL_ARGS[n];
  args[0] = a0;
  args[1] = a1;
  if (n > 2) args[2] = a2 as string;
  if (n > 3) args[3] = a3 as string;
  if (n > 4) args[4] = a4 as string;
  return scriptCall(ctx, line, args);
}

/** The canonical safe unlock: delete only if the value is still my token. */
export const compareAndDelete: BuiltinScript = {
  name: 'compare-and-delete',
  lua: `if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
else
  return 0
end`,
  native(ctx, keys, argv) {
    return call(ctx, 1, 'GET', keys[0]) === argv[0] ? call(ctx, 2, 'DEL', keys[0]) : 0;
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
    if (call(ctx, 1, 'EXISTS', keys[0]) === 0 || call(ctx, 1, 'HEXISTS', keys[0], argv[1]) === 1) {
      call(ctx, 2, 'HINCRBY', keys[0], argv[1], '1');
      call(ctx, 3, 'PEXPIRE', keys[0], argv[0]);
      return null;
    }
    return call(ctx, 6, 'PTTL', keys[0]);
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
    if (call(ctx, 1, 'HEXISTS', keys[0], argv[1]) === 1) {
      call(ctx, 2, 'PEXPIRE', keys[0], argv[0]);
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
    if (call(ctx, 1, 'HEXISTS', keys[0], argv[2]) === 0) return null;
    const counter = call(ctx, 4, 'HINCRBY', keys[0], argv[2], '-1') as number | bigint;
    if (counter > 0) {
      call(ctx, 6, 'PEXPIRE', keys[0], argv[1]);
      return 0;
    }
    call(ctx, 9, 'DEL', keys[0]);
    call(ctx, 10, 'PUBLISH', keys[1], argv[0]);
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
    const latch = call(ctx, 1, 'GET', keys[2]);
    if (typeof latch === 'string') return luaToNumberReply(latch);
    if (call(ctx, 1, 'HEXISTS', keys[0], argv[2]) === 0) return null;
    const counter = call(ctx, 1, 'HINCRBY', keys[0], argv[2], '-1') as number | bigint;
    // A failed redis.call (an invalid latch PX) ends the script after the writes before it, as in Redis.
    if (counter > 0) {
      call(ctx, 1, 'PEXPIRE', keys[0], argv[1]);
      call(ctx, 1, 'SET', keys[2], '0', 'px', argv[4]);
      return 0;
    }
    call(ctx, 1, 'DEL', keys[0]);
    // redis.call(ARGV[4], ...): Redisson sends PUBLISH (or SPUBLISH, which the model does not know).
    call(ctx, 1, argv[3], keys[1], argv[0]);
    call(ctx, 1, 'SET', keys[2], '1', 'px', argv[4]);
    return 1;
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
      if (call(ctx, 1, 'HEXISTS', key, argv[i + 1]) !== 1) return 0;
      call(ctx, 1, 'PEXPIRE', key, argv[0]);
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
    if (call(ctx, 1, 'EXISTS', keys[0]) !== 0) return 0;
    call(ctx, 2, 'SET', keys[0], argv[0], 'PX', argv[1]);
    return call(ctx, 3, 'INCR', keys[1]);
  },
};

/**
 * Extend a token lock's lease: PEXPIRE only if the value is still my token (redis.io
 * "Distributed Locks with Redis": extending "by sending a Lua script to all the instances that
 * extends the TTL of the key if the key exists and its value is still the random value the
 * client assigned when acquiring the lock"). What SET ... IFEQ ... PX replaces on servers that have it.
 */
export const compareAndPexpire: BuiltinScript = {
  name: 'compare-and-pexpire',
  lua: `if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
else
  return 0
end`,
  native(ctx, keys, argv) {
    return call(ctx, 1, 'GET', keys[0]) === argv[0] ? call(ctx, 2, 'PEXPIRE', keys[0], argv[1]) : 0;
  },
};

export const BUILTIN_SCRIPTS: readonly BuiltinScript[] = [
  compareAndDelete,
  compareAndPexpire,
  fencedAcquire,
  redissonAcquire,
  redissonRenew,
  redissonUnlock,
  redissonUnlockLatch,
  redissonRenewMany,
];

/**
 * A GET reply through Lua's tonumber and back to a Redis integer reply (script_lua.c: a Lua
 * number is returned as its integer part; tonumber of a text that is no number is nil). The
 * decimal forms only; hexadecimal Lua numbers are not modelled (Redisson's latch holds 0 or 1).
 */
function luaToNumberReply(text: string): RedisReply {
  const t = text.trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return null;
  return luaNumberToReply(Number(t));
}

export function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

const byText = new Map(BUILTIN_SCRIPTS.map((s) => [s.lua, s]));

/** The built-in script whose Lua text is exactly `body`, if any. */
export function builtinScriptByText(body: string): BuiltinScript | undefined {
  return byText.get(body);
}

/** Runs a built-in script's native code: its reply, or the error a failed redis.call ended it with. */
export function runBuiltin(script: BuiltinScript, ctx: ScriptContext, keys: readonly string[], argv: readonly string[]): RedisReply {
  try {
    return throughLuaNumbers(script.native(ctx, keys, argv));
  } catch (e) {
    if (e instanceof ScriptCallError) return e.reply;
    throw e;
  }
}

/**
 * An integer a script returns has been a Lua number (a double) on its way: redis.call hands
 * integer replies to Lua as lua_Number, and script_lua.c luaReplyToRedisReply answers a Lua
 * number as (long long) of it. Beyond 2^53 that rounds; 2^63-1 becomes 2^63, which x86-64
 * converts to -2^63 (measured on redis-server 7.0.15, x86-64: a script returning
 * redis.call('incr', k) on 9223372036854775806 answers -9223372036854775808).
 */
function throughLuaNumbers(reply: RedisReply): RedisReply {
  if (Array.isArray(reply)) return reply.map(throughLuaNumbers);
  return typeof reply === 'bigint' ? luaNumberToReply(Number(reply)) : reply;
}

/** (long long) of a Lua number: truncated; out of range (or NaN) is -2^63 on x86-64. */
function luaNumberToReply(d: number): RedisReply {
  if (!(d < 2 ** 63 && d >= -(2 ** 63))) return INT64_MIN;
  return integerReply(BigInt(Math.trunc(d)));
}
