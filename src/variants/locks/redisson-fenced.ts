/**
 * Redisson RFencedLock (RedissonFencedLock.java, from redisson-3.19.0), version by version: an
 * RLock whose every acquisition also INCRs a token counter and hands the new value back, a
 * fencing token for the storage to check (guard `fenced-write`). Requests take it with
 * tryLockAndGetToken(waitTime, leaseTime) (lockAndGetToken without a wait budget). The script
 * (redisson/fenced-scripts.ts) runs verbatim in the nodes' Lua VM; the unlock, the watchdog
 * and the pub/sub wait are RLock's, inherited (redisson.ts, redisson/renewal.ts).
 *
 * Where it differs from RLock's acquire (RedissonFencedLock.tryAcquireAsync at every tag from
 * 3.19.0 to 4.7.0): the script is sent by tryLockInnerAsync directly, with neither
 * RedissonBaseLock.handleNoSync's give-back nor ServiceManager.execute's re-run, so an
 * acquire whose WAIT no replica acknowledged fails and leaves the lock taken, at every
 * version. The counter lives on the lock's primary with no TTL: a failover that loses the
 * last INCRs hands the same token out again, which the storage then refuses as not above
 * the highest it processed (or accepts, when the new holder's token is higher).
 */
import { awaitMessage, CLOCK_EFFECT, clientStateEffect, CURRENT_REQUEST_EFFECT, subscribe, unsubscribe, type EffectProgram } from '../../world/effects.js';
import { isErrorReply } from '../../world/redis/reply.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol } from '../lock-protocol.js';
import { ACQUIRED, BUSY } from './lock-results.js';
import { redisson } from './redisson.js';
import { clientConfig, knownSync, SYNC_UNKNOWN, syncedEffect, syncedEval, syncedOutcome, syncedResent, type Outcome, type RedissonConfig } from './redisson/executor.js';
import { FENCED_ACQUIRE, tokenKeyOf } from './redisson/fenced-scripts.js';
import { eraAt } from './redisson/semaphore-scripts.js';
import { scheduleRenewal } from './redisson/renewal.js';
import { behaviourOf } from './redisson/versions.js';

/** RedissonLock.getChannelName: what an unlock publishes to and a waiter subscribes to. */
const channelOf = (key: string): string => `redisson_lock__channel:{${key}}`;

const newConfigs = (): Map<LockParams, RedissonConfig> => new Map();
const CONFIGS = clientStateEffect('redisson/fenced-config', newConfigs);

/**
 * The client's settings: RLock's of this version, without the give-back and the re-run that
 * RedissonLock.tryAcquireAsync has and RedissonFencedLock.tryAcquireAsync does not.
 */
function* configOf(params: LockParams): EffectProgram<RedissonConfig> {
  const made = (yield CONFIGS) as Map<LockParams, RedissonConfig>;
  const known = made.get(params);
  if (known) return known;
  const b = Object.freeze({ ...behaviourOf(params.redissonVersion), giveBackOnNoSync: false, retryAcquireOnNoSync: false });
  const config = yield* clientConfig(params, b);
  made.set(params, config);
  return config;
}

/**
 * One tryAcquireAsync: the script through the version's sending (evalWriteAsync, syncedEval,
 * syncedEvalNoRetry from 3.37.0: never re-sent on a single server, as RLock from the same
 * tag); on success without a lease the watchdog. Returns the result or the holder's PTTL.
 */
function* tryOnce(config: RedissonConfig, lock: LockHandle, params: LockParams, request: string, script: string[]): EffectProgram<AcquireResult | number> {
  const retry = !(config.b.lockNoRetryOnSingleServer && !config.setup.replicated);
  const n = knownSync(config);
  let r: Outcome;
  if (n === SYNC_UNKNOWN) r = yield* syncedEval(config, script, retry);
  else {
    const effect = syncedEffect(config, script, n);
    const answer: unknown = yield effect;
    r = syncedOutcome(config, n, answer) ?? (yield* syncedResent(config, effect, n, answer, retry));
  }
  switch (r.kind) {
    case 'timeout':
      return { acquired: false, reason: 'timeout', detail: `no reply after ${r.sends} sends (RedisResponseTimeoutException)` };
    case 'no-sync':
      // The script ran; when it took the lock, nothing gives it back (no handleNoSync here).
      if (tokenOf(r.reply) === null) return { acquired: false, reason: 'error', detail: r.message };
      return { acquired: false, reason: 'unknown', detail: `${r.message}; the lock taken stays held` };
    case 'reply': {
      if (isErrorReply(r.reply)) return { acquired: false, reason: 'error', detail: r.reply.message };
      const token = tokenOf(r.reply);
      if (token !== null) {
        lock.fence = token;
        if (params.leaseMs === null) yield* scheduleRenewal(config, lock.key, lock.threadOwner, request);
        return ACQUIRED;
      }
      // {pttl, -1}: held by another thread, how long a waiter may sleep at most.
      const ttl = Array.isArray(r.reply) ? r.reply[0] : null;
      return typeof ttl === 'number' ? ttl : -1;
    }
  }
}

/** The token of a {-1, token} reply (the lock taken), else null. */
function tokenOf(reply: unknown): number | null {
  if (!Array.isArray(reply) || reply[0] !== -1 || typeof reply[1] !== 'number') return null;
  return reply[1];
}

export const redissonFenced: LockProtocol = {
  name: 'redisson-fenced',
  summary: 'Redisson RFencedLock by version (3.19.0+): RLock + INCR of redisson_lock_token:{name} in the lock script, the token handed to the storage (guard fenced-write)',
  reentrantByThread: true,
  upstreamLua: true,
  /**
   * RedissonFencedLock.tryLockAndGetTokenAsync(waitTime, leaseTime): a first try; with a wait
   * budget, subscribe and try again after each unlock message or the holder's PTTL until the
   * budget is spent (the same loop as RLock's tryLock), answering the token or null.
   */
  *acquire(lock, params) {
    const config = yield* configOf(params);
    // leaseTime <= 0: tryLockInnerAsync(internalLockLeaseTime), the watchdog's lease.
    lock.leaseMs = params.leaseMs ?? config.lockWatchdogTimeoutMs;
    const request = (yield CURRENT_REQUEST_EFFECT) as string;
    const startMs = (yield CLOCK_EFFECT) as number;
    const lua = eraAt(FENCED_ACQUIRE, params.redissonVersion).lua;
    const script = ['EVAL', lua, '2', lock.key, tokenKeyOf(lock.key), String(lock.leaseMs), lock.threadOwner];
    const first = yield* tryOnce(config, lock, params, request, script);
    if (typeof first !== 'number') return first;
    if (params.waitMs <= 0) return BUSY;
    const channel = channelOf(lock.key);
    yield subscribe(channel);
    try {
      for (;;) {
        const remainingMs = params.waitMs - (((yield CLOCK_EFFECT) as number) - startMs);
        if (remainingMs <= 0) return BUSY;
        const ttl = yield* tryOnce(config, lock, params, request, script);
        if (typeof ttl !== 'number') return ttl;
        const sleepMs = ttl >= 0 ? Math.min(ttl, remainingMs) : remainingMs;
        yield awaitMessage(channel, Math.max(1, sleepMs) * 1000);
      }
    } finally {
      yield unsubscribe(channel);
    }
  },
  /** RLock's unlock, inherited (RedissonBaseLock.unlockAsync): the token counter stays. */
  release: redisson.release,
};
