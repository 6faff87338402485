/**
 * A one-shot event a process can wait for (SimPy's `Event`): fired once with a value;
 * every waiter resumes with that value, and a process that waits on an already fired
 * signal resumes at once. Pub/sub wake-ups, command replies and process exits are signals.
 */
import type { Process } from './process.js';

export class Signal<T = unknown> {
  fired = false;
  value: T | undefined;
  /**
   * The first waiter inline (almost every signal has at most one: a command's reply, a
   * statement's end, an idle worker's wake-up), the others as flat pairs (process, token):
   * a wait allocates no object, and a signal with one waiter no array (an empty array grows
   * to 17 slots on its first push; signals are made per command).
   */
  private firstWaiter: Process | null = null;
  private firstToken = 0;
  private moreWaiters: Array<Process | number> | null = null;

  constructor(readonly label = 'signal') {}

  fire(value: T): void {
    if (this.fired) return;
    this.fired = true;
    this.value = value;
    const first = this.firstWaiter;
    if (first === null) return;
    this.firstWaiter = null;
    first.resumeIfWaiting(this.firstToken, value);
    const more = this.moreWaiters;
    if (more === null) return;
    this.moreWaiters = null;
    for (let i = 0; i < more.length; i += 2) {
      (more[i] as Process).resumeIfWaiting(more[i + 1] as number, value);
    }
  }

  /**
   * Makes a fired signal unfired again, to be waited for and fired anew: for an owner that
   * waits on one signal over and over (an idle worker), when nothing waits on it any more.
   */
  rearm(): void {
    if (this.firstWaiter !== null || this.moreWaiters !== null) throw new Error(`${this.label}: rearmed while waited for`);
    this.fired = false;
    this.value = undefined;
  }

  /** @internal used by Process when it yields this signal. */
  addWaiter(process: Process, token: number): void {
    if (this.firstWaiter === null && this.moreWaiters === null) {
      this.firstWaiter = process;
      this.firstToken = token;
    } else if (this.moreWaiters === null) this.moreWaiters = [process, token];
    else this.moreWaiters.push(process, token);
  }
}

/**
 * Yield this to wait for a signal at most `timeoutUs`; the process resumes with TIMED_OUT on
 * timeout. The engine reads a yielded wait at once and keeps nothing of it, so a hot path may
 * yield one object again and again, set anew each time (`set`): no allocation per wait.
 */
export class SignalWait<T = unknown> {
  constructor(public signal: Signal<T>, public timeoutUs: number) {}

  set(signal: Signal<T>, timeoutUs: number): this {
    this.signal = signal;
    this.timeoutUs = timeoutUs;
    return this;
  }
}

export const TIMED_OUT: unique symbol = Symbol('timed out');

/** What a process generator may yield: a sleep in microseconds, a signal, or a bounded wait. */
export type Yieldable = number | Signal<any> | SignalWait<any>;

/** Thrown into a process at its current yield point by `Process.interrupt`. */
export class Interrupt extends Error {
  constructor(override readonly cause: unknown) {
    super(`interrupted: ${String(cause)}`);
    this.name = 'Interrupt';
  }
}
