/**
 * Redisson's RReadWriteLock, version by version: RedissonReadWriteLock's readLock() and
 * writeLock() on one name (RedissonReadLock.java, RedissonWriteLock.java), each request taking
 * the side its mode says (LockHandle.mode: `read`, or the write lock). Both are RedissonLock
 * subclasses: tryLock, the pub/sub wait and the unlock are RLock's (redisson.ts), with their own
 * scripts (redisson/read-write-scripts.ts, upstream's Lua run verbatim in the nodes' Lua VM),
 * their own channel (`redisson_rwlock:{name}`) and their own watchdog renewal:
 * - the write lock renews as an RLock does (its field `<uuid>:<thread>:write`; renewal.ts);
 * - the read lock, before 3.44.0, renews in the per-lock timer with RedissonReadLock's
 *   renewExpirationAsync (the hash and every reader's timeout key); from 3.44.0 in the client's
 *   ReadLockTask (redisson/read-lock-renewal.ts), whose script in 3.44.0 .. 3.52.0 renews the
 *   timeout keys of the first name of each chunk only (redisson#6883).
 * Commands go through Redisson's executor with RLock's behaviour by version (redisson/executor.ts,
 * versions.ts): the read and write locks moved to WAIT (3.12.5), syncedEval (3.21.0), the
 * unlock latch (3.24.0) and no re-send on a single server (3.37.0) in the same commits as RLock.
 */
import { awaitMessage, CLOCK_EFFECT, CURRENT_REQUEST_EFFECT, redisSend, subscribe, unsubscribe, type EffectProgram } from '../../world/effects.js';
import { isErrorReply } from '../../world/redis/reply.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol } from '../lock-protocol.js';
import { ACQUIRED, BUSY } from './lock-results.js';
import { acquireFailure, acquireRuns, unlockRuns } from './redisson/acquire-runs.js';
import { retryDelayMs, syncedEval, type Outcome, type RedissonConfig } from './redisson/executor.js';
import { cancelReadRenewal, scheduleReadRenewal } from './redisson/read-lock-renewal.js';
import { readAcquireCommand, readRenewCommand, readUnlockCommand, rwLatchOf, writeAcquireCommand, writeUnlockCommand, type UnlockLatch } from './redisson/read-write-commands.js';
import { rwChannelOf, writeFieldOf } from './redisson/read-write-scripts.js';
import { cancelRenewal, scheduleRenewal, type RenewCommand } from './redisson/renewal.js';
import { configCache } from './redisson/config-cache.js';

const configOf = configCache('redisson/read-write-config');

const isRead = (lock: LockHandle): boolean => lock.mode === 'read';

/** Acquire and unlock are not re-sent on a single server from 3.37.0 (syncedEvalNoRetry), as RLock's. */
const lockRetried = (config: RedissonConfig): boolean => !(config.b.lockNoRetryOnSingleServer && !config.setup.replicated);

/** RedissonReadLock.renewExpirationAsync as the per-lock timer's renewal (an entry the read lock made). */
const readRenew = (version: string): RenewCommand => (key, owner, leaseMs) => readRenewCommand(version, key, leaseMs, owner);

/** unlockInnerAsync of the side held; from 3.24.0 with a latch named by `requestId`, deleted after the reply unawaited (as RLock's). */
function* unlockInner(config: RedissonConfig, lock: LockHandle, params: LockParams, requestId: string): EffectProgram<Outcome> {
  const version = params.redissonVersion;
  let latch: UnlockLatch | null = null;
  if (config.b.unlockLatch) {
    // (timeout + the delay before the last re-send) x retryAttempts, as RLock's latch.
    const timeoutMs = config.setup.commandTimeoutUs / 1000;
    const latchMs = (timeoutMs + (yield* retryDelayMs(config, config.retryAttempts))) * config.retryAttempts;
    latch = { key: rwLatchOf(lock.key, requestId), ms: config.b.latchAtLeastOneMs ? Math.max(latchMs, 1) : latchMs };
  }
  const leaseMs = lock.leaseMs ?? config.lockWatchdogTimeoutMs;
  const script = isRead(lock) ? readUnlockCommand(version, lock.key, lock.threadOwner, latch) : writeUnlockCommand(version, lock.key, leaseMs, lock.threadOwner, latch);
  const r = yield* syncedEval(config, script, lockRetried(config));
  if (latch !== null && r.kind === 'reply' && !isErrorReply(r.reply)) yield redisSend(['DEL', latch.key]);
  return r;
}

