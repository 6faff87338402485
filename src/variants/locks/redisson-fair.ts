/**
 * Redisson's fair lock (RFairLock, RedissonFairLock.java), version by version: RLock's hash
 * and watchdog, plus a queue of waiting threads (`redisson_lock_queue:{name}`) and their
 * timeouts (`redisson_lock_timeout:{name}`), so the lock goes to the threads in the order they
 * first asked. Its Lua (redisson/fair-scripts.ts) runs verbatim in the nodes' Lua VM; every
 * command goes through Redisson's executor as RLock's do (redisson/executor.ts), and a lock
 * taken without a lease is renewed by RLock's watchdog (redisson/renewal.ts).
 *
 * What makes it fair, and what lets a waiter down: a waiter's queue entry has a timeout of its
 * own (the one before it + `wait`, see waitArgMs), after which any later caller's script drops
 * it as stale; each waiter listens on its own channel, and an unlock publishes to the queue
 * head's only. A waiter dropped while it still waits hears nothing: before 3.32.0 its next try
 * is told a negative time to wait (its stale estimate), and Redisson's waiter then sleeps until
 * a message that never comes (lock(): for ever; tryLock: its whole wait); from 3.32.0 it is
 * told the lock's PTTL and joins the queue again at its end (redisson#3004, #5503, #4705).
 */
import { awaitMessage, CLOCK_EFFECT, CURRENT_REQUEST_EFFECT, redisSend, subscribe, unsubscribe, type EffectProgram } from '../../world/effects.js';
import { isErrorReply } from '../../world/redis/reply.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol } from '../lock-protocol.js';
import { ACQUIRED, BUSY } from './lock-results.js';
import { acquireFailure, acquireRuns, unlockRuns } from './redisson/acquire-runs.js';
import { retryDelayMs, syncedEval, type Outcome, type RedissonConfig } from './redisson/executor.js';
import { FAIR_ACQUIRE_FAILED, FAIR_TRY_LOCK, FAIR_UNLOCK, fairChannelOf, fairQueueOf, fairTimeoutSetOf, fairWaiterChannelOf } from './redisson/fair-scripts.js';
import { cancelRenewal, scheduleRenewal } from './redisson/renewal.js';
import { atLeastVersion, eraAt } from './redisson/semaphore-scripts.js';
import { configCache } from './redisson/config-cache.js';

/** LockPubSub.UNLOCK_MESSAGE. */
const UNLOCK_MESSAGE = '0';
/** RedissonSubscribeService.getPublishCommand: PUBLISH (SPUBLISH only for a sharded cluster, not modelled). */
const PUBLISH = 'PUBLISH';

/**
 * threadWaitTime by version: 5000 ms (RedissonFairLock.java @ redisson-3.11.0, a final field;
 * the constructor's default from 3.11.1), 60000*5 from 3.13.3 (the two-argument constructor),
 * Config.fairLockWaitTimeout = 5 * 60000 from 3.46.0 (config/Config.java @ redisson-3.46.0).
 */
export const defaultThreadWaitTimeMs = (version: string): number => (atLeastVersion(version, '3.13.3') ? 300_000 : 5_000);

/** The version from which threadWaitTime can be set at all: the three-argument constructor (RedissonFairLock.java @ redisson-3.11.1). */
export const THREAD_WAIT_TIME_SINCE = '3.11.1';

const configOf = configCache('redisson/fair-config');

/** Acquire and unlock are not re-sent on a single server from 3.37.0 (syncedEvalNoRetry), as RLock's. */
const lockRetried = (config: RedissonConfig): boolean => !(config.b.lockNoRetryOnSingleServer && !config.setup.replicated);

const threadWaitOf = (params: LockParams): number => params.threadWaitTimeMs ?? defaultThreadWaitTimeMs(params.redissonVersion);

/**
 * The `wait` the scripts get: threadWaitTime, or from 3.13.3 the tryLock's own waitTime when one
 * is given (`waitTime != -1`; from 3.17.1 `waitTime > 0`), RedissonFairLock.java
 * tryLockInnerAsync / acquireFailedAsync. lock() (wait forever) passes -1: threadWaitTime.
 */
function waitArgMs(params: LockParams): number {
  const version = params.redissonVersion;
  const forever = params.waitMs === Number.POSITIVE_INFINITY;
  if (forever || !atLeastVersion(version, '3.13.3')) return threadWaitOf(params);
  if (atLeastVersion(version, '3.17.1') && params.waitMs <= 0) return threadWaitOf(params);
  return params.waitMs;
}

