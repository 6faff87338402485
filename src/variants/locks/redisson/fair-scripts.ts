/**
 * The Lua of Redisson's fair lock (RFairLock), version by version, as RedissonFairLock.java
 * concatenates it (github.com/redisson/redisson, redisson/src/main/java/org/redisson/). Like the
 * semaphores' (semaphore-scripts.ts) these run verbatim in the nodes' Lua VM, and
 * test/conformance/fair-lock.test.ts checks every era against redis-server.
 *
 * Key layout (RedissonObject.prefixName, the same at every tag read; from 3.52.0 built from
 * getRawName(), which is the name itself without a NameMapper):
 * - the lock's name: a hash "<client uuid>:<thread id>" -> re-entries, as RLock's;
 * - `redisson_lock_queue:{name}`: a list of the waiting threads' names, in arrival order;
 * - `redisson_lock_timeout:{name}`: a sorted set of the same names, each scored with the
 *   client's clock (ms) after which it is "stale": the script of any later caller drops a
 *   stale queue head (and the next, and so on) from both;
 * - `redisson_lock__channel:{name}:<thread name>`: each waiter's own channel; an unlock
 *   publishes to the queue head's alone.
 *
 * tryLockInnerAsync has two scripts, EVAL_NULL_BOOLEAN (tryLock() without a wait) and EVAL_LONG
 * (tryLock(wait, ...) and lock()); the model's acquires are tryLock(wait, lease) or lock(lease)
 * (wait forever), both EVAL_LONG, the only one kept here. ARGV of EVAL_LONG: [lease, thread name,
 * currentTime + threadWaitTime, currentTime] at 3.11.0; [lease, thread name, wait, currentTime]
 * from 3.11.1, wait being threadWaitTime, or from 3.13.3 the tryLock's waitTime when one is
 * given (redisson-fair.ts waitArgMs).
 *
 * The eras (the tags whose text differs from the one before, read at every tag from
 * redisson-3.11.0 to redisson-4.7.0):
 * - 3.11.1: the queue timeout of a new waiter is the one before it + threadWaitTime (3.11.0:
 *   the first waiter's + threadWaitTime); a waiter already queued gets back its own timeout's
 *   estimate, which goes negative once the holder outlives it (then Redisson's waiter sleeps
 *   until a message or its whole wait); the winner takes threadWaitTime off everyone's timeout;
 *   acquireFailed takes it off those behind the one leaving only.
 * - 3.32.0 (redisson#4705, redisson#4153): a waiter already queued gets max(0, the lock's PTTL);
 *   the stale loop stops at a queue head with no timeout instead of failing on it.
 * - 3.45.0 (commit "Fair Lock attempt to compare nil with number"): a last waiter with no
 *   timeout counts as none (its zscore was read as a number).
 * - unlock 3.22.0: the publish command as ARGV[5] (PUBLISH, or SPUBLISH in a sharded cluster);
 *   3.24.0 (redisson#4871): the unlock latch KEYS[5], ARGV[6]; 3.32.0 the stale loop as above.
 */
import type { ScriptEra } from './semaphore-scripts.js';

/** RedissonObject.prefixName("redisson_lock_queue", name) for a name without braces. */
export const fairQueueOf = (name: string): string => `redisson_lock_queue:{${name}}`;

/** RedissonObject.prefixName("redisson_lock_timeout", name). */
export const fairTimeoutSetOf = (name: string): string => `redisson_lock_timeout:{${name}}`;

/** RedissonLock.getChannelName(): prefixName("redisson_lock__channel", name). */
export const fairChannelOf = (name: string): string => `redisson_lock__channel:{${name}}`;

/** RedissonFairLock.subscribe: the waiter's own channel, getChannelName() + ":" + getLockName(threadId). */
export const fairWaiterChannelOf = (name: string, threadName: string): string => `${fairChannelOf(name)}:${threadName}`;

