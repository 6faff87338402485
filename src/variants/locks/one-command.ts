/**
 * A lock call that is one command on the primary and a reading of its outcome (a release by
 * script or DEL), as a state machine (variants/effect-machine.ts): every request of a run
 * releases, and a generator for one effect costs more than the effect.
 */
import { primaryCommand, type Effect, type EffectProgram, type RedisOutcome } from '../../world/effects.js';
import { DONE, EffectMachine } from '../effect-machine.js';

class OneCommand<T> extends EffectMachine<T> {
  private sent = false;

  constructor(private readonly effect: Effect, private readonly read: (outcome: RedisOutcome) => T) {
    super();
  }

  protected step(input: unknown): Effect | typeof DONE {
    if (!this.sent) {
      this.sent = true;
      return this.effect;
    }
    this.result = this.read(input as RedisOutcome);
    return DONE;
  }
}

/** Sends `command` and returns what `read` (a module function, not a closure per call) makes of the outcome. */
export function oneCommand<T>(command: readonly string[], read: (outcome: RedisOutcome) => T): EffectProgram<T> {
  return new OneCommand(primaryCommand(command), read);
}
