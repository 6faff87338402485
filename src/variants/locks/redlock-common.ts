/** What the three Redlock implementations share: the quorum, the retry pause, the count of replies. */
import { RANDOM_EFFECT, sleep, type EachOutcome, type EffectProgram } from '../../world/effects.js';
import { isErrorReply } from '../../world/redis/reply.js';
import type { AcquireResult, LockParams } from '../lock-protocol.js';

/** The Redlock spec's example auto-release time: 10 s ("Distributed Locks with Redis", step 2). */
export const REDLOCK_DEFAULT_TTL_MS = 10_000;

/** N/2+1 (the spec; node-redlock 4.2.0 and 5.0.0-beta.2: Math.floor(n / 2) + 1). */
export const quorumOf = (n: number): number => Math.floor(n / 2) + 1;

/**
 * The pause before the next attempt: max(0, retryDelay + floor((random * 2 - 1) * retryJitter)),
 * as node-redlock 4.2.0 `_lock` and 5.0.0-beta.2 `_execute` both compute it. The spec only
 * asks for "a random delay"; it uses the same.
 */
export function* retryPause(params: LockParams): EffectProgram<void> {
  const jitterMs = Math.floor((((yield RANDOM_EFFECT) as number) * 2 - 1) * params.retryJitterMs);
  yield sleep(Math.max(0, params.retryDelayMs + jitterMs) * 1000);
}

/** The masters' answers to one attempt. */
export interface Tally {
  /** Replies equal to the vote (SET NX: "OK"; the unlock script: 1). */
  votes: number;
  /** SET NX refused: the key is someone's (nil). */
  held: number;
  /** Timed out, failed in the client, or an error reply. */
  unreachable: number;
  /** No answer yet when a quorum decided (node-redlock v5). */
  pending: number;
  masters: number;
}

export function tally(outcomes: readonly EachOutcome[], vote: string | number): Tally {
  const t: Tally = { votes: 0, held: 0, unreachable: 0, pending: 0, masters: outcomes.length };
  for (const o of outcomes) {
    if (o.status === 'pending') t.pending++;
    else if (o.status !== 'ok' || isErrorReply(o.reply)) t.unreachable++;
    else if (o.reply === vote) t.votes++;
    else if (o.reply === null) t.held++;
  }
  return t;
}

function describeTally(t: Tally, quorum: number): string {
  const pending = t.pending > 0 ? `, ${t.pending} not answered yet` : '';
  return `${t.votes} of ${t.masters} masters (quorum ${quorum}, ${t.unreachable} unreachable${pending})`;
}

/**
 * A refused lock. `busy` when some master said the key is taken and no quorum said yes: the
 * lock is someone else's. Otherwise (masters that never answered, a quorum reached too slowly)
 * the request failed on an error, not on contention.
 */
export function refused(attempts: number, last: Tally, quorum: number, why: string): AcquireResult {
  const busy = last.held > 0 && last.votes < quorum;
  return { acquired: false, reason: busy ? 'busy' : 'error', detail: `no quorum after ${attempts} attempts: ${describeTally(last, quorum)}${why}` };
}
