/**
 * Redisson's RedissonMultiLock (RedissonMultiLock.java), version by version: one lock made of
 * several RLocks, here the lock keys of a request's cart (workload.requests[].skus), taken one
 * by one in the order given (`lock-order: sorted`: in key order, the usual cure for two carts
 * that take the same SKUs in opposite orders). Each RLock is the `redisson` protocol's
 * (redisson.ts tryLockRLock), with the wait and lease the multi-lock hands it.
 *
 * tryLock(waitTime, leaseTime) at every tag read (3.11.0 to 4.7.0; behaviour changes in
 * d7b029327 3.11.1, 52843b106 3.17.0, 59e2b3998 3.17.1):
 * - each lock gets tryLock(remainTime, newLeaseTime): the whole remaining wait, not a share
 *   of it (calcLockWaitTime is the identity; RedissonRedLock overrides it), and a lease of
 *   twice the wait when a lease is given with a wait (the lease itself when there is no
 *   wait, none when there is no lease: the watchdog); with neither, tryLock() once;
 * - a lock not taken (busy, or any exception) unlocks every lock taken so far (unlockInner,
 *   failedLocksLimit 0), then fails at once when there is no wait, or starts again from the
 *   first lock; after each lock the time spent is taken off remainTime, and when none is left
 *   the locks taken are unlocked and it fails;
 * - a RedisResponseTimeoutException also unlocks the lock that timed out (it may have run);
 * - with a lease, once all are taken each one's TTL is set to it (expireAsync's PEXPIRE).
 * lock() (`wait: forever`) is lockInterruptibly: tryLock(n x 1500 ms, -1) again and again
 * without a lease; with one, a wait drawn from [lease/2, lease) when the lease is at most
 * n x 1500 ms, else from [n x 1500, lease), drawn anew each round from 3.17.0 (once before,
 * and at least 2000 ms: redisson#4050). unlock() unlocks the locks in order and stops at the
 * first that throws (locks.forEach(Lock::unlock)): the ones after it stay held.
 */
import { CLOCK_EFFECT, random, type EffectProgram } from '../../world/effects.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol, ReleaseResult } from '../lock-protocol.js';
import { ACQUIRED, RELEASED } from './lock-results.js';
import { redisson, tryLockRLock } from './redisson.js';
import { send } from './redisson/executor.js';
import { atLeastVersion } from './redisson/semaphore-scripts.js';
import { configCache } from './redisson/config-cache.js';

/** lockInterruptibly's baseWaitTime per lock (`locks.size() * 1500`, the same at every tag). */
const BASE_WAIT_PER_LOCK_MS = 1500;

/**
 * RedissonExpirable.expireAsync (RedissonMultiLock.checkLeaseTimeAsync / tryLock's end),
 * upstream's text @ redisson-4.7.0: PEXPIRE of each key, ARGV[2] the optional flag ('' here).
 */
const EXPIRE_LUA =
  'local result = 0;' +
  'for j = 1, #KEYS, 1 do ' +
  'local expireSet; ' +
  "if ARGV[2] ~= '' then " +
  "expireSet = redis.call('pexpire', KEYS[j], ARGV[1], ARGV[2]); " +
  'else ' +
  "expireSet = redis.call('pexpire', KEYS[j], ARGV[1]); " +
  'end; ' +
  'if expireSet == 1 then ' +
  'result = expireSet;' +
  'end; ' +
  'end; ' +
  'return result; ';

/** The RLocks of one acquisition, kept for its release (the handle is the request's). */
const PARTS = new WeakMap<LockHandle, LockHandle[]>();

/** The executor settings for the PEXPIRE after a leased tryLock (commandExecutor.evalWriteAsync: re-sent, no WAIT). */
const configOf = configCache('redisson/multi-config');

/** Key order for `lock-order: sorted`: shorter first, then by text (lock:stock:<sku> in SKU order). */
const byKey = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** The RLocks of a request's multi-lock, in the order they are taken. */
function partsOf(lock: LockHandle, params: LockParams): LockHandle[] {
  const keys = [...(lock.keys ?? [lock.key])];
  if (params.lockOrder === 'sorted') keys.sort(byKey);
  return keys.map((key, i) => ({ key, token: `${lock.token}#${i + 1}`, threadOwner: lock.threadOwner, leaseMs: null, fence: null }));
}

/** unlockInner: every lock given, each unlocked, errors skipped. */
function* unlockInner(locks: readonly LockHandle[], params: LockParams): EffectProgram<void> {
  for (const l of locks) yield* redisson.release(l, params);
}

const nowMs = function* (): EffectProgram<number> {
  return (yield CLOCK_EFFECT) as number;
};

/**
 * tryLock(waitTime, leaseTime): -1 for none of either (the model's wait 0 is "no wait").
 * Returns whether every lock was taken, with the reason of the last lock not taken.
 */
