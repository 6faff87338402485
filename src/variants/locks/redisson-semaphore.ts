/**
 * Redisson's semaphores as locks of N permits (`permits`), version by version: RSemaphore
 * (RedissonSemaphore.java) and RPermitExpirableSemaphore (RedissonPermitExpirableSemaphore.java),
 * each request taking one permit with tryAcquire(1, wait) / tryAcquire(wait, lease) and giving
 * it back with release / release(permitId). Their Lua (redisson/semaphore-scripts.ts) runs
 * verbatim in the nodes' Lua VM; every command goes through Redisson's executor
 * (redisson/executor.ts: re-sends after a response timeout, WAIT for replicas where the
 * version sends it, the acquire run again after a recognised "no replica synced").
 *
 * What the two differ in, and what the permits observer shows: an RSemaphore permit is a
 * decrement of a counter with no owner and no TTL, so a holder that dies takes its permit
 * with it for ever (and a release by anyone adds one); an expirable permit is a member of
 * the `{name}:timeout` sorted set scored with its lease end, and the next acquire after that
 * end gives it back.
 *
 * The count is set as an application sets it at start-up: trySetPermits(N) once per client
 * process, before its first acquire of a name (a key that exists is left alone: after a
 * restart the count keeps what the dead process took).
 */
import { awaitMessage, CLOCK_EFFECT, clientStateEffect, subscribe, unsubscribe, type EffectProgram } from '../../world/effects.js';
import { isErrorReply, type RedisReply } from '../../world/redis/reply.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol, ReleaseResult } from '../lock-protocol.js';
import { ACQUIRED, BUSY, RELEASED } from './lock-results.js';
import { clientConfig, recognisedNoSync, rerunDelay, rerunsAfter, syncedEval, type Outcome, type RedissonConfig } from './redisson/executor.js';
import {
  atLeastVersion,
  eraAt,
  EXPIRABLE_ACQUIRE,
  EXPIRABLE_RELEASE,
  EXPIRABLE_TRY_SET,
  NON_EXPIRABLE_TIMEOUT,
  SEMAPHORE_ACQUIRE,
  SEMAPHORE_RELEASE,
  SEMAPHORE_TRY_SET,
  semaphoreChannelOf,
  timeoutSetOf,
  type ScriptEra,
} from './redisson/semaphore-scripts.js';
import { behaviourOf } from './redisson/versions.js';

/** RedissonSubscribeService.getPublishCommand: PUBLISH (SPUBLISH only for a sharded cluster, not modelled). */
const PUBLISH = 'PUBLISH';

/** What one semaphore class does, by version (the sources are in semaphore-scripts.ts and below). */
interface SemaphoreClass {
  acquire: readonly ScriptEra[];
  release: readonly ScriptEra[];
  trySet: readonly ScriptEra[];
  /**
   * The version from which acquire and release go through syncedEval (WAIT for replicas,
   * handleNoSync's give-back, ServiceManager.execute's re-run); before it evalWriteAsync,
   * which sends the script alone.
   */
  syncedSince: string;
  /** The version from which acquire is syncedEvalNoRetry (never re-sent on a single server). */
  acquireNoRetrySince: string;
  /** The same for release (null: release is always re-sent, syncedEvalWithRetry). */
  releaseNoRetrySince: string | null;
}

/**
 * RedissonSemaphore.java: tryAcquireAsync0 / releaseAsync by evalWriteAsync until 3.20.x,
 * syncedEval with handleNoSync and ServiceManager.execute from 3.21.0 (trySetPermits by
 * syncedEvalWithRetry), syncedEvalNoRetry from 3.37.0 (read at every tag from redisson-3.11.0
 * to 4.7.0).
 */
const RSEMAPHORE: SemaphoreClass = {
  acquire: SEMAPHORE_ACQUIRE,
  release: SEMAPHORE_RELEASE,
  trySet: SEMAPHORE_TRY_SET,
  syncedSince: '3.21.0',
  acquireNoRetrySince: '3.37.0',
  releaseNoRetrySince: '3.37.0',
};

