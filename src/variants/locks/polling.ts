/**
 * The retry loop shared by the simple locks: try, and while the lock is busy and the wait
 * budget (measured on the client's own clock) is not spent, sleep and try again.
 */
import { CLOCK_EFFECT, primaryCommand, sleep, type Effect, type EffectProgram, type RedisOutcome } from '../../world/effects.js';
import type { RedisReply } from '../../world/redis/reply.js';
import type { AcquireResult, LockParams } from '../lock-protocol.js';
import { ACQUIRED, acquireFailure, BUSY } from './lock-results.js';

/** Whether another attempt fits the wait budget after `elapsedMs`; the sleep before it, or null. */
const pauseBeforeRetry = (params: LockParams, elapsedMs: number): Effect | null =>
  elapsedMs + params.retryIntervalMs > params.waitMs ? null : sleep(params.retryIntervalMs * 1000);

export function* pollUntilAcquired(
  attempt: () => EffectProgram<AcquireResult>,
  params: LockParams,
): EffectProgram<AcquireResult> {
  const startMs = (yield CLOCK_EFFECT) as number;
  for (;;) {
    const result = yield* attempt();
    if (result.acquired || result.reason !== 'busy') return result;
    const pause = pauseBeforeRetry(params, ((yield CLOCK_EFFECT) as number) - startMs);
    if (pause === null) return result;
    yield pause;
  }
}

/**
 * Polls with one Redis command whose reply says whether the lock is ours (SET NX PX, or a
 * script): an error or a timeout ends the attempt, `granted` reads a normal reply. The loop of
 * pollUntilAcquired written out with the command in place: no attempt generator, closure or
 * clock helper per acquire (every request of a run acquires), the same effects in the same order.
 */
export function* pollCommand(params: LockParams, command: readonly string[], granted: (reply: RedisReply) => boolean): EffectProgram<AcquireResult> {
  const startMs = (yield CLOCK_EFFECT) as number;
  // The interpreter only reads an effect: one object serves every attempt.
  const send = primaryCommand(command);
  for (;;) {
    const r = (yield send) as RedisOutcome;
    const result = acquireFailure(r) ?? (r.status === 'ok' && granted(r.reply) ? ACQUIRED : BUSY);
    if (result.acquired || result.reason !== 'busy') return result;
    const pause = pauseBeforeRetry(params, ((yield CLOCK_EFFECT) as number) - startMs);
    if (pause === null) return result;
    yield pause;
  }
}

/** SET NX's grant: one function for every acquire, not an arrow each. */
export const replyIsOk = (reply: RedisReply): boolean => reply === 'OK';
