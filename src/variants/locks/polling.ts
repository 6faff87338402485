/**
 * The retry loop shared by the simple locks: try, and while the lock is busy and the wait
 * budget (measured on the client's own clock) is not spent, sleep and try again.
 */
import { localClockMs, primaryCommand, sleep, type EffectProgram, type RedisOutcome } from '../../world/effects.js';
import type { RedisReply } from '../../world/redis/reply.js';
import type { AcquireResult, LockParams } from '../lock-protocol.js';
import { ACQUIRED, acquireFailure, BUSY } from './outcomes.js';

export function* pollUntilAcquired(
  attempt: () => EffectProgram<AcquireResult>,
  params: LockParams,
): EffectProgram<AcquireResult> {
  const startMs = yield* localClockMs();
  for (;;) {
    const result = yield* attempt();
    if (result.acquired || result.reason !== 'busy') return result;
    const elapsedMs = (yield* localClockMs()) - startMs;
    if (elapsedMs + params.retryIntervalMs > params.waitMs) return result;
    yield* sleep(params.retryIntervalMs * 1000);
  }
}

/**
 * Polls with one Redis command whose reply says whether the lock is ours (SET NX PX, or a
 * script): an error or a timeout ends the attempt, `granted` reads a normal reply.
 */
export function pollCommand(params: LockParams, command: readonly string[], granted: (reply: RedisReply) => boolean): EffectProgram<AcquireResult> {
  return pollUntilAcquired(function* () {
    const r = (yield primaryCommand(command)) as RedisOutcome;
    return acquireFailure(r) ?? (r.status === 'ok' && granted(r.reply) ? ACQUIRED : BUSY);
  }, params);
}
