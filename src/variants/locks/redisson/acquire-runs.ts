/**
 * The frames of RedissonLock.tryAcquireAsync (tryAcquireAsync0 from 3.21.0) and of
 * RedissonBaseLock.unlockAsync (unlockRuns, below) that every RLock kind shares (redisson.ts, redisson-fair.ts, redisson-read-write.ts): the kind's lock script,
 * run again by ServiceManager.execute after a recognised no-sync error where the version does,
 * with RedissonBaseLock.handleNoSync's give-back (the kind's own unlock) first; and what the
 * outcome means when the script did not answer with a ttl or nil.
 */
import type { EffectProgram } from '../../../world/effects.js';
import { isErrorReply } from '../../../world/redis/reply.js';
import type { AcquireResult, ReleaseResult } from '../../lock-protocol.js';
import { RELEASED } from '../lock-results.js';
import { recognisedNoSync, rerunDelay, rerunsAfter, type Outcome, type RedissonConfig } from './executor.js';

/** The last outcome of an acquire's runs, and whether its hold was given back after a no-sync error. */
interface AcquireRuns {
  outcome: Outcome;
  givenBack: boolean;
}

/**
 * `lockScript` sends the script once; `giveBack(requestId)` is the kind's unlockInnerAsync,
 * each give-back with its own request id (`<token>:give-back-N`).
 */
export function* acquireRuns(
  config: RedissonConfig,
  token: string,
  lockScript: () => EffectProgram<Outcome>,
  giveBack: (requestId: string) => EffectProgram<Outcome>,
): EffectProgram<AcquireRuns> {
  let giveBacks = 0;
  for (let run = 0; ; run++) {
    const outcome = yield* lockScript();
    let givenBack = false;
    if (outcome.kind === 'no-sync' && config.b.giveBackOnNoSync && recognisedNoSync(config, outcome)) {
      const back = yield* giveBack(`${token}:give-back-${++giveBacks}`);
      givenBack = back.kind === 'no-sync' || (back.kind === 'reply' && !isErrorReply(back.reply));
    }
    if (!(config.b.retryAcquireOnNoSync && rerunsAfter(config, outcome, run))) return { outcome, givenBack };
    yield* rerunDelay(config, run);
  }
}

/**
 * An acquire that got no usable answer: no reply after its sends, a no-sync error (before or
 * after the script ran, its hold given back or left held with nobody to renew it), an error
 * reply. The caller reads a non-error reply itself (nil: taken; a number: the holder's PTTL).
 */
export function acquireFailure(outcome: Outcome, givenBack: boolean): AcquireResult {
  switch (outcome.kind) {
    case 'timeout':
      return { acquired: false, reason: 'timeout', detail: `no reply after ${outcome.sends} sends (RedisResponseTimeoutException)` };
    case 'no-sync':
      if (outcome.reply !== null) return { acquired: false, reason: 'error', detail: outcome.message };
      // The script took the lock; unless given back it stays held, and nobody renews it.
      return givenBack
        ? { acquired: false, reason: 'error', detail: `${outcome.message}; lock given back` }
        : { acquired: false, reason: 'unknown', detail: `${outcome.message}; the lock taken stays held` };
    case 'reply':
      return { acquired: false, reason: 'error', detail: isErrorReply(outcome.reply) ? outcome.reply.message : `unexpected reply ${JSON.stringify(outcome.reply)}` };
  }
}

/**
 * RedissonBaseLock.unlockAsync's frame, shared by the RLock kinds: the kind's unlock script
 * (`unlockScript(requestId)`: a new request id per run, until 3.52.0 keeps the first and so
 * finds its own latch), then its renewal cancelled (`stopRenewal`; before 3.12.1 not after a
 * nil), run again by ServiceManager.execute after a recognised no-sync error where the version
 * does. `notHeld`: the IllegalMonitorStateException text of the kind for a nil reply.
 */
export function* unlockRuns(
  config: RedissonConfig,
  token: string,
  unlockScript: (requestId: string) => EffectProgram<Outcome>,
  stopRenewal: () => EffectProgram<void>,
  notHeld: string,
): EffectProgram<ReleaseResult> {
  for (let run = 0; ; run++) {
    const id = config.b.unlockKeepsRequestId ? `${token}:unlock` : `${token}:unlock-${run + 1}`;
    const out = yield* unlockScript(id);
    if (config.b.unlockAlwaysCancelsRenewal || !(out.kind === 'reply' && out.reply === null)) yield* stopRenewal();
    if (!(config.b.retryUnlockOnNoSync && rerunsAfter(config, out, run))) return releaseResult(out, notHeld);
    yield* rerunDelay(config, run);
  }
}

function releaseResult(r: Outcome, notHeld: string): ReleaseResult {
  if (r.kind === 'timeout') return { released: false, reason: 'timeout', detail: `no reply after ${r.sends} sends (RedisResponseTimeoutException)` };
  if (r.kind === 'no-sync') return { released: false, reason: 'error', detail: r.message };
  if (isErrorReply(r.reply)) return { released: false, reason: 'error', detail: r.reply.message };
  if (r.reply === null) return { released: false, reason: 'not-held', detail: `IllegalMonitorStateException: ${notHeld}` };
  // 1: released; 0: still held (this thread's other entries, or other readers): the key keeps its TTL.
  return RELEASED;
}
