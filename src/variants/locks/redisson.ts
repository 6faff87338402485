/**
 * Redisson RLock (reference/lock-semantics.md section 1): a hash at the lock key with field
 * "<client uuid>:<thread id>" counting re-entries. Without a lease the lock is taken for
 * lockWatchdogTimeout = 30 000 ms and a watchdog renews it every 30 000 / 3 = 10 000 ms
 * (3.x design: one timer per lock, re-armed after each successful renewal, stopped for good
 * after one failed renewal as in 3.14-3.43). A given lease disables the watchdog (3.17.1+:
 * leaseTime > 0). Waiters subscribe to redisson_lock__channel:{name} and sleep on a latch
 * until an unlock message or the holder's PTTL, whichever comes first.
 */
import {
  awaitMessage,
  cancel,
  localClockMs,
  note,
  redis,
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

export const channelOf = (key: string): string => `redisson_lock__channel:{${key}}`;

function* tryAcquireOnce(lock: LockHandle): EffectProgram<AcquireResult | number> {
  const r = yield* redis('EVAL', redissonAcquire.lua, '1', lock.key, String(lock.leaseMs), lock.threadOwner);
  const failure = acquireFailure(r);
  if (failure) return failure;
  if (r.status === 'ok' && r.reply === null) return ACQUIRED;
  // Otherwise the script returned the holder's PTTL: how long a waiter may sleep at most.
  return r.status === 'ok' && typeof r.reply === 'number' ? r.reply : -1;
}

function* watchdog(lock: LockHandle): EffectProgram<void> {
  const lease = String(LOCK_WATCHDOG_TIMEOUT_MS);
  for (;;) {
    yield* sleep((LOCK_WATCHDOG_TIMEOUT_MS / 3) * 1000);
    const r = yield* redis('EVAL', redissonRenew.lua, '1', lock.key, lease, lock.threadOwner);
    if (r.status === 'timeout' || isErrorReply(r.reply)) {
      // 3.14-3.43: "Can't update lock expiration", and renewal stops for good.
      yield* note('renew', false, r.status === 'timeout' ? 'renewal timed out; watchdog stops' : String(r.reply));
      return;
    }
    if (r.reply !== 1) {
      yield* note('renew', false, 'lock no longer ours; watchdog stops (the thread is not told)');
      return;
    }
    yield* note('renew', true, `renewed to ${LOCK_WATCHDOG_TIMEOUT_MS}ms`);
  }
}

function* startWatchdogIfNeeded(lock: LockHandle, params: LockParams): EffectProgram<AcquireResult> {
  if (params.leaseMs === null) lock.watchdog = yield* spawn('watchdog', () => watchdog(lock));
  return ACQUIRED;
}

export const redisson: LockProtocol = {
  name: 'redisson',
  summary: 'Redisson RLock: hash + reentrancy, watchdog when no lease, pub/sub waiters',
  *acquire(lock, params) {
    lock.leaseMs = params.leaseMs ?? LOCK_WATCHDOG_TIMEOUT_MS;
    const startMs = yield* localClockMs();
    const first = yield* tryAcquireOnce(lock);
    if (typeof first !== 'number') {
      return first.acquired ? yield* startWatchdogIfNeeded(lock, params) : first;
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
          return attempt.acquired ? yield* startWatchdogIfNeeded(lock, params) : attempt;
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