export const FAIR_TRY_LOCK: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua:
      "while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);" +
      'if firstThreadId2 == false then break;end; ' +
      "local timeout = tonumber(redis.call('zscore', KEYS[3], firstThreadId2));" +
      "if timeout <= tonumber(ARGV[4]) then redis.call('zrem', KEYS[3], firstThreadId2); " +
      "redis.call('lpop', KEYS[2]); else break;end; end;" +
      "if (redis.call('exists', KEYS[1]) == 0) and ((redis.call('exists', KEYS[2]) == 0) or (redis.call('lindex', KEYS[2], 0) == ARGV[2])) then redis.call('lpop', KEYS[2]); " +
      "redis.call('zrem', KEYS[3], ARGV[2]); redis.call('hset', KEYS[1], ARGV[2], 1); " +
      "redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; " +
      "if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('hincrby', KEYS[1], ARGV[2], 1); " +
      "redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; " +
      "local firstThreadId = redis.call('lindex', KEYS[2], 0); local ttl; " +
      "if firstThreadId ~= false and firstThreadId ~= ARGV[2] then ttl = tonumber(redis.call('zscore', KEYS[3], firstThreadId)) - tonumber(ARGV[4]);" +
      "else ttl = redis.call('pttl', KEYS[1]);end; local timeout = ttl + tonumber(ARGV[3]);" +
      "if redis.call('zadd', KEYS[3], timeout, ARGV[2]) == 1 then redis.call('rpush', KEYS[2], ARGV[2]);" +
      'end; return ttl;',
    source: 'RedissonFairLock.java tryLockInnerAsync (EVAL_LONG) @ redisson-3.11.0',
  },
  {
    since: '3.11.1',
    lua:
      "while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);" +
      'if firstThreadId2 == false then break;end;' +
      "local timeout = tonumber(redis.call('zscore', KEYS[3], firstThreadId2));" +
      "if timeout <= tonumber(ARGV[4]) then redis.call('zrem', KEYS[3], firstThreadId2);" +
      "redis.call('lpop', KEYS[2]);else break;end;end;" +
      "if (redis.call('exists', KEYS[1]) == 0) and ((redis.call('exists', KEYS[2]) == 0) or (redis.call('lindex', KEYS[2], 0) == ARGV[2])) then redis.call('lpop', KEYS[2]);" +
      "redis.call('zrem', KEYS[3], ARGV[2]);local keys = redis.call('zrange', KEYS[3], 0, -1);" +
      "for i = 1, #keys, 1 do redis.call('zincrby', KEYS[3], -tonumber(ARGV[3]), keys[i]);end;" +
      "redis.call('hset', KEYS[1], ARGV[2], 1);redis.call('pexpire', KEYS[1], ARGV[1]);return nil;end;" +
      "if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then redis.call('hincrby', KEYS[1], ARGV[2],1);" +
      "redis.call('pexpire', KEYS[1], ARGV[1]);return nil;end;" +
      "local timeout = redis.call('zscore', KEYS[3], ARGV[2]);" +
      'if timeout ~= false then return timeout - tonumber(ARGV[3]) - tonumber(ARGV[4]);end;' +
      "local lastThreadId = redis.call('lindex', KEYS[2], -1);local ttl;" +
      "if lastThreadId ~= false and lastThreadId ~= ARGV[2] then ttl = tonumber(redis.call('zscore', KEYS[3], lastThreadId)) - tonumber(ARGV[4]);" +
      "else ttl = redis.call('pttl', KEYS[1]);end;" +
      'local timeout = ttl + tonumber(ARGV[3]) + tonumber(ARGV[4]);' +
      "if redis.call('zadd', KEYS[3], timeout, ARGV[2]) == 1 then redis.call('rpush', KEYS[2], ARGV[2]);" +
      'end;return ttl;',
    source: 'RedissonFairLock.java tryLockInnerAsync (EVAL_LONG) @ redisson-3.11.1 .. redisson-3.30.0',
  },
  {
    since: '3.32.0',
    lua:
      "while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);" +
      'if firstThreadId2 == false then break;end;' +
      "local timeout = redis.call('zscore', KEYS[3], firstThreadId2);" +
      "if timeout ~= false and tonumber(timeout) <= tonumber(ARGV[4]) then redis.call('zrem', KEYS[3], firstThreadId2);" +
      "redis.call('lpop', KEYS[2]);else break;end;end;" +
      "if (redis.call('exists', KEYS[1]) == 0) and ((redis.call('exists', KEYS[2]) == 0) or (redis.call('lindex', KEYS[2], 0) == ARGV[2])) then redis.call('lpop', KEYS[2]);" +
      "redis.call('zrem', KEYS[3], ARGV[2]);local keys = redis.call('zrange', KEYS[3], 0, -1);" +
      "for i = 1, #keys, 1 do redis.call('zincrby', KEYS[3], -tonumber(ARGV[3]), keys[i]);end;" +
      "redis.call('hset', KEYS[1], ARGV[2], 1);redis.call('pexpire', KEYS[1], ARGV[1]);return nil;end;" +
      "if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then redis.call('hincrby', KEYS[1], ARGV[2],1);" +
      "redis.call('pexpire', KEYS[1], ARGV[1]);return nil;end;" +
      "local timeout = redis.call('zscore', KEYS[3], ARGV[2]);" +
      "if timeout ~= false then local ttl = redis.call('pttl', KEYS[1]);return math.max(0, ttl); end;" +
      "local lastThreadId = redis.call('lindex', KEYS[2], -1);local ttl;" +
      "if lastThreadId ~= false and lastThreadId ~= ARGV[2] then ttl = tonumber(redis.call('zscore', KEYS[3], lastThreadId)) - tonumber(ARGV[4]);" +
      "else ttl = redis.call('pttl', KEYS[1]);end;" +
      'local timeout = ttl + tonumber(ARGV[3]) + tonumber(ARGV[4]);' +
      "if redis.call('zadd', KEYS[3], timeout, ARGV[2]) == 1 then redis.call('rpush', KEYS[2], ARGV[2]);" +
      'end;return ttl;',
    source: 'RedissonFairLock.java tryLockInnerAsync (EVAL_LONG) @ redisson-3.32.0 .. redisson-3.44.0',
  },
  {
    since: '3.45.0',
    lua:
      "while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);" +
      'if firstThreadId2 == false then break;end;' +
      "local timeout = redis.call('zscore', KEYS[3], firstThreadId2);" +
      "if timeout ~= false and tonumber(timeout) <= tonumber(ARGV[4]) then redis.call('zrem', KEYS[3], firstThreadId2);" +
      "redis.call('lpop', KEYS[2]);else break;end;end;" +
      "if (redis.call('exists', KEYS[1]) == 0) and ((redis.call('exists', KEYS[2]) == 0) or (redis.call('lindex', KEYS[2], 0) == ARGV[2])) then redis.call('lpop', KEYS[2]);" +
      "redis.call('zrem', KEYS[3], ARGV[2]);local keys = redis.call('zrange', KEYS[3], 0, -1);" +
      "for i = 1, #keys, 1 do redis.call('zincrby', KEYS[3], -tonumber(ARGV[3]), keys[i]);end;" +
      "redis.call('hset', KEYS[1], ARGV[2], 1);redis.call('pexpire', KEYS[1], ARGV[1]);return nil;end;" +
      "if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then redis.call('hincrby', KEYS[1], ARGV[2],1);" +
      "redis.call('pexpire', KEYS[1], ARGV[1]);return nil;end;" +
      "local timeout = redis.call('zscore', KEYS[3], ARGV[2]);" +
      "if timeout ~= false then local ttl = redis.call('pttl', KEYS[1]);return math.max(0, ttl); end;" +
      "local lastThreadId = redis.call('lindex', KEYS[2], -1);local ttl;" +
      "if lastThreadId ~= false and lastThreadId ~= ARGV[2] and redis.call('zscore', KEYS[3], lastThreadId) ~= false then ttl = tonumber(redis.call('zscore', KEYS[3], lastThreadId)) - tonumber(ARGV[4]);" +
      "else ttl = redis.call('pttl', KEYS[1]);end;" +
      'local timeout = ttl + tonumber(ARGV[3]) + tonumber(ARGV[4]);' +
      "if redis.call('zadd', KEYS[3], timeout, ARGV[2]) == 1 then redis.call('rpush', KEYS[2], ARGV[2]);" +
      'end;return ttl;',
    source: 'RedissonFairLock.java tryLockInnerAsync (EVAL_LONG) @ redisson-3.45.0 .. redisson-4.7.0',
  },
];

