/**
 * The timers and stray errors of a user lock module on the real backend. The module runs in
 * lock-sim's process in real time (real-own-code.ts), so its timers are Node's. While a real run with a module is on, the global timer functions are wrapped: a timer
 * set from the module's code (its client process, known through an AsyncLocalStorage that the
 * module's calls and their promises and timers carry) belongs to that process:
 * - while the process is in a GC pause (its ProcessGroup is paused), a timer that falls due is
 *   held and runs when the pause ends, as the model holds a paused client's timers (a
 *   stop-the-world pause stops the module's refresh interval too: Kleppmann, "How to do
 *   distributed locking", 2016);
 * - when the process is killed (kill -9) or the run ends, its timers are cleared, so a
 *   module's refresh interval does not outlive its process or the run;
 * - an error thrown by a timer's callback, or a promise of the module's that rejects with no
 *   handler (redis-semaphore 5.8.0 lib/Lock.js _processRefresh awaits its refresh without a
 *   catch), is recorded as the simulated runtime records it (`uncaught in lock module`) instead
 *   of ending lock-sim's process.
 * Code outside a module's call (lock-sim's own driver, ioredis' internals set up outside it)
 * gets Node's timers unchanged.
 * lock-sim: wall-clock ok, the real backend runs user code in real time.
 */
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { ClientHost } from '../../world/client-host.js';
import type { RealTimeDriver } from './realtime.js';

/** One client process's incarnation, as the module's code runs in it. */
export interface TimerOwner {
  readonly host: ClientHost;
  closed: boolean;
  readonly timers: Set<NodeJS.Timeout>;
}

/** Where a stray error of the module goes: the client process's name, and the error. */
export type UncaughtSink = (client: string, message: string) => void;

const ownerOf = new AsyncLocalStorage<TimerOwner>();

type TimerFn = (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => NodeJS.Timeout;

export class ModuleTimers {
  /** Node's own timer functions, kept to restore them. */
  private readonly realSetTimeout = globalThis.setTimeout; // lock-sim: wall-clock ok (real backend)
  private readonly realSetInterval = globalThis.setInterval; // lock-sim: wall-clock ok (real backend)
  private readonly realClearTimeout = globalThis.clearTimeout;
  private readonly realClearInterval = globalThis.clearInterval;
  private readonly owners = new Map<NodeJS.Timeout, TimerOwner>();
  private installed = false;
  private readonly onRejection = (reason: unknown): void => this.stray(reason);

  constructor(
    private readonly driver: RealTimeDriver,
    private readonly sink: UncaughtSink,
  ) {}

  /** A new owner for a client process's incarnation. */
  owner(host: ClientHost): TimerOwner {
    return { host, closed: false, timers: new Set() };
  }

  /** Runs `fn` as `owner`'s code: the timers it and its promises set are the owner's. */
  run<T>(owner: TimerOwner, fn: () => T): T {
    return ownerOf.run(owner, fn);
  }

  /** Wraps the global timer functions (until `uninstall`). */
  install(): void {
    if (this.installed) return;
    this.installed = true;
    globalThis.setTimeout = this.wrap(this.realSetTimeout as unknown as TimerFn, false) as unknown as typeof setTimeout; // lock-sim: wall-clock ok (real backend)
    globalThis.setInterval = this.wrap(this.realSetInterval as unknown as TimerFn, true) as unknown as typeof setInterval; // lock-sim: wall-clock ok (real backend)
    globalThis.clearTimeout = ((t?: NodeJS.Timeout) => this.clear(t, this.realClearTimeout)) as typeof clearTimeout;
    globalThis.clearInterval = ((t?: NodeJS.Timeout) => this.clear(t, this.realClearInterval)) as typeof clearInterval;
    process.on('unhandledRejection', this.onRejection);
  }

  /** Puts Node's timer functions back and stops catching the module's stray rejections. */
  uninstall(): void {
    if (!this.installed) return;
    this.installed = false;
    globalThis.setTimeout = this.realSetTimeout; // lock-sim: wall-clock ok (real backend)
    globalThis.setInterval = this.realSetInterval; // lock-sim: wall-clock ok (real backend)
    globalThis.clearTimeout = this.realClearTimeout;
    globalThis.clearInterval = this.realClearInterval;
    process.off('unhandledRejection', this.onRejection);
  }

  /** kill -9 of the owner's process, or the run's end: its timers never fire again. */
  close(owner: TimerOwner): void {
    owner.closed = true;
    for (const t of owner.timers) {
      this.owners.delete(t);
      this.realClearInterval(t);
    }
    owner.timers.clear();
  }

  private wrap(real: TimerFn, repeating: boolean): TimerFn {
    return (callback, ms, ...args) => {
      const owner = ownerOf.getStore();
      if (!owner) return real(callback, ms, ...args);
      // Closed: the process is gone; a timer it still asks for never fires.
      if (owner.closed) {
        const inert = real(() => undefined, 0);
        this.realClearTimeout(inert);
        return inert;
      }
      // Bound now, so a held firing runs in the module's context (its request, its owner).
      const bound = AsyncResource.bind(() => this.invoke(owner, callback, args));
      const timer = real(() => {
        if (!repeating) {
          owner.timers.delete(timer);
          this.owners.delete(timer);
        }
        this.due(owner, bound);
      }, ms);
      owner.timers.add(timer);
      this.owners.set(timer, owner);
      return timer;
    };
  }

  private clear(timer: NodeJS.Timeout | undefined, real: (t?: NodeJS.Timeout) => void): void {
    if (timer !== undefined) {
      const owner = this.owners.get(timer);
      owner?.timers.delete(timer);
      this.owners.delete(timer);
    }
    real(timer);
  }

  /** A timer fell due: it runs now, or when its process's GC pause ends (held by the engine). */
  private due(owner: TimerOwner, run: () => void): void {
    if (owner.closed) return;
    if (!owner.host.group.paused) {
      run();
      return;
    }
    const group = owner.host.group;
    this.driver.inject(() => {
      // A process's first step runs when spawned (Simulation.spawn), held while its group is paused.
      // eslint-disable-next-line require-yield
      const held = function* (): Generator<never, void, unknown> {
        if (!owner.closed) run();
      };
      this.driver.sim.spawn(`${owner.host.name} module timer`, held(), group);
    });
  }

  private invoke(owner: TimerOwner, callback: (...args: unknown[]) => void, args: unknown[]): void {
    if (owner.closed) return;
    try {
      callback(...args);
    } catch (err) {
      this.stray(err, owner);
    }
  }

  /** A module error nothing handled: recorded for its process (or the module) while the run is on. */
  private stray(reason: unknown, owner = ownerOf.getStore()): void {
    const e = reason instanceof Error ? reason : new Error(String(reason));
    if (owner?.closed) return; // the process is gone: what it left in flight failing is no news
    const client = owner?.host.name ?? 'lock module';
    this.driver.inject(() => this.sink(client, `${e.name}: ${e.message}`));
  }
}
