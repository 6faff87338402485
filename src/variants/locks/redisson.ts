/**
 * Redisson RLock, version by version (redisson/versions.ts). A hash at the lock key with the
 * field "<client uuid>:<thread id>" counting re-entries (RedissonLock.tryLockInnerAsync).
 * Without a lease the lock is taken for lockWatchdogTimeout (30 s) and the watchdog renews
 * it (redisson/renewal.ts); a given lease turns the watchdog off. Waiters subscribe to
 * redisson_lock__channel:{name} and sleep on a latch until an unlock message or the
 * holder's PTTL, whichever comes first. Every command goes through Redisson's executor
 * (redisson/executor.ts): re-sent after a response timeout, followed by WAIT when Redis has
 * replicas, the whole acquire or unlock run again after a recognised "no replica synced".
 */
import { awaitMessage, CLOCK_EFFECT, clientStateEffect, CURRENT_REQUEST_EFFECT, redisSend, subscribe, unsubscribe, type EffectProgram } from '../../world/effects.js';
import { isErrorReply } from '../../world/redis/reply.js';
import { redissonAcquire, redissonUnlock, redissonUnlockLatch } from '../../world/redis/scripts.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol } from '../lock-protocol.js';
import { ACQUIRED, BUSY } from './lock-results.js';
import { acquireFailure, unlockRuns } from './redisson/acquire-runs.js';
import { clientConfig, knownSync, recognisedNoSync, rerunDelay, rerunsAfter, retryDelayMs, SYNC_UNKNOWN, syncedEffect, syncedEval, syncedOutcome, syncedResent, type Outcome, type RedissonConfig } from './redisson/executor.js';
import { cancelRenewal, scheduleRenewal } from './redisson/renewal.js';
import { behaviourOf } from './redisson/versions.js';

/** LockPubSub.UNLOCK_MESSAGE. */
const UNLOCK_MESSAGE = '0';

const channelOf = (key: string): string => `redisson_lock__channel:{${key}}`;

const newConfigs = (): Map<LockParams, RedissonConfig> => new Map();
/** The effects of every lock call, yielded in place (no helper generator per call). */
const CONFIGS = clientStateEffect('redisson/config', newConfigs);

/** The settings of this variant's Redisson client, made once per client process, at its first lock call. */
function* makeConfig(params: LockParams, made: Map<LockParams, RedissonConfig>): EffectProgram<RedissonConfig> {
  const config = yield* clientConfig(params, behaviourOf(params.redissonVersion));
  made.set(params, config);
  return config;
}

/** Acquire and unlock are not re-sent on a single server from 3.37.0 (syncedEvalNoRetry). */
const lockRetried = (config: RedissonConfig): boolean => !(config.b.lockNoRetryOnSingleServer && !config.setup.replicated);

/**
 * unlockInnerAsync: the unlock script; from 3.24.0 with a latch named by `requestId`,
 * deleted after the reply without waiting for the answer (thenApply ... writeAsync DEL).
 */
function* unlockInner(config: RedissonConfig, lock: LockHandle, requestId: string): EffectProgram<Outcome> {
  const channel = channelOf(lock.key);
  const lease = String(lock.leaseMs);
  let script: string[];
  let latch: string | null = null;
  if (!config.b.unlockLatch) {
    script = ['EVAL', redissonUnlock.lua, '2', lock.key, channel, UNLOCK_MESSAGE, lease, lock.threadOwner];
  } else {
    latch = `redisson_unlock_latch:{${lock.key}}:${requestId}`;
    // (timeout + the delay before the last re-send) x retryAttempts: as long as re-sends may come.
    const timeoutMs = config.setup.commandTimeoutUs / 1000;
    const latchMs = (timeoutMs + (yield* retryDelayMs(config, config.retryAttempts))) * config.retryAttempts;
    const px = config.b.latchAtLeastOneMs ? Math.max(latchMs, 1) : latchMs;
    script = ['EVAL', redissonUnlockLatch.lua, '3', lock.key, channel, latch, UNLOCK_MESSAGE, lease, lock.threadOwner, 'PUBLISH', String(px)];
  }
  // syncedEval in place when what it sends is known (as in tryAcquire).
  const n = knownSync(config);
  let r: Outcome;
  if (n === SYNC_UNKNOWN) r = yield* syncedEval(config, script, lockRetried(config));
  else {
    const effect = syncedEffect(config, script, n);
    const answer: unknown = yield effect;
    r = syncedOutcome(config, n, answer) ?? (yield* syncedResent(config, effect, n, answer, lockRetried(config)));
  }
  if (latch !== null && r.kind === 'reply' && !isErrorReply(r.reply)) yield redisSend(['DEL', latch]);
  return r;
}

/**
 * RedissonLock.tryAcquireAsync (tryAcquireAsync0 from 3.21.0): tryLockInnerAsync, run again
 * by ServiceManager.execute after a recognised no-sync error when the version does, with
 * RedissonBaseLock.handleNoSync's give-back; on success without a lease the watchdog
 * (scheduleExpirationRenewal). Returns the result, or the holder's PTTL (the script's reply
 * when another thread holds the lock).
 */