export const FAIR_UNLOCK: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua:
      "while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);" +
      'if firstThreadId2 == false then break;end; ' +
      "local timeout = tonumber(redis.call('zscore', KEYS[3], firstThreadId2));" +
      "if timeout <= tonumber(ARGV[4]) then redis.call('zrem', KEYS[3], firstThreadId2); " +
      "redis.call('lpop', KEYS[2]); else break;end; end;" +
      "if (redis.call('exists', KEYS[1]) == 0) then local nextThreadId = redis.call('lindex', KEYS[2], 0); " +
      "if nextThreadId ~= false then redis.call('publish', KEYS[4] .. ':' .. nextThreadId, ARGV[1]); " +
      "end; return 1; end;if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil;end; " +
      "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); " +
      "if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; end; " +
      "redis.call('del', KEYS[1]); local nextThreadId = redis.call('lindex', KEYS[2], 0); " +
      "if nextThreadId ~= false then redis.call('publish', KEYS[4] .. ':' .. nextThreadId, ARGV[1]); " +
      'end; return 1; ',
    source: 'RedissonFairLock.java unlockInnerAsync @ redisson-3.11.0 .. redisson-3.21.3',
  },
  {
    since: '3.22.0',
    lua:
      "while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);" +
      'if firstThreadId2 == false then break;end; ' +
      "local timeout = tonumber(redis.call('zscore', KEYS[3], firstThreadId2));" +
      "if timeout <= tonumber(ARGV[4]) then redis.call('zrem', KEYS[3], firstThreadId2); " +
      "redis.call('lpop', KEYS[2]); else break;end; end;" +
      "if (redis.call('exists', KEYS[1]) == 0) then local nextThreadId = redis.call('lindex', KEYS[2], 0); " +
      "if nextThreadId ~= false then redis.call(ARGV[5], KEYS[4] .. ':' .. nextThreadId, ARGV[1]); " +
      "end; return 1; end;if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil;end; " +
      "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); " +
      "if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; end; " +
      "redis.call('del', KEYS[1]); local nextThreadId = redis.call('lindex', KEYS[2], 0); " +
      "if nextThreadId ~= false then redis.call(ARGV[5], KEYS[4] .. ':' .. nextThreadId, ARGV[1]); " +
      'end; return 1; ',
    source: 'RedissonFairLock.java unlockInnerAsync @ redisson-3.22.0 .. redisson-3.23.5',
  },
  {
    since: '3.24.0',
    lua:
      "local val = redis.call('get', KEYS[5]); if val ~= false then return tonumber(val);end; " +
      "while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);" +
      'if firstThreadId2 == false then break;end; ' +
      "local timeout = tonumber(redis.call('zscore', KEYS[3], firstThreadId2));" +
      "if timeout <= tonumber(ARGV[4]) then redis.call('zrem', KEYS[3], firstThreadId2); " +
      "redis.call('lpop', KEYS[2]); else break;end; end;" +
      "if (redis.call('exists', KEYS[1]) == 0) then local nextThreadId = redis.call('lindex', KEYS[2], 0); " +
      "if nextThreadId ~= false then redis.call(ARGV[5], KEYS[4] .. ':' .. nextThreadId, ARGV[1]); " +
      "end; redis.call('set', KEYS[5], 1, 'px', ARGV[6]); return 1; end;" +
      "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil;end; " +
      "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); " +
      "if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); " +
      "redis.call('set', KEYS[5], 0, 'px', ARGV[6]); return 0; end; redis.call('del', KEYS[1]); " +
      "redis.call('set', KEYS[5], 1, 'px', ARGV[6]); " +
      "local nextThreadId = redis.call('lindex', KEYS[2], 0); " +
      "if nextThreadId ~= false then redis.call(ARGV[5], KEYS[4] .. ':' .. nextThreadId, ARGV[1]); " +
      'end; return 1; ',
    source: 'RedissonFairLock.java unlockInnerAsync @ redisson-3.24.0 .. redisson-3.30.0',
  },
  {
    since: '3.32.0',
    lua:
      "local val = redis.call('get', KEYS[5]); if val ~= false then return tonumber(val);end; " +
      "while true do local firstThreadId2 = redis.call('lindex', KEYS[2], 0);" +
      'if firstThreadId2 == false then break;end; ' +
      "local timeout = redis.call('zscore', KEYS[3], firstThreadId2);" +
      "if timeout ~= false and tonumber(timeout) <= tonumber(ARGV[4]) then redis.call('zrem', KEYS[3], firstThreadId2); " +
      "redis.call('lpop', KEYS[2]); else break;end; end;" +
      "if (redis.call('exists', KEYS[1]) == 0) then local nextThreadId = redis.call('lindex', KEYS[2], 0); " +
      "if nextThreadId ~= false then redis.call(ARGV[5], KEYS[4] .. ':' .. nextThreadId, ARGV[1]); " +
      "end; redis.call('set', KEYS[5], 1, 'px', ARGV[6]); return 1; end;" +
      "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil;end; " +
      "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); " +
      "if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); " +
      "redis.call('set', KEYS[5], 0, 'px', ARGV[6]); return 0; end; redis.call('del', KEYS[1]); " +
      "redis.call('set', KEYS[5], 1, 'px', ARGV[6]); " +
      "local nextThreadId = redis.call('lindex', KEYS[2], 0); " +
      "if nextThreadId ~= false then redis.call(ARGV[5], KEYS[4] .. ':' .. nextThreadId, ARGV[1]); " +
      'end; return 1; ',
    source: 'RedissonFairLock.java unlockInnerAsync @ redisson-3.32.0 .. redisson-4.7.0',
  },
];

