/**
 * Redlock over N independent masters: SET key <token> NX PX ttl on every master at once,
 * quorum N/2+1, compare-and-delete on every master to release. Three implementations, the
 * variant option `redlock-version`:
 *
 * - `spec`: the algorithm of "Distributed Locks with Redis"
 *   (https://redis.io/docs/latest/develop/use/patterns/distributed-locks/): note the time,
 *   send the SETs multiplexed, each awaited at most a per-instance timeout "small compared to
 *   the total lock auto-release time" (`instance-timeout`, 50 ms: "~ 5-50 milliseconds" for
 *   10 s); the lock is ours iff a majority said yes and validity = ttl - elapsed - drift > 0;
 *   otherwise unlock every instance ("even the instances it believed it was not able to
 *   lock") and retry after a random delay.
 * - `v4`: node-redlock 4.2.0 (`npm install redlock` gives it: the `latest` tag), redlock.js
 *   `_lock`: the same steps, but the attempt ends only when every server's callback came
 *   (`if(waiting-- > 1) return;`): there is no per-instance timeout, and ioredis has no command
 *   timeout by default, so one dead, asleep or cut-off master stalls the attempt until
 *   ioredis fails the command or the server answers (world/ioredis-connection.ts). The
 *   validity check is `start + ttl - drift` above the wall-clock time then (JavaScript's Date) with `start` taken per attempt;
 *   a failed attempt unlocks everywhere (again waiting for every reply) before retrying;
 *   `unlock` resolves iff a quorum deleted the key, after every reply.
 * - `v5`: node-redlock 5.0.0-beta.2 (redlock-v5.ts): decides at a quorum, for or against,
 *   without waiting for the rest; no validity check; no unlock between attempts.
 *
 * drift = round(driftFactor x ttl) + 2 ms (node-redlock: "2 milliseconds ... for Redis expires
 * precision"; the spec subtracts an unspecified allowance). Validity is measured on the
 * client's clock: a pause during acquisition makes it negative (antirez's point); a pause
 * after it is nobody's business but the holder's.
 *
 * node-redlock acquires with a Lua script (EXISTS, else SET PX; 1 or 0) sent by EVALSHA, with
 * EVAL after a NOSCRIPT; for one key that is SET NX PX, and the extra round trip to a master
 * that restarted with an empty script cache is not modelled. node-redlock 4.2.0 reads a
 * per-call `retryCount` as `options.retryCount || self.retryCount` (0 means the default);
 * `retry-count` is the constructor setting, which takes 0 as 0, so the quirk does not arise.
 */
import { CLOCK_EFFECT, MASTERS_EFFECT, redisEach, type EachOutcome, type EachWait, type EffectProgram } from '../../world/effects.js';
import { compareAndDelete } from '../../world/redis/scripts.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol, ReleaseResult } from '../lock-protocol.js';
import { ACQUIRED, RELEASED } from './lock-results.js';
import { quorumOf, REDLOCK_DEFAULT_TTL_MS, refused, retryPause, tally, type Tally } from './redlock-common.js';
import { acquireV5, releaseV5 } from './redlock-v5.js';

export { quorumOf } from './redlock-common.js';

/** spec: each reply at most the per-instance timeout; v4: every reply, however late. */
function waitOf(params: LockParams): EachWait {
  return params.redlockVersion === 'spec' ? { until: 'deadline', timeoutUs: params.instanceTimeoutMs * 1000 } : { until: 'all' };
}

function* unlockEverywhere(lock: LockHandle, wait: EachWait): EffectProgram<number> {
  const outcomes = (yield redisEach(wait, ['EVAL', compareAndDelete.lua, '1', lock.key, lock.token])) as EachOutcome[];
  return tally(outcomes, 1).votes;
}

/** The spec's steps 1-5 and node-redlock 4.2.0 `_lock`, which differ only in how long an attempt waits. */
function* acquireSpecOrV4(lock: LockHandle, params: LockParams): EffectProgram<AcquireResult> {
  const ttlMs = params.leaseMs ?? REDLOCK_DEFAULT_TTL_MS;
  lock.leaseMs = ttlMs;
  const quorum = quorumOf((yield MASTERS_EFFECT) as number);
  const driftMs = Math.round(params.driftFactor * ttlMs) + 2;
  const wait = waitOf(params);
  let last: Tally | null = null;
  let validityMs = 0;
  for (let attempt = 0; attempt <= params.retryCount; attempt++) {
    const startMs = (yield CLOCK_EFFECT) as number;
    const outcomes = (yield redisEach(wait, ['SET', lock.key, lock.token, 'NX', 'PX', String(ttlMs)])) as EachOutcome[];
    last = tally(outcomes, 'OK');
    validityMs = ttlMs - (((yield CLOCK_EFFECT) as number) - startMs) - driftMs;
    if (last.votes >= quorum && validityMs > 0) return ACQUIRED;
    yield* unlockEverywhere(lock, wait);
    if (attempt < params.retryCount) yield* retryPause(params);
  }
  return refused(params.retryCount + 1, last!, quorum, `, validity ${validityMs}ms`);
}

function* releaseSpecOrV4(lock: LockHandle, params: LockParams): EffectProgram<ReleaseResult> {
  const quorum = quorumOf((yield MASTERS_EFFECT) as number);
  const deleted = yield* unlockEverywhere(lock, waitOf(params));
  return deleted >= quorum
    ? RELEASED
    : { released: false, reason: 'not-held', detail: `deleted on ${deleted} masters, fewer than the quorum of ${quorum}` };
}

export const redlock: LockProtocol = {
  name: 'redlock',
  summary: 'Redlock: SET NX PX on N independent masters, quorum N/2+1; as the spec, node-redlock 4.2.0 or 5.0.0-beta.2',
  acquire(lock, params) {
    return params.redlockVersion === 'v5' ? acquireV5(lock, params) : acquireSpecOrV4(lock, params);
  },
  release(lock, params) {
    return params.redlockVersion === 'v5' ? releaseV5(lock, params) : releaseSpecOrV4(lock, params);
  },
};
