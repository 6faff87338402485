/**
 * Redisson RLock (reference/lock-semantics.md section 1): a hash at the lock key with field
 * "<client uuid>:<thread id>" counting re-entries. Without a lease the lock is taken for
 * lockWatchdogTimeout = 30 000 ms and a watchdog renews it every 30 000 / 3 = 10 000 ms
 * (3.x design: one timer per lock, re-armed after each successful renewal). After a failed
 * renewal it stops for good (3.14-3.43, `watchdog-on-error: stop`) or keeps going (3.44+,
 * `continue`). A given lease disables the watchdog (3.17.1+: leaseTime > 0). Waiters
 * subscribe to redisson_lock__channel:{name} and sleep on a latch until an unlock message
 * or the holder's PTTL, whichever comes first.
 * With replicas, acquire and renew are followed by WAIT <replicas> 1000 (syncedEval,
 * checkLockSyncedSlaves, 1.9): only when no replica at all acknowledged does the acquire
 * unlock and fail (3.17.5+ / 3.20.0+ handleNoSync). A standalone server skips WAIT.
 */
import {
  awaitMessage,
  cancel,
  localClockMs,
  note,
  redis,
  replicaCount,
  sleep,
  spawn,
  subscribe,
  unsubscribe,
  type EffectProgram,
} from '../../world/effects.js';
import { isErrorReply } from '../../world/redis/reply.js';
import { redissonAcquire, redissonRenew, redissonUnlock } from '../../world/redis/scripts.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol } from '../lock-protocol.js';
import { ACQUIRED, acquireFailure, BUSY, RELEASED, releaseFailure } from './outcomes.js';

/** Config.lockWatchdogTimeout (lock-semantics.md 1.1). */
export const LOCK_WATCHDOG_TIMEOUT_MS = 30_000;
/** LockPubSub.UNLOCK_MESSAGE. */
const UNLOCK_MESSAGE = '0';
/** slavesSyncTimeout default: 1000 ms (lock-semantics.md 1.1). */
export const SLAVES_SYNC_TIMEOUT_MS = 1_000;

/**
 * WAIT after a lock script, as syncedEval does. Returns an error text when no replica
 * acknowledged (or WAIT itself failed), null when synced or when there is nothing to wait for.
 */
function* syncReplicas(params: LockParams): EffectProgram<string | null> {
  if (!params.syncReplicas) return null;
  const replicas = yield* replicaCount();
  if (replicas === 0) return null;
  const r = yield* redis('WAIT', String(replicas), String(SLAVES_SYNC_TIMEOUT_MS));
  if (r.status === 'timeout') return 'WAIT timed out';
  if (isErrorReply(r.reply)) return r.reply.message;
  return r.reply === 0 ? 'None of slaves were synced' : null;
}

export const channelOf = (key: string): string => `redisson_lock__channel:{${key}}`;

function* tryAcquireOnce(lock: LockHandle): EffectProgram<AcquireResult | number> {
  const r = yield* redis('EVAL', redissonAcquire.lua, '1', lock.key, String(lock.leaseMs), lock.threadOwner);
  const failure = acquireFailure(r);
  if (failure) return failure;
  if (r.status === 'ok' && r.reply === null) return ACQUIRED;
  // Otherwise the script returned the holder's PTTL: how long a waiter may sleep at most.
  return r.status === 'ok' && typeof r.reply === 'number' ? r.reply : -1;
}

function* watchdog(lock: LockHandle, params: LockParams): EffectProgram<void> {
  const lease = String(LOCK_WATCHDOG_TIMEOUT_MS);
  for (;;) {
    yield* sleep((LOCK_WATCHDOG_TIMEOUT_MS / 3) * 1000);
    const r = yield* redis('EVAL', redissonRenew.lua, '1', lock.key, lease, lock.threadOwner);
    const reply = r.status === 'ok' ? r.reply : null;
    const error =
      r.status === 'timeout' ? 'renewal timed out' : isErrorReply(reply) ? reply.message : reply === 1 ? yield* syncReplicas(params) : null;
    if (error !== null) {
      // "Can't update lock expiration": 3.14-3.43 stop for good, 3.44+ try again next tick.
      const stops = params.watchdogOnError === 'stop';
      yield* note('renew', false, `${error}; watchdog ${stops ? 'stops' : 'keeps renewing'}`);
      if (stops) return;
      continue;
    }
    if (reply !== 1) {
      yield* note('renew', false, 'lock no longer ours; watchdog stops (the thread is not told)');
      return;
    }
    yield* note('renew', true, `renewed to ${LOCK_WATCHDOG_TIMEOUT_MS}ms`);
  }
}

/** After the acquire script said yes: sync replicas (or give the lock back), then the watchdog. */
function* acquired(lock: LockHandle, params: LockParams): EffectProgram<AcquireResult> {
  const syncError = yield* syncReplicas(params);
  if (syncError !== null) {
    // handleNoSync (3.20.0+): unlock the lock just taken, and the acquisition fails.
    yield* redis('EVAL', redissonUnlock.lua, '2', lock.key, channelOf(lock.key), UNLOCK_MESSAGE, String(lock.leaseMs), lock.threadOwner);
    return { acquired: false, reason: 'error', detail: `${syncError}; lock given back` };
  }
  if (params.leaseMs === null) lock.watchdog = yield* spawn('watchdog', () => watchdog(lock, params));
  return ACQUIRED;
}

export const redisson: LockProtocol = {
  name: 'redisson',
  summary: 'Redisson RLock: hash + reentrancy, watchdog when no lease, pub/sub waiters',
  reentrantByThread: true,
  *acquire(lock, params) {
    lock.leaseMs = params.leaseMs ?? LOCK_WATCHDOG_TIMEOUT_MS;
    const startMs = yield* localClockMs();
    const first = yield* tryAcquireOnce(lock);
    if (typeof first !== 'number') {
      return first.acquired ? yield* acquired(lock, params) : first;
    }
    if (params.waitMs <= 0) return BUSY;
    const channel = channelOf(lock.key);
    yield* subscribe(channel);
    try {
      for (;;) {
        const remainingMs = params.waitMs - ((yield* localClockMs()) - startMs);
        if (remainingMs <= 0) return BUSY;
        const attempt = yield* tryAcquireOnce(lock);
        if (typeof attempt !== 'number') {
          return attempt.acquired ? yield* acquired(lock, params) : attempt;
        }
        // A key without TTL (ttl < 0) gives no bound: wait for an unlock message or the budget.
        const sleepMs = attempt >= 0 ? Math.min(attempt, remainingMs) : remainingMs;
        yield* awaitMessage(channel, Math.max(1, sleepMs) * 1000);
      }
    } finally {
      yield* unsubscribe(channel);
    }
  },
  *release(lock) {
    const r = yield* redis(
      'EVAL',
      redissonUnlock.lua,
      '2',
      lock.key,
      channelOf(lock.key),
      UNLOCK_MESSAGE,
      String(lock.leaseMs),
      lock.threadOwner,
    );
    // cancelExpirationRenewal runs after the reply in every case, errors included.
    if (lock.watchdog !== null) yield* cancel(lock.watchdog);
    lock.watchdog = null;
    const failure = releaseFailure(r);
    if (failure) return failure;
    if (r.status === 'ok' && r.reply === null) {
      return { released: false, reason: 'not-held', detail: 'IllegalMonitorStateException: not locked by current thread' };
    }
    return RELEASED;
  },
};
