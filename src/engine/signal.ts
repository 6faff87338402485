/**
 * A one-shot event a process can wait for (SimPy's `Event`): fired once with a value;
 * every waiter resumes with that value, and a process that waits on an already fired
 * signal resumes at once. Pub/sub wake-ups, command replies and process exits are signals.
 */
import type { Process } from './process.js';

export class Signal<T = unknown> {
  fired = false;
  value: T | undefined;
  /** Waiters as flat pairs (process, token) so a wait allocates no object. */
  private waiters: Array<Process | number> = [];

  constructor(readonly label = 'signal') {}

  fire(value: T): void {
    if (this.fired) return;
    this.fired = true;
    this.value = value;
    const waiters = this.waiters;
    this.waiters = [];
    for (let i = 0; i < waiters.length; i += 2) {
      (waiters[i] as Process).resumeIfWaiting(waiters[i + 1] as number, value);
    }
  }

  /** @internal used by Process when it yields this signal. */
  addWaiter(process: Process, token: number): void {
    this.waiters.push(process, token);
  }
}

/** Yield this to wait for a signal at most `timeoutUs`; the process resumes with TIMED_OUT on timeout. */
export class SignalWait<T = unknown> {
  constructor(readonly signal: Signal<T>, readonly timeoutUs: number) {}
}

export const TIMED_OUT: unique symbol = Symbol('timed out');
export type TimedOut = typeof TIMED_OUT;

/** What a process generator may yield: a sleep in microseconds, a signal, or a bounded wait. */
export type Yieldable = number | Signal<any> | SignalWait<any>;

/** Thrown into a process at its current yield point by `Process.interrupt`. */
export class Interrupt extends Error {
  constructor(override readonly cause: unknown) {
    super(`interrupted: ${String(cause)}`);
    this.name = 'Interrupt';
  }
}