/**
 * RedissonPermitExpirableSemaphore.java: evalWriteAsync until 3.20.x; from 3.21.0 acquire by
 * syncedEval inside ServiceManager.execute with handleNoSync, release and trySetPermits by
 * syncedEvalWithRetry; acquire by syncedEvalNoRetry from 3.37.0 (read at every tag from
 * redisson-3.11.0 to 4.7.0).
 */
const RPERMIT_EXPIRABLE: SemaphoreClass = {
  acquire: EXPIRABLE_ACQUIRE,
  release: EXPIRABLE_RELEASE,
  trySet: EXPIRABLE_TRY_SET,
  syncedSince: '3.21.0',
  acquireNoRetrySince: '3.37.0',
  releaseNoRetrySince: null,
};

/** One client process's semaphore client for a variant: its executor settings and the names it has set the count of. */
interface SemaphoreClient {
  config: RedissonConfig;
  permitsSet: Set<string>;
}

const newClients = (): Map<LockParams, SemaphoreClient> => new Map();
const CLIENTS = clientStateEffect('redisson/semaphore', newClients);

function* clientOf(params: LockParams, cls: SemaphoreClass): EffectProgram<SemaphoreClient> {
  const made = (yield CLIENTS) as Map<LockParams, SemaphoreClient>;
  const known = made.get(params);
  if (known) return known;
  const version = params.redissonVersion;
  const synced = atLeastVersion(version, cls.syncedSince);
  const lock = behaviourOf(version);
  // Before syncedSince the semaphore's commands carry no WAIT at all, whatever RLock did then.
  const b = synced ? lock : Object.freeze({ ...lock, replicaCount: 'none' as const, waitProbe: 'none' as const, giveBackOnNoSync: false, retryAcquireOnNoSync: false, retryUnlockOnNoSync: false });
  const config = yield* clientConfig(params, b);
  const client = { config, permitsSet: new Set<string>() };
  made.set(params, client);
  return client;
}

/** Whether a command of this kind is re-sent on a single server (`noRetrySince` null: always). */
const retried = (config: RedissonConfig, version: string, noRetrySince: string | null): boolean =>
  noRetrySince === null || config.setup.replicated || !atLeastVersion(version, noRetrySince);

/** trySetPermits(N) before the first acquire of `name` in this process; its answer (set or not) is not read. */
function* ensurePermits(client: SemaphoreClient, cls: SemaphoreClass, name: string, params: LockParams): EffectProgram<void> {
  if (client.permitsSet.has(name)) return;
  const era = eraAt(cls.trySet, params.redissonVersion);
  const argv = atLeastVersion(params.redissonVersion, '3.22.0') ? [String(params.permits ?? 1), PUBLISH] : [String(params.permits ?? 1)];
  const r = yield* syncedEval(client.config, ['EVAL', era.lua, '2', name, semaphoreChannelOf(name), ...argv], true);
  // A count that could not be set is tried again at the next acquire.
  if (r.kind === 'reply' && !isErrorReply(r.reply)) client.permitsSet.add(name);
}

/** One try's result: taken, not free (with the nearest lease end on the client's clock, or null), or a failure. */
type Try = { taken: true } | { taken: false; nearestMs: number | null } | AcquireResult;

const TAKEN: Try = { taken: true };
const NOT_FREE: Try = { taken: false, nearestMs: null };

/**
 * One tryAcquireAsync(permits = 1): the script through syncedEval, run again by
 * ServiceManager.execute after a recognised no-sync error, with handleNoSync's give-back.
 */