/** tryLockInnerAsync (EVAL_LONG): the script with this version's arguments, "now" on the client's clock. */
function* tryLockScript(lock: LockHandle, params: LockParams): EffectProgram<string[]> {
  const version = params.redissonVersion;
  const nowMs = (yield CLOCK_EFFECT) as number;
  const keys = ['3', lock.key, fairQueueOf(lock.key), fairTimeoutSetOf(lock.key)];
  const lua = eraAt(FAIR_TRY_LOCK, version).lua;
  const lease = String(lock.leaseMs);
  if (!atLeastVersion(version, '3.11.1')) return ['EVAL', lua, ...keys, lease, lock.threadOwner, String(nowMs + threadWaitOf(params)), String(nowMs)];
  return ['EVAL', lua, ...keys, lease, lock.threadOwner, String(waitArgMs(params)), String(nowMs)];
}

/**
 * unlockInnerAsync: the script (KEYS: lock, queue, timeouts, channel; from 3.24.0 the unlock
 * latch, deleted after the reply as RedissonBaseLock.unlockAsync0 does for RLock).
 */
function* unlockInner(config: RedissonConfig, lock: LockHandle, params: LockParams, requestId: string): EffectProgram<Outcome> {
  const version = params.redissonVersion;
  const lua = eraAt(FAIR_UNLOCK, version).lua;
  const keys = [lock.key, fairQueueOf(lock.key), fairTimeoutSetOf(lock.key), fairChannelOf(lock.key)];
  const nowMs = String((yield CLOCK_EFFECT) as number);
  const argv = [UNLOCK_MESSAGE, String(lock.leaseMs), lock.threadOwner, nowMs];
  let latch: string | null = null;
  if (atLeastVersion(version, '3.22.0')) argv.push(PUBLISH);
  if (config.b.unlockLatch) {
    latch = `redisson_unlock_latch:{${lock.key}}:${requestId}`;
    // (timeout + the delay before the last re-send) x retryAttempts, as RLock's (redisson.ts).
    const timeoutMs = config.setup.commandTimeoutUs / 1000;
    const latchMs = (timeoutMs + (yield* retryDelayMs(config, config.retryAttempts))) * config.retryAttempts;
    keys.push(latch);
    argv.push(String(config.b.latchAtLeastOneMs ? Math.max(latchMs, 1) : latchMs));
  }
  const r = yield* syncedEval(config, ['EVAL', lua, String(keys.length), ...keys, ...argv], lockRetried(config));
  if (latch !== null && r.kind === 'reply' && !isErrorReply(r.reply)) yield redisSend(['DEL', latch]);
  return r;
}

/**
 * acquireFailedAsync: the waiter leaves the queue and takes its `wait` off the timeouts of those
 * behind it (3.11.0: off everyone's when it was first). Re-sent as the lock script is, and always
 * from 4.7.0 (syncedEvalWithRetry, redisson#5019). Its answer is not read.
 */
function* acquireFailed(config: RedissonConfig, lock: LockHandle, params: LockParams): EffectProgram<void> {
  const version = params.redissonVersion;
  const wait = atLeastVersion(version, '3.13.3') ? waitArgMs(params) : threadWaitOf(params);
  const script = ['EVAL', eraAt(FAIR_ACQUIRE_FAILED, version).lua, '2', fairQueueOf(lock.key), fairTimeoutSetOf(lock.key), lock.threadOwner, String(wait)];
  yield* syncedEval(config, script, lockRetried(config) || atLeastVersion(version, '4.7.0'));
}

/**
 * tryAcquire: tryLockInnerAsync through syncedEval, run again by ServiceManager.execute after a
 * recognised no-sync error where the version does, with handleNoSync's give-back (the fair
 * unlock); on success without a lease the watchdog. Returns the result or the script's ttl.
 */
function* tryAcquire(config: RedissonConfig, lock: LockHandle, params: LockParams, request: string): EffectProgram<AcquireResult | number> {
  const { outcome: r, givenBack } = yield* acquireRuns(
    config,
    lock.token,
    function* () {
      return yield* syncedEval(config, yield* tryLockScript(lock, params), lockRetried(config));
    },
    (requestId) => unlockInner(config, lock, params, requestId),
  );
  if (r.kind !== 'reply' || isErrorReply(r.reply)) return acquireFailure(r, givenBack);
  if (r.reply === null) {
    if (params.leaseMs === null) yield* scheduleRenewal(config, lock.key, lock.threadOwner, request);
    return ACQUIRED;
  }
  return typeof r.reply === 'number' ? r.reply : -1;
}

