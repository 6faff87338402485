/**
 * The Lua of Redisson's RFencedLock (RedissonFencedLock.java, first in tag redisson-3.19.0;
 * github.com/redisson/redisson, redisson/src/main/java/org/redisson/), as the Java source
 * concatenates it. Like the semaphores' scripts (semaphore-scripts.ts) these run verbatim in
 * the nodes' Lua VM, and test/conformance/fenced-lock.test.ts checks them against
 * redis-server. The unlock and the watchdog's renewal are RLock's, inherited unchanged
 * (RedissonFencedLock extends RedissonLock): they are RLock's native scripts.
 *
 * Key layout: the lock is RLock's hash at the lock's name (field "<client uuid>:<thread id>",
 * the re-entry count); the token counter is a string at
 * `redisson_lock_token:{name}` (prefixName("redisson_lock_token", name)), INCR'd by every
 * acquisition and re-entry, with no TTL, never deleted by unlock.
 *
 * What changed between tags is how the script is sent, not its text (read at every tag from
 * redisson-3.19.0 to redisson-4.7.0; `git log redisson-3.19.0..redisson-4.7.0` of the file:
 * c432023f2, 45ec4b4f3, 85be4d67a touch the sending, the others are licence headers,
 * refactoring and lambdas):
 * - 3.19.0 .. 3.20.x: RedissonBaseLock.evalWriteAsync (the batch with WAIT of the RLock of
 *   that version);
 * - 3.21.0 .. 3.36.x: commandExecutor.syncedEval;
 * - 3.37.0 .. 4.7.0: commandExecutor.syncedEvalNoRetry (never re-sent on a single server).
 * At every tag its own tryAcquireAsync calls tryLockInnerAsync directly: no handleNoSync
 * give-back and no ServiceManager.execute re-run, which RLock's tryAcquireAsync has from
 * 3.20.0 / 3.21.0.
 */
import type { ScriptEra } from './semaphore-scripts.js';

/** The first release with RFencedLock (tag redisson-3.19.0). */
export const FENCED_SINCE = '3.19.0';

/** RedissonObject.prefixName("redisson_lock_token", name) for a name without braces. */
export const tokenKeyOf = (name: string): string => `redisson_lock_token:{${name}}`;

/**
 * tryLockInnerAsync(leaseTime, unit, threadId), what lockAndGetToken and tryLockAndGetToken
 * send. KEYS = [name, token key], ARGV = [lease ms, "<uuid>:<thread>"]. Free or re-entered:
 * INCR the token, HINCRBY the thread's field, PEXPIRE the lease, answer {-1, token};
 * otherwise {pttl of the lock, -1}.
 */
export const FENCED_ACQUIRE: readonly ScriptEra[] = [
  {
    since: FENCED_SINCE,
    lua:
      "if (redis.call('exists', KEYS[1]) == 0 " +
      "or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then " +
      "local token = redis.call('incr', KEYS[2]);" +
      "redis.call('hincrby', KEYS[1], ARGV[2], 1); " +
      "redis.call('pexpire', KEYS[1], ARGV[1]); " +
      'return {-1, token}; ' +
      'end; ' +
      "return {redis.call('pttl', KEYS[1]), -1};",
    source: 'RedissonFencedLock.java tryLockInnerAsync(long, TimeUnit, long) @ redisson-3.19.0 .. redisson-4.7.0',
  },
];

/**
 * The override of RLock's tryLockInnerAsync, what the inherited lock() / tryLock() send: the
 * token is INCR'd but not answered (nil when taken, else the pttl). The model's requests take
 * the lock with tryLockAndGetToken (they need the token), so it only runs in the conformance
 * test; kept here so the two texts are read side by side.
 */
export const FENCED_LOCK_WITHOUT_TOKEN: readonly ScriptEra[] = [
  {
    since: FENCED_SINCE,
    lua:
      "if ((redis.call('exists', KEYS[1]) == 0) " +
      "or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then " +
      "redis.call('incr', KEYS[2]);" +
      "redis.call('hincrby', KEYS[1], ARGV[2], 1); " +
      "redis.call('pexpire', KEYS[1], ARGV[1]); " +
      'return nil; ' +
      'end; ' +
      "return redis.call('pttl', KEYS[1]);",
    source: 'RedissonFencedLock.java tryLockInnerAsync(long, long, TimeUnit, long, RedisStrictCommand) @ redisson-3.19.0 .. redisson-4.7.0',
  },
];
