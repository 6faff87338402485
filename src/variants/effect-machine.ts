/**
 * An effect program written as a state machine instead of a generator, for the hottest
 * calls of a run (a lock's acquire and release, Redisson's synced script): no generator
 * object with its register file per call, and no result object per effect (one object,
 * set anew on every `next`: its consumer, ClientHost.run or a `yield*`, reads it at once).
 * `step(input)` answers the effect it returned last and returns the next effect, or
 * `DONE` after setting `result`, or `DELEGATED` after setting `sub`: a program (a generator,
 * for a rare path) whose effects pass through and whose return value is the next input.
 * The effects, in their order, are exactly those the generator it replaces yielded.
 */
import type { Effect, EffectProgram } from '../world/effects.js';

export const DONE: unique symbol = Symbol('done');
export const DELEGATED: unique symbol = Symbol('delegated');

export abstract class EffectMachine<T> implements Generator<Effect, T, unknown> {
  /** The return value, once `step` returned DONE. */
  protected result: T | undefined = undefined;
  /** A program running in the machine's place (DELEGATED); null: none. */
  protected sub: EffectProgram<unknown> | null = null;
  private readonly out: { done: boolean; value: unknown } = { done: false, value: undefined };

  protected abstract step(input: unknown): Effect | typeof DONE | typeof DELEGATED;

  next(input?: unknown): IteratorResult<Effect, T> {
    const out = this.out;
    for (;;) {
      const sub = this.sub;
      if (sub !== null) {
        const r = sub.next(input);
        if (r.done !== true) {
          out.value = r.value;
          return out as IteratorResult<Effect, T>;
        }
        this.sub = null;
        input = r.value;
      }
      const e = this.step(input);
      if (e === DELEGATED) {
        input = undefined;
        continue;
      }
      if (e === DONE) {
        out.done = true;
        out.value = this.result;
      } else out.value = e;
      return out as IteratorResult<Effect, T>;
    }
  }

  return(value?: T): IteratorResult<Effect, T> {
    this.sub = null;
    return { done: true, value: value as T };
  }

  throw(err: unknown): IteratorResult<Effect, T> {
    this.sub = null;
    throw err;
  }

  [Symbol.iterator](): this {
    return this;
  }
}
