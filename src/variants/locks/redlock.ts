/**
 * Redlock over N independent masters, as node-redlock v4 runs it (lock-semantics.md 2 and
 * 4.1): per attempt, note the local time, send SET key <token> NX PX ttl to every master at
 * once (each reply awaited at most the per-instance timeout), count the votes, and compute
 * validity = ttl - elapsed - drift with drift = round(driftFactor * ttl) + 2 ms. The lock is
 * ours iff votes >= N/2+1 and validity > 0; otherwise unlock on every master (even those
 * that said no) and retry after retryDelay +- retryJitter, up to retryCount retries.
 * Release deletes on every master by compare-and-delete and succeeds on a quorum.
 * The validity is measured on the client's clock: a pause during acquisition makes it
 * negative (antirez's point); a pause after it is nobody's business but the holder's.
 */
import { localClockMs, masterCount, random, redisEach, sleep, type EffectProgram } from '../../world/effects.js';
import { isErrorReply } from '../../world/redis/reply.js';
import { compareAndDelete } from '../../world/redis/scripts.js';
import type { LockHandle, LockParams, LockProtocol } from '../lock-protocol.js';
import { ACQUIRED, RELEASED } from './outcomes.js';

/** The Redlock spec's example auto-release time: 10 s (lock-semantics.md 2). */
export const REDLOCK_DEFAULT_TTL_MS = 10_000;

export const quorumOf = (n: number): number => Math.floor(n / 2) + 1;

function* unlockEverywhere(lock: LockHandle, params: LockParams): EffectProgram<number> {
  const outcomes = yield* redisEach(params.instanceTimeoutMs * 1000, 'EVAL', compareAndDelete.lua, '1', lock.key, lock.token);
  return outcomes.filter((o) => o.status === 'ok' && o.reply === 1).length;
}

export const redlock: LockProtocol = {
  name: 'redlock',
  summary: 'Redlock: SET NX PX on N independent masters, quorum N/2+1, validity = ttl - elapsed - drift',
  *acquire(lock, params) {
    const ttlMs = params.leaseMs ?? REDLOCK_DEFAULT_TTL_MS;
    lock.leaseMs = ttlMs;
    const quorum = quorumOf(yield* masterCount());
    const driftMs = Math.round(params.driftFactor * ttlMs) + 2;
    let lastDetail = '';
    for (let attempt = 0; attempt <= params.retryCount; attempt++) {
      const startMs = yield* localClockMs();
      const outcomes = yield* redisEach(params.instanceTimeoutMs * 1000, 'SET', lock.key, lock.token, 'NX', 'PX', String(ttlMs));
      const votes = outcomes.filter((o) => o.status === 'ok' && o.reply === 'OK').length;
      const errors = outcomes.filter((o) => o.status === 'timeout' || isErrorReply(o.reply)).length;
      const validityMs = ttlMs - ((yield* localClockMs()) - startMs) - driftMs;
      if (votes >= quorum && validityMs > 0) return ACQUIRED;
      lastDetail = `${votes} of ${outcomes.length} masters (quorum ${quorum}, ${errors} unreachable), validity ${validityMs}ms`;
      yield* unlockEverywhere(lock, params);
      if (attempt === params.retryCount) break;
      const jitterMs = Math.floor(((yield* random()) * 2 - 1) * params.retryJitterMs);
      yield* sleep(Math.max(0, params.retryDelayMs + jitterMs) * 1000);
    }
    return { acquired: false, reason: 'busy', detail: `no quorum after ${params.retryCount + 1} attempts: ${lastDetail}` };
  },
  *release(lock, params) {
    const quorum = quorumOf(yield* masterCount());
    const deleted = yield* unlockEverywhere(lock, params);
    return deleted >= quorum
      ? RELEASED
      : { released: false, reason: 'not-held', detail: `deleted on ${deleted} masters, fewer than the quorum of ${quorum}` };
  },
};
