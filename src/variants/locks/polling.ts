/**
 * The retry loop shared by the simple locks: try, and while the lock is busy and the wait
 * budget (measured on the client's own clock) is not spent, sleep and try again.
 */
import { localClockMs, sleep, type EffectProgram } from '../../world/effects.js';
import type { AcquireResult, LockParams } from '../lock-protocol.js';

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
