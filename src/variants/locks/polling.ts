/**
 * The retry loop shared by the simple locks: try, and while the lock is busy and the wait
 * budget (measured on the client's own clock) is not spent, sleep and try again.
 */
import { CLOCK_EFFECT, primaryCommand, type Effect, type EffectProgram, type RedisOutcome } from '../../world/effects.js';
import type { RedisReply } from '../../world/redis/reply.js';
import type { AcquireResult, LockParams } from '../lock-protocol.js';
import { DONE, EffectMachine } from '../effect-machine.js';
import { ACQUIRED, acquireFailure, BUSY } from './outcomes.js';

/** Whether another attempt fits the wait budget after `elapsedMs`; the sleep before it, or null. */
const pauseBeforeRetry = (params: LockParams, elapsedMs: number): Effect | null =>
  elapsedMs + params.retryIntervalMs > params.waitMs ? null : { kind: 'sleep', us: params.retryIntervalMs * 1000 };

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

/** What PollCommand's next input answers. */
const START = 0;
const AFTER_START_CLOCK = 1;
const AFTER_SEND = 2;
const AFTER_CLOCK = 3;
const AFTER_PAUSE = 4;

/**
 * Polls with one Redis command whose reply says whether the lock is ours (SET NX PX, or a
 * script): an error or a timeout ends the attempt, `granted` reads a normal reply. The loop of
 * pollUntilAcquired written out with the command in place, as a state machine (every request of
 * a run acquires): the same effects in the same order, read the clock, send, and after a busy
 * reply read the clock and sleep the retry interval while the wait budget lasts.
 */
class PollCommand extends EffectMachine<AcquireResult> {
  private pc = START;
  private startMs = 0;
  private last: AcquireResult = BUSY;
  /** The interpreter only reads an effect: one object serves every attempt. */
  private readonly send: Effect;

  constructor(private readonly params: LockParams, command: readonly string[], private readonly granted: (reply: RedisReply) => boolean) {
    super();
    this.send = primaryCommand(command);
  }

  protected step(input: unknown): Effect | typeof DONE {
    switch (this.pc) {
      case START:
        this.pc = AFTER_START_CLOCK;
        return CLOCK_EFFECT;
      case AFTER_START_CLOCK:
        this.startMs = input as number;
        this.pc = AFTER_SEND;
        return this.send;
      case AFTER_SEND: {
        const r = input as RedisOutcome;
        const result = acquireFailure(r) ?? (r.status === 'ok' && this.granted(r.reply) ? ACQUIRED : BUSY);
        if (result.acquired || result.reason !== 'busy') return this.end(result);
        this.last = result;
        this.pc = AFTER_CLOCK;
        return CLOCK_EFFECT;
      }
      case AFTER_CLOCK: {
        const pause = pauseBeforeRetry(this.params, (input as number) - this.startMs);
        if (pause === null) return this.end(this.last);
        this.pc = AFTER_PAUSE;
        return pause;
      }
      default:
        this.pc = AFTER_SEND;
        return this.send;
    }
  }

  private end(result: AcquireResult): typeof DONE {
    this.result = result;
    return DONE;
  }
}

export function pollCommand(params: LockParams, command: readonly string[], granted: (reply: RedisReply) => boolean): EffectProgram<AcquireResult> {
  return new PollCommand(params, command, granted);
}

/** SET NX's grant: one function for every acquire, not an arrow each. */
export const replyIsOk = (reply: RedisReply): boolean => reply === 'OK';