function* tryAcquire(config: RedissonConfig, lock: LockHandle, watchdog: boolean, request: string, script: string[]): EffectProgram<AcquireResult | number> {
  let givenBack = false;
  let giveBacks = 0;
  let r: Outcome;
  for (let run = 0; ; run++) {
    // tryLockInnerAsync: the script through syncedEval (RedissonBaseLock.evalWriteAsync),
    // sent in place when what goes out is known (knownSync): no generator under the command.
    const n = knownSync(config);
    if (n === SYNC_UNKNOWN) r = yield* syncedEval(config, script, lockRetried(config));
    else {
      const effect = syncedEffect(config, script, n);
      const answer: unknown = yield effect;
      r = syncedOutcome(config, n, answer) ?? (yield* syncedResent(config, effect, n, answer, lockRetried(config)));
    }
    givenBack = false;
    if (r.kind === 'no-sync' && config.b.giveBackOnNoSync && recognisedNoSync(config, r)) {
      // handleNoSync: unlock what was just taken, then fail with the original error.
      const back = yield* unlockInner(config, lock, `${lock.token}:give-back-${++giveBacks}`);
      givenBack = back.kind === 'no-sync' || (back.kind === 'reply' && !isErrorReply(back.reply));
    }
    if (!(config.b.retryAcquireOnNoSync && rerunsAfter(config, r, run))) break;
    yield* rerunDelay(config, run);
  }
  if (r.kind !== 'reply' || isErrorReply(r.reply)) return acquireFailure(r, givenBack);
  if (r.reply === null) {
    if (watchdog) yield* scheduleRenewal(config, lock.key, lock.threadOwner, request);
    return ACQUIRED;
  }
  // Otherwise the script returned the holder's PTTL: how long a waiter may sleep at most.
  return typeof r.reply === 'number' ? r.reply : -1;
}

/**
 * RedissonLock.tryLock(waitTime, leaseTime, unit): a first try; with a wait budget,
 * subscribe and try again after each unlock message or the holder's PTTL until the budget
 * is spent, then unsubscribe. The variant's own acquire, and each lock of a multi-lock
 * (redisson-multi.ts), which passes its own wait and lease per lock.
 */
export function* tryLockRLock(lock: LockHandle, params: LockParams, waitMs: number, leaseMs: number | null): EffectProgram<AcquireResult> {
  // configOf in place (a generator less per lock call): the config, made on first use.
  const made = (yield CONFIGS) as Map<LockParams, RedissonConfig>;
  const config = made.get(params) ?? (yield* makeConfig(params, made));
  // Without a lease: tryLockInnerAsync(lockWatchdogTimeout) (RedissonLock.tryAcquireAsync).
  lock.leaseMs = leaseMs ?? config.lockWatchdogTimeoutMs;
  const request = (yield CURRENT_REQUEST_EFFECT) as string;
  const startMs = (yield CLOCK_EFFECT) as number;
  // The script is the same for every try of this call (commands are only read).
  const script = ['EVAL', redissonAcquire.lua, '1', lock.key, String(lock.leaseMs), lock.threadOwner];
  const first = yield* tryAcquire(config, lock, leaseMs === null, request, script);
  if (typeof first !== 'number') return first;
  if (waitMs <= 0) return BUSY;
  const channel = channelOf(lock.key);
  yield subscribe(channel);
  // From here on the call unsubscribes when it ends (not when the subscribe itself failed).
  try {
    for (;;) {
      const remainingMs = waitMs - (((yield CLOCK_EFFECT) as number) - startMs);
      if (remainingMs <= 0) return BUSY;
      const ttl = yield* tryAcquire(config, lock, leaseMs === null, request, script);
      if (typeof ttl !== 'number') return ttl;
      // A key without TTL (ttl < 0) gives no bound: wait for an unlock message or the budget.
      const sleepMs = ttl >= 0 ? Math.min(ttl, remainingMs) : remainingMs;
      yield awaitMessage(channel, Math.max(1, sleepMs) * 1000);
    }
  } finally {
    yield unsubscribe(channel);
  }
}

export const redisson: LockProtocol = {
  name: 'redisson',
  summary: 'Redisson RLock by version: hash + reentrancy, watchdog when no lease, pub/sub waiters, command re-sends, WAIT for replicas',
  reentrantByThread: true,
  acquire: (lock, params) => tryLockRLock(lock, params, params.waitMs, params.leaseMs),
  /** RedissonBaseLock.unlockAsync: the unlock script, then the watchdog cancelled; run again by ServiceManager.execute. */
  *release(lock, params) {
    const made = (yield CONFIGS) as Map<LockParams, RedissonConfig>;
    const config = made.get(params) ?? (yield* makeConfig(params, made));
    return yield* unlockRuns(
      config,
      lock.token,
      (requestId) => unlockInner(config, lock, requestId),
      () => cancelRenewal(config, lock.key, lock.threadOwner),
      'not locked by current thread',
    );
  },
};
