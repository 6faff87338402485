/** Small translations from Redis outcomes to lock results, shared by the protocols. */
import type { RedisOutcome } from '../../world/effects.js';
import { isErrorReply } from '../../world/redis/reply.js';
import type { AcquireResult, ReleaseResult } from '../lock-protocol.js';

export function acquireFailure(outcome: RedisOutcome): AcquireResult | null {
  if (outcome.status === 'timeout') return { acquired: false, reason: 'timeout', detail: 'command timed out' };
  if (isErrorReply(outcome.reply)) return { acquired: false, reason: 'error', detail: outcome.reply.message };
  return null;
}

export function releaseFailure(outcome: RedisOutcome): ReleaseResult | null {
  if (outcome.status === 'timeout') return { released: false, reason: 'timeout', detail: 'command timed out' };
  if (isErrorReply(outcome.reply)) return { released: false, reason: 'error', detail: outcome.reply.message };
  return null;
}

export const BUSY: AcquireResult = { acquired: false, reason: 'busy', detail: 'held by another' };
export const ACQUIRED: AcquireResult = { acquired: true };
export const RELEASED: ReleaseResult = { released: true };