function* tryLockAll(parts: readonly LockHandle[], params: LockParams, waitMs: number, leaseMs: number): EffectProgram<AcquireResult> {
  // 3.11.0 used 2 x waitTime whenever a lease was given (redisson#2172); refused without a wait (resolve-variants.ts).
  const newLeaseMs = leaseMs > 0 ? (waitMs > 0 ? waitMs * 2 : leaseMs) : null;
  let remainMs = waitMs > 0 ? waitMs : -1;
  let timeMs = yield* nowMs();
  const acquired: LockHandle[] = [];
  let lastWhy = '';
  for (let i = 0; i < parts.length; ) {
    const part = parts[i];
    const r = waitMs <= 0 && leaseMs <= 0 ? yield* tryLockRLock(part, params, 0, null) : yield* tryLockRLock(part, params, remainMs, newLeaseMs);
    if (r.acquired) {
      acquired.push(part);
      i++;
    } else {
      // A response timeout: the lock may have been taken (RedisResponseTimeoutException -> unlockInner of it).
      if (r.reason === 'timeout') yield* unlockInner([part], params);
      lastWhy = `${part.key} not taken (${r.detail})`;
      yield* unlockInner(acquired, params);
      const given = acquired.length === 0 ? '' : `; gave back ${acquired.map((l) => l.key).join(', ')}`;
      if (waitMs <= 0) return { acquired: false, reason: 'busy', detail: `${lastWhy}${given}` };
      acquired.length = 0;
      i = 0;
    }
    if (remainMs > 0) {
      const t = yield* nowMs();
      remainMs -= t - timeMs;
      timeMs = t;
      if (remainMs <= 0) {
        const held = acquired.map((l) => l.key);
        yield* unlockInner(acquired, params);
        return { acquired: false, reason: 'busy', detail: `wait of ${waitMs} ms spent${lastWhy === '' ? '' : `; ${lastWhy}`}${held.length === 0 ? '' : `; gave back ${held.join(', ')}`}` };
      }
    }
  }
  if (leaseMs > 0) {
    const config = yield* configOf(params);
    for (const part of acquired) {
      yield* send(config, [['EVAL', EXPIRE_LUA, '1', part.key, String(leaseMs), '']], { retry: true, timeoutUs: config.setup.commandTimeoutUs });
      part.leaseMs = leaseMs;
    }
  }
  return ACQUIRED;
}

/** lockInterruptibly's waitTime for one round with a lease (ThreadLocalRandom.nextLong(lo, hi)). */
function* lockWaitMs(n: number, leaseMs: number, version: string): EffectProgram<number> {
  const baseMs = n * BASE_WAIT_PER_LOCK_MS;
  // Before 3.17.0 a lease of at most 2000 ms waited 2000 ms (RedissonMultiLock.lockInterruptibly @ redisson-3.16.8).
  if (!atLeastVersion(version, '3.17.0') && leaseMs <= 2000) return 2000;
  const [lo, hi] = leaseMs <= baseMs ? [Math.floor(leaseMs / 2), leaseMs] : [baseMs, leaseMs];
  if (hi <= lo) return lo;
  return lo + Math.floor(((yield random('redisson-multilock-wait')) as number) * (hi - lo));
}

export const redissonMulti: LockProtocol = {
  name: 'redisson-multi',
  summary: 'Redisson RedissonMultiLock by version: the RLocks of a cart (workload.requests[].skus) taken one by one, all given back when one is not; lock() retries for ever',
  reentrantByThread: true,
  upstreamLua: true,
  *acquire(lock, params) {
    const parts = partsOf(lock, params);
    PARTS.set(lock, parts);
    const leaseMs = params.leaseMs ?? -1;
    let r: AcquireResult;
    if (params.waitMs === Number.POSITIVE_INFINITY) {
      // lock() / lock(leaseTime): tryLock rounds until one takes them all.
      let waitMs = leaseMs <= 0 ? parts.length * BASE_WAIT_PER_LOCK_MS : yield* lockWaitMs(parts.length, leaseMs, params.redissonVersion);
      for (;;) {
        r = yield* tryLockAll(parts, params, waitMs, leaseMs);
        if (r.acquired) break;
        if (leaseMs > 0 && atLeastVersion(params.redissonVersion, '3.17.0')) waitMs = yield* lockWaitMs(parts.length, leaseMs, params.redissonVersion);
      }
    } else {
      r = yield* tryLockAll(parts, params, params.waitMs > 0 ? params.waitMs : -1, leaseMs);
    }
    lock.leaseMs = parts[0].leaseMs;
    return r;
  },
  /** unlock(): each RLock's unlock in order, stopping at the first that fails. */
  *release(lock, params) {
    const parts = PARTS.get(lock) ?? partsOf(lock, params);
    for (const part of parts) {
      const r: ReleaseResult = yield* redisson.release(part, params);
      if (!r.released) return { released: false, reason: r.reason, detail: `${part.key}: ${r.detail}` };
    }
    return RELEASED;
  },
};
