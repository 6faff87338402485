/**
 * node-redlock 5.0.0-beta.2 as npm publishes it (dist/cjs/index.js; src/index.ts at tag
 * v5.0.0-beta.2), on ioredis with its defaults (world/ioredis-connection.ts):
 * - `_attemptOperation` sends to every client and resolves as soon as a quorum voted for, or
 *   a quorum against (an error, or the script's 0 for a key that exists); the other replies
 *   are left to arrive. With no quorum either way (2 for, 2 against, the fifth silent) it
 *   waits for the fifth.
 * - `acquire` takes `start` from the wall clock (JavaScript's Date) once, before the first attempt (the repository's HEAD
 *   takes it per attempt since; npm's build does not), and returns the Lock without checking
 *   `start + duration - drift` against the clock: a lock whose validity ran out during a slow
 *   acquisition is handed out all the same. Since nothing here reads Lock.expiration (no
 *   `extend`, no `using()` auto-extension: the workload does not extend), `start` and
 *   `drift-factor` change nothing and are not modelled.
 * - `_execute` retries the attempt (retryCount + 1 attempts, the same pause as v4) without
 *   releasing in between, with the same value: a master that said yes keeps the key, and
 *   answers the next attempt "exists" (0) like any other holder.
 * - after the last failed attempt, `acquire` releases once (`retryCount: 0`), ignoring errors.
 * - `release` is `_execute` of the release script with the default retries: attempts until a
 *   quorum deleted the key, so releasing a lock that already expired takes retryCount + 1
 *   attempts before it fails.
 * Measured (node-redlock 5.0.0-beta.2 on ioredis 4.28.5, five redis-server 7.0.15 on
 * loopback, 2 s TTL): two masters holding the key for another value, a third in DEBUG SLEEP
 * 3: acquire resolved when the sleeper woke, 2.9 s after the call, with the lock's
 * expiration 922 ms in the past and the key already gone from the masters that granted it
 * but one. Releasing a lock whose 100 ms keys had expired failed after 1.7 s (11 attempts).
 */
import { MASTERS_EFFECT, redisEach, type EachOutcome, type EachWait, type EffectProgram } from '../../world/effects.js';
import { compareAndDelete } from '../../world/redis/scripts.js';
import type { AcquireResult, LockHandle, LockParams, ReleaseResult } from '../lock-protocol.js';
import { ACQUIRED, RELEASED } from './lock-results.js';
import { quorumOf, REDLOCK_DEFAULT_TTL_MS, refused, retryPause, tally, type Tally } from './redlock-common.js';

function* releaseAttempt(lock: LockHandle, quorum: number): EffectProgram<Tally> {
  const wait: EachWait = { until: 'quorum', quorum, vote: 1 };
  return tally((yield redisEach(wait, ['EVAL', compareAndDelete.lua, '1', lock.key, lock.token])) as EachOutcome[], 1);
}

export function* acquireV5(lock: LockHandle, params: LockParams): EffectProgram<AcquireResult> {
  const ttlMs = params.leaseMs ?? REDLOCK_DEFAULT_TTL_MS;
  lock.leaseMs = ttlMs;
  const quorum = quorumOf((yield MASTERS_EFFECT) as number);
  const wait: EachWait = { until: 'quorum', quorum, vote: 'OK' };
  const attempts = params.retryCount + 1;
  let last: Tally | null = null;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    last = tally((yield redisEach(wait, ['SET', lock.key, lock.token, 'NX', 'PX', String(ttlMs)])) as EachOutcome[], 'OK');
    if (last.votes >= quorum) return ACQUIRED;
    if (attempt < attempts) yield* retryPause(params);
  }
  yield* releaseAttempt(lock, quorum);
  // node-redlock's own words for it (src/index.ts _execute at v5.0.0-beta.2), whether the masters said "taken" or failed.
  return refused(attempts, last!, quorum, ' (no unlock between attempts): ExecutionError "The operation was unable to achieve a quorum during its retry window."');
}

export function* releaseV5(lock: LockHandle, params: LockParams): EffectProgram<ReleaseResult> {
  const quorum = quorumOf((yield MASTERS_EFFECT) as number);
  const attempts = params.retryCount + 1;
  let deleted = 0;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    deleted = (yield* releaseAttempt(lock, quorum)).votes;
    if (deleted >= quorum) return RELEASED;
    if (attempt < attempts) yield* retryPause(params);
  }
  return { released: false, reason: 'not-held', detail: `deleted on ${deleted} masters, fewer than the quorum of ${quorum}, after ${attempts} attempts` };
}