export const FAIR_ACQUIRE_FAILED: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua:
      "local firstThreadId = redis.call('lindex', KEYS[1], 0); " +
      "if firstThreadId == ARGV[1] then local keys = redis.call('zrange', KEYS[2], 0, -1); " +
      "for i = 1, #keys, 1 do redis.call('zincrby', KEYS[2], -tonumber(ARGV[2]), keys[i]);end;end;" +
      "redis.call('zrem', KEYS[2], ARGV[1]); redis.call('lrem', KEYS[1], 0, ARGV[1]); ",
    source: 'RedissonFairLock.java acquireFailedAsync @ redisson-3.11.0',
  },
  {
    since: '3.11.1',
    lua:
      "local queue = redis.call('lrange', KEYS[1], 0, -1);local i = 1;" +
      'while i <= #queue and queue[i] ~= ARGV[1] do i = i + 1;end;i = i + 1;' +
      "while i <= #queue do redis.call('zincrby', KEYS[2], -tonumber(ARGV[2]), queue[i]);i = i + 1;end;" +
      "redis.call('zrem', KEYS[2], ARGV[1]);redis.call('lrem', KEYS[1], 0, ARGV[1]);",
    source: 'RedissonFairLock.java acquireFailedAsync @ redisson-3.11.1 .. redisson-4.7.0',
  },
];