function* tryOnce(client: SemaphoreClient, cls: SemaphoreClass, lock: LockHandle, params: LockParams, expirable: boolean): EffectProgram<Try> {
  const { config } = client;
  const version = params.redissonVersion;
  const retry = retried(config, version, cls.acquireNoRetrySince);
  let r: Outcome;
  let givenBack = false;
  for (let run = 0; ; run++) {
    const script = expirable ? yield* expirableAcquireScript(lock, params) : ['EVAL', eraAt(cls.acquire, version).lua, '1', lock.key, '1'];
    r = yield* syncedEval(config, script, retry);
    givenBack = false;
    if (r.kind === 'no-sync' && config.b.giveBackOnNoSync && recognisedNoSync(config, r) && taken(r.reply, lock, expirable)) {
      const back = yield* releaseScript(client, cls, lock, params, expirable);
      givenBack = back.kind === 'no-sync' || (back.kind === 'reply' && !isErrorReply(back.reply));
    }
    if (!(config.b.retryAcquireOnNoSync && rerunsAfter(config, r, run))) break;
    yield* rerunDelay(config, run);
  }
  switch (r.kind) {
    case 'timeout':
      return { acquired: false, reason: 'timeout', detail: `no reply after ${r.sends} sends (RedisResponseTimeoutException)` };
    case 'no-sync':
      if (!taken(r.reply, lock, expirable)) return { acquired: false, reason: 'error', detail: r.message };
      return givenBack
        ? { acquired: false, reason: 'error', detail: `${r.message}; permit given back` }
        : { acquired: false, reason: 'unknown', detail: `${r.message}; the permit taken stays taken` };
    case 'reply':
      if (isErrorReply(r.reply)) return { acquired: false, reason: 'error', detail: r.reply.message };
      if (taken(r.reply, lock, expirable)) return TAKEN;
      // ':<lease end>': the nearest lease end, when a waiter may try again at the latest.
      if (typeof r.reply === 'string' && r.reply.startsWith(':')) return { taken: false, nearestMs: Number(r.reply.slice(1)) };
      return NOT_FREE;
  }
}

/** Whether an acquire script's reply means the permit was taken: 1 (RSemaphore), the id or 'OK' (expirable). */
function taken(reply: RedisReply, lock: LockHandle, expirable: boolean): boolean {
  if (!expirable) return reply === 1;
  return reply === 'OK' || reply === lock.token;
}

/**
 * The expirable acquire's script with its arguments: the lease end and "now" on this client's
 * clock (System.currentTimeMillis()), the permit id (the acquisition's token; Redisson sends a
 * random 16-byte id, hex-decoded from 3.17.0).
 */
function* expirableAcquireScript(lock: LockHandle, params: LockParams): EffectProgram<string[]> {
  const version = params.redissonVersion;
  const nowMs = (yield CLOCK_EFFECT) as number;
  const leaseEnd = lock.leaseMs === null ? NON_EXPIRABLE_TIMEOUT : String(nowMs + lock.leaseMs);
  const keys = ['3', lock.key, timeoutSetOf(lock.key), semaphoreChannelOf(lock.key)];
  const lua = eraAt(EXPIRABLE_ACQUIRE, version).lua;
  if (atLeastVersion(version, '3.23.4')) return ['EVAL', lua, ...keys, '1', leaseEnd, String(nowMs), NON_EXPIRABLE_TIMEOUT, PUBLISH, lock.token];
  const argv = ['1', leaseEnd, lock.token, String(nowMs), NON_EXPIRABLE_TIMEOUT];
  if (atLeastVersion(version, '3.22.0')) argv.push(PUBLISH);
  return ['EVAL', lua, ...keys, ...argv];
}

/** The release script of this version, through syncedEval. */
function* releaseScript(client: SemaphoreClient, cls: SemaphoreClass, lock: LockHandle, params: LockParams, expirable: boolean): EffectProgram<Outcome> {
  const version = params.redissonVersion;
  const lua = eraAt(cls.release, version).lua;
  const channel = semaphoreChannelOf(lock.key);
  let script: string[];
  if (!expirable) {
    script = ['EVAL', lua, '2', lock.key, channel, '1'];
    if (atLeastVersion(version, '3.22.0')) script.push(PUBLISH);
  } else {
    script = ['EVAL', lua, '3', lock.key, channel, timeoutSetOf(lock.key), lock.token, '1'];
    if (atLeastVersion(version, '3.17.0')) script.push(String((yield CLOCK_EFFECT) as number));
    if (atLeastVersion(version, '3.22.0')) script.push(PUBLISH);
  }
  return yield* syncedEval(client.config, script, retried(client.config, version, cls.releaseNoRetrySince));
}