/** Redisson's tryLock(wait, lease): acquireFailed each time the wait runs out (RedissonLock.java tryLock). */
function* tryLock(config: RedissonConfig, lock: LockHandle, params: LockParams, request: string): EffectProgram<AcquireResult> {
  const clock = function* (): EffectProgram<number> {
    return (yield CLOCK_EFFECT) as number;
  };
  const startMs = yield* clock();
  const spent = function* (): EffectProgram<boolean> {
    return (yield* clock()) - startMs >= params.waitMs;
  };
  const first = yield* tryAcquire(config, lock, params, request);
  if (typeof first !== 'number') return first;
  if (yield* spent()) {
    yield* acquireFailed(config, lock, params);
    return BUSY;
  }
  const channel = fairWaiterChannelOf(lock.key, lock.threadOwner);
  yield subscribe(channel);
  try {
    for (;;) {
      if (yield* spent()) {
        yield* acquireFailed(config, lock, params);
        return BUSY;
      }
      const ttl = yield* tryAcquire(config, lock, params, request);
      if (typeof ttl !== 'number') {
        // 4.7.0: a response timeout in the loop leaves the queue before it fails (redisson#5019).
        if (ttl.acquired === false && ttl.reason === 'timeout' && atLeastVersion(params.redissonVersion, '4.7.0')) yield* acquireFailed(config, lock, params);
        return ttl;
      }
      if (yield* spent()) {
        yield* acquireFailed(config, lock, params);
        return BUSY;
      }
      const remainingMs = params.waitMs - ((yield* clock()) - startMs);
      // ttl >= 0 && ttl < time: sleep ttl; otherwise (a negative ttl too) the whole time left.
      const sleepMs = ttl >= 0 && ttl < remainingMs ? ttl : remainingMs;
      yield awaitMessage(channel, Math.max(1, sleepMs) * 1000);
    }
  } finally {
    yield unsubscribe(channel);
  }
}

/** Redisson's lock(lease) (wait forever): a negative ttl waits for a message with no bound (RedissonLock.java lock). */
function* lockForever(config: RedissonConfig, lock: LockHandle, params: LockParams, request: string): EffectProgram<AcquireResult> {
  const first = yield* tryAcquire(config, lock, params, request);
  if (typeof first !== 'number') return first;
  const channel = fairWaiterChannelOf(lock.key, lock.threadOwner);
  yield subscribe(channel);
  try {
    for (;;) {
      const ttl = yield* tryAcquire(config, lock, params, request);
      if (typeof ttl !== 'number') return ttl;
      yield awaitMessage(channel, ttl >= 0 ? Math.max(1, ttl) * 1000 : null);
    }
  } finally {
    yield unsubscribe(channel);
  }
}

export const redissonFair: LockProtocol = {
  name: 'redisson-fair',
  summary: 'Redisson RFairLock by version: RLock\'s hash and watchdog plus a FIFO queue of waiters with timeouts (threadWaitTime); each waiter woken on its own channel',
  reentrantByThread: true,
  upstreamLua: true,
  fair: true,
  *acquire(lock, params) {
    const config = yield* configOf(params);
    // Without a lease: lockWatchdogTimeout, renewed by the watchdog (RedissonLock.tryAcquireAsync).
    lock.leaseMs = params.leaseMs ?? config.lockWatchdogTimeoutMs;
    const request = (yield CURRENT_REQUEST_EFFECT) as string;
    if (params.waitMs === Number.POSITIVE_INFINITY) return yield* lockForever(config, lock, params, request);
    return yield* tryLock(config, lock, params, request);
  },
  /** RedissonBaseLock.unlockAsync: the fair unlock script, then the watchdog cancelled; run again by ServiceManager.execute. */
  *release(lock, params) {
    const config = yield* configOf(params);
    return yield* unlockRuns(
      config,
      lock.token,
      (requestId) => unlockInner(config, lock, params, requestId),
      () => cancelRenewal(config, lock.key, lock.threadOwner),
      'not locked by current thread',
    );
  },
};
