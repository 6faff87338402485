/**
 * Processes are generators driven by the simulation (SimPy style). A process yields
 * `Yieldable`s and is resumed with the outcome. Every wait carries a token: anything that
 * ends the wait (a timeout, a signal, an interrupt, a kill) bumps the token, so a stale
 * wake-up left in the queue is recognised and dropped instead of being cancelled eagerly.
 *
 * A ProcessGroup is everything that runs inside one client process (worker threads,
 * the lock watchdog, reply handling). Pausing the group is a stop-the-world GC pause:
 * wake-ups that fall due while paused are held, in order, and delivered when it resumes,
 * the way replies wait in the socket buffer until the JVM runs again.
 */
import type { Simulation } from './simulation.js';
import { Interrupt, Signal, SignalWait, TIMED_OUT, type Yieldable } from './signal.js';

export type ProcessGenerator<R = unknown> = Generator<Yieldable, R, any>;

export class ProcessGroup {
  pauseDepth = 0;
  dead = false;
  /** @internal flat (queue item, token) pairs held while paused, in the order they fell due. */
  held: unknown[] = [];
  readonly members = new Set<Process>();

  constructor(readonly name: string, private readonly sim: Simulation) {}

  get paused(): boolean {
    return this.pauseDepth > 0;
  }

  pause(): void {
    this.pauseDepth++;
  }

  resume(): void {
    if (this.pauseDepth === 0) return;
    this.pauseDepth--;
    if (this.pauseDepth > 0) return;
    const held = this.held;
    this.held = [];
    for (let i = 0; i < held.length; i += 2) {
      this.sim.requeue(held[i], held[i + 1] as number);
    }
  }

  /**
   * A callback of this client process that fell due while it is paused: put back, in the
   * order it fell due, when the pause ends (the way a member's wake-up is held). For world
   * machinery that acts as the process without being a Process of its own (own code's
   * deliveries and timers, src/own-code/runtime.ts).
   */
  hold(callback: () => void): void {
    this.held.push(callback, 0);
  }

  /** kill -9: every member stops where it is; nothing in a finally block runs. */
  kill(): void {
    this.dead = true;
    this.held = [];
    this.pauseDepth = 0;
    for (const p of [...this.members]) p.kill();
  }
}

export class Process<R = unknown> {
  /** Bumped whenever the current wait ends; wake-ups carrying an older token are stale. */
  token = 0;
  done = false;
  result: R | undefined;
  private resumeValue: unknown = undefined;
  private pendingError: unknown = undefined;
  private exitSignal: Signal<R | undefined> | undefined;

  constructor(
    readonly sim: Simulation,
    readonly name: string,
    private readonly gen: ProcessGenerator<R>,
    readonly group: ProcessGroup | null,
  ) {
    group?.members.add(this);
  }

  /** A signal fired when the process returns (or is killed, with value undefined). */
  get exited(): Signal<R | undefined> {
    if (!this.exitSignal) {
      this.exitSignal = new Signal('exited');
      if (this.done) this.exitSignal.fire(this.result);
    }
    return this.exitSignal;
  }

  /** @internal a signal fired; resume at the current time if still waiting with `token`. */
  resumeIfWaiting(token: number, value: unknown): void {
    if (this.done || token !== this.token) return;
    this.token++;
    this.resumeValue = value;
    this.sim.wakeAt(this.sim.nowUs, this, this.token);
  }

  /** Throws `Interrupt(cause)` into the process at its current yield point. */
  interrupt(cause: unknown): void {
    if (this.done) return;
    this.token++;
    this.pendingError = new Interrupt(cause);
    this.sim.wakeAt(this.sim.nowUs, this, this.token);
  }

  kill(): void {
    if (this.done) return;
    this.done = true;
    this.token++;
    this.group?.members.delete(this);
    this.exitSignal?.fire(undefined);
  }

  /** @internal called by the simulation when a wake-up with the current token falls due. */
  step(): void {
    let r: IteratorResult<Yieldable, R>;
    this.sim.current = this;
    try {
      if (this.pendingError !== undefined) {
        const err = this.pendingError;
        this.pendingError = undefined;
        r = this.gen.throw(err);
      } else {
        const value = this.resumeValue;
        this.resumeValue = undefined;
        r = this.gen.next(value);
      }
    } catch (err) {
      this.sim.current = null;
      if (err instanceof Interrupt) {
        // An interrupt the process did not handle ends it, like an uncaught thread interrupt.
        this.finish(undefined);
        return;
      }
      throw err;
    }
    this.sim.current = null;
    if (r.done) {
      this.finish(r.value);
      return;
    }
    this.await(r.value);
  }

  private await(y: Yieldable): void {
    const token = this.token;
    if (typeof y === 'number') {
      if (!(y >= 0)) throw new Error(`${this.name} yielded an invalid sleep of ${y}us`);
      this.sim.wakeAt(this.sim.nowUs + y, this, token);
    } else if (y instanceof Signal) {
      if (y.fired) {
        this.token++;
        this.resumeValue = y.value;
        this.sim.wakeAt(this.sim.nowUs, this, this.token);
      } else {
        y.addWaiter(this, token);
      }
    } else if (y instanceof SignalWait) {
      if (y.signal.fired) {
        this.token++;
        this.resumeValue = y.signal.value;
        this.sim.wakeAt(this.sim.nowUs, this, this.token);
      } else {
        y.signal.addWaiter(this, token);
        this.sim.timeoutAfter(y.timeoutUs, this, token);
      }
    } else {
      throw new Error(`${this.name} yielded something the engine cannot wait for: ${String(y)}`);
    }
  }

  /** @internal the bounded wait of `token` ran out. */
  timeOut(token: number): void {
    if (this.done || token !== this.token) return;
    this.token++;
    this.resumeValue = TIMED_OUT;
    this.step();
  }

  private finish(value: R | undefined): void {
    this.done = true;
    this.result = value;
    this.token++;
    this.group?.members.delete(this);
    this.exitSignal?.fire(value);
  }
}