/**
 * tryAcquire(permits = 1, waitTime) (RSemaphore) / tryAcquire(waitTime, leaseTime)
 * (expirable): a first try; with a wait budget, subscribe to the channel and try again after
 * each release message, or (expirable) at the nearest lease end, until the budget is spent.
 */
function* acquireSemaphore(cls: SemaphoreClass, lock: LockHandle, params: LockParams, expirable: boolean): EffectProgram<AcquireResult> {
  const client = yield* clientOf(params, cls);
  // RSemaphore permits have no lease; an expirable one has the variant's (none: -1, nonExpirableTimeout).
  lock.leaseMs = expirable ? params.leaseMs : null;
  yield* ensurePermits(client, cls, lock.key, params);
  const startMs = (yield CLOCK_EFFECT) as number;
  const first = yield* tryOnce(client, cls, lock, params, expirable);
  if ('acquired' in first) return first;
  if (first.taken) return ACQUIRED;
  if (params.waitMs <= 0) return BUSY;
  const channel = semaphoreChannelOf(lock.key);
  yield subscribe(channel);
  try {
    for (;;) {
      const nowMs = (yield CLOCK_EFFECT) as number;
      const remainingMs = params.waitMs - (nowMs - startMs);
      if (remainingMs <= 0) return BUSY;
      const next = yield* tryOnce(client, cls, lock, params, expirable);
      if ('acquired' in next) return next;
      if (next.taken) return ACQUIRED;
      const untilLeaseEnd = next.nearestMs === null ? remainingMs : next.nearestMs - ((yield CLOCK_EFFECT) as number);
      yield awaitMessage(channel, Math.max(1, Math.min(remainingMs, untilLeaseEnd)) * 1000);
    }
  } finally {
    yield unsubscribe(channel);
  }
}

/** release() / release(permitId): the release script once (the permit id unknown to the server is IllegalArgumentException, not-held). */
function* releaseSemaphore(cls: SemaphoreClass, lock: LockHandle, params: LockParams, expirable: boolean): EffectProgram<ReleaseResult> {
  const client = yield* clientOf(params, cls);
  const r = yield* releaseScript(client, cls, lock, params, expirable);
  if (r.kind === 'timeout') return { released: false, reason: 'timeout', detail: `no reply after ${r.sends} sends (RedisResponseTimeoutException)` };
  if (r.kind === 'no-sync') return { released: false, reason: 'error', detail: r.message };
  if (isErrorReply(r.reply)) return { released: false, reason: 'error', detail: r.reply.message };
  if (expirable && r.reply !== 1) return { released: false, reason: 'not-held', detail: `Permit with id ${lock.token} has already been released or doesn't exist` };
  return RELEASED;
}

export const redissonSemaphore: LockProtocol = {
  name: 'redisson-semaphore',
  summary: 'Redisson RSemaphore by version: N permits in a counter (DECRBY / INCRBY), no owner, no TTL; pub/sub waiters',
  countsPermits: true,
  namesNoHolder: true,
  upstreamLua: true,
  acquire: (lock, params) => acquireSemaphore(RSEMAPHORE, lock, params, false),
  release: (lock, params) => releaseSemaphore(RSEMAPHORE, lock, params, false),
};

export const redissonPermitExpirableSemaphore: LockProtocol = {
  name: 'redisson-permit-expirable-semaphore',
  summary: 'Redisson RPermitExpirableSemaphore by version: N permits, each an id in a sorted set scored with its lease end; expired ones given back by the next acquire',
  countsPermits: true,
  namesNoHolder: true,
  upstreamLua: true,
  acquire: (lock, params) => acquireSemaphore(RPERMIT_EXPIRABLE, lock, params, true),
  release: (lock, params) => releaseSemaphore(RPERMIT_EXPIRABLE, lock, params, true),
};
