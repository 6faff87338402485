/**
 * The frame of RedissonLock.tryAcquireAsync (tryAcquireAsync0 from 3.21.0) that every RLock
 * kind shares (redisson.ts, redisson-fair.ts, redisson-read-write.ts): the kind's lock script,
 * run again by ServiceManager.execute after a recognised no-sync error where the version does,
 * with RedissonBaseLock.handleNoSync's give-back (the kind's own unlock) first; and what the
 * outcome means when the script did not answer with a ttl or nil.
 */
import type { EffectProgram } from '../../../world/effects.js';
import { isErrorReply } from '../../../world/redis/reply.js';
import type { AcquireResult } from '../../lock-protocol.js';
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