/** The watchdog of the side taken (scheduleExpirationRenewal, overridden by RedissonReadLock). */
function* startRenewal(config: RedissonConfig, lock: LockHandle, params: LockParams, request: string): EffectProgram<void> {
  if (!isRead(lock)) return yield* scheduleRenewal(config, lock.key, writeFieldOf(lock.threadOwner), request);
  if (config.b.renewal === 'shared') return yield* scheduleReadRenewal(config, params.redissonVersion, lock.key, lock.threadOwner, request);
  yield* scheduleRenewal(config, lock.key, lock.threadOwner, request, readRenew(params.redissonVersion));
}

/** cancelExpirationRenewal of the side held (RedissonReadLock's also cancels its ReadLockTask entry, 3.44.0+). */
function* stopRenewal(config: RedissonConfig, lock: LockHandle): EffectProgram<void> {
  if (!isRead(lock)) return yield* cancelRenewal(config, lock.key, writeFieldOf(lock.threadOwner));
  if (config.b.renewal === 'shared') return yield* cancelReadRenewal(lock.key, lock.threadOwner);
  yield* cancelRenewal(config, lock.key, lock.threadOwner);
}

/**
 * tryAcquireAsync: the side's tryLockInnerAsync, run again after a recognised no-sync error
 * when the version does, with handleNoSync's give-back; the watchdog on success without a
 * lease. Returns the result, or the hash's PTTL (the script's reply when the lock is taken).
 */
function* tryAcquire(config: RedissonConfig, lock: LockHandle, params: LockParams, request: string, script: string[]): EffectProgram<AcquireResult | number> {
  const { outcome: r, givenBack } = yield* acquireRuns(
    config,
    lock.token,
    () => syncedEval(config, script, lockRetried(config)),
    (requestId) => unlockInner(config, lock, params, requestId),
  );
  if (r.kind !== 'reply' || isErrorReply(r.reply)) return acquireFailure(r, givenBack);
  if (r.reply === null) {
    if (params.leaseMs === null) yield* startRenewal(config, lock, params, request);
    return ACQUIRED;
  }
  return typeof r.reply === 'number' ? r.reply : -1;
}

export const redissonReadWrite: LockProtocol = {
  name: 'redisson-read-write',
  summary: 'Redisson RReadWriteLock by version: readers share a hash (mode read, a timeout key per reader), a writer holds it alone; watchdog, pub/sub waiters',
  reentrantByThread: true,
  readWrite: true,
  namesNoHolder: true,
  upstreamLua: true,
  /** RedissonLock.tryLock on the side's lock object: a first try; with a wait budget, subscribe and try again after each unlock message or the PTTL. */
  *acquire(lock, params) {
    const config = yield* configOf(params);
    lock.leaseMs = params.leaseMs ?? config.lockWatchdogTimeoutMs;
    const request = (yield CURRENT_REQUEST_EFFECT) as string;
    const startMs = (yield CLOCK_EFFECT) as number;
    const version = params.redissonVersion;
    const script = isRead(lock) ? readAcquireCommand(version, lock.key, lock.leaseMs, lock.threadOwner) : writeAcquireCommand(version, lock.key, lock.leaseMs, lock.threadOwner);
    const first = yield* tryAcquire(config, lock, params, request, script);
    if (typeof first !== 'number') return first;
    if (params.waitMs <= 0) return BUSY;
    const channel = rwChannelOf(lock.key);
    yield subscribe(channel);
    try {
      for (;;) {
        const remainingMs = params.waitMs - (((yield CLOCK_EFFECT) as number) - startMs);
        if (remainingMs <= 0) return BUSY;
        const ttl = yield* tryAcquire(config, lock, params, request, script);
        if (typeof ttl !== 'number') return ttl;
        const sleepMs = ttl >= 0 ? Math.min(ttl, remainingMs) : remainingMs;
        yield awaitMessage(channel, Math.max(1, sleepMs) * 1000);
      }
    } finally {
      yield unsubscribe(channel);
    }
  },
  /** RedissonBaseLock.unlockAsync on the side's lock object: its unlock script, then its renewal cancelled; run again after a no-sync error when the version does. */
  *release(lock, params) {
    const config = yield* configOf(params);
    return yield* unlockRuns(
      config,
      lock.token,
      (requestId) => unlockInner(config, lock, params, requestId),
      () => stopRenewal(config, lock),
      'attempt to unlock lock, not locked by current thread',
    );
  },
};
