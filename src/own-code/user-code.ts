/**
 * One run's user code, in the simulation's own thread: a `vm` context, the glue (glue.ts)
 * compiled in it, and the user module loaded in it afresh for every run (loader.ts: new
 * module instances, so module-level state cannot leak from one run into the next). A context
 * serves the module's next run only when the run left its shared objects unchanged
 * (UserCode.recycle, context-watch.ts); else the next run gets a new one. A call delivers one
 * message by calling the glue's step, then running the microtask queue (runContinuations),
 * so every promise continuation the message set off has run; then the context's immediates
 * run, each batch drained the same way, until none is left. No thread
 * hop, no wait: the simulation stays synchronous and user code runs only inside `call`, at
 * the simulated instant of the event.
 *
 * ESM in a context needs `vm.SourceTextModule` (Node's --experimental-vm-modules): this
 * module is used inside the own-code run worker (run-worker.ts), started with that flag.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { ownCodeContextMain, type GlueApi, type GlueHost } from './glue.js';
import { clientStore } from './client-store.js';
import { ModuleLoader } from './loader.js';
import { ContextWatch } from './context-watch.js';
import type { ThreadAnswer } from './user-thread.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const hostRequire = createRequire(import.meta.url);
const hostCrypto = hostRequire('node:crypto');

/** Node globals user code finds in its context as they are (the clock- and random-reading ones are the glue's). */
const PASSED_GLOBALS = [
  'console', 'Buffer', 'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'AbortController', 'AbortSignal',
  'EventTarget', 'Event', 'structuredClone', 'atob', 'btoa', 'fetch', 'Blob',
];

/** The glue's source, compiled once per context (a bundler's keep-names helper `__name` covered). */
const GLUE_SOURCE = `(function () { const __name = (f) => f; return (${ownCodeContextMain.toString()}); })()`;
const GLUE_SCRIPT = new vm.Script(GLUE_SOURCE, { filename: 'lock-sim:own-code/glue.js' });
/**
 * An empty script: without `process._tickCallback` (SHARED_QUEUE below), running it in a
 * context made with `microtaskMode: 'afterEvaluate'` drains that context's own microtask
 * queue (Node runs its checkpoint after every evaluation). The step itself
 * is a direct call of the glue's function (no global lookup through the contextified global,
 * which a script naming it would do on every call: measured on Node 20.20.2, a call and the
 * drain 3.1 us a delivery through '__lockSimStep()', 2.1 us this way).
 */
const DRAIN_SCRIPT = new vm.Script('', { filename: 'lock-sim:own-code/drain.js' });
/** The context's global object and Object.prototype, for its watch (context-watch.ts). */
const REALM_SCRIPT = new vm.Script('[globalThis, Object.prototype]', { filename: 'lock-sim:own-code/realm.js' });

/** Contexts kept for the next run of a module (UserCode.recycle), by module file; a run of the shipped scenarios needs one, a re-run of a seed a few more. */
const kept = new Map<string, UserCode[]>();
const KEPT_PER_MODULE = 8;

let netRefused = false;
/**
 * Real network I/O (a real Redis client, HTTP) is not simulated: a socket that connects is
 * refused with a message that says so (net, tls and http all connect through net.Socket).
 * Patched on this thread's `net` (the run worker's, which runs nothing else that connects).
 */
function refuseRealSockets(): void {
  if (netRefused) return;
  netRefused = true;
  const net = hostRequire('node:net');
  net.Socket.prototype.connect = function refused(): never {
    throw new Error('lock-sim: a lock module opened a real network connection (net.Socket.connect); real I/O is not simulated: talk to Redis through the clients the factory receives');
  };
}

/** Which client runs (client-store.ts), one for the thread: its promise hooks are per process. */
const als = clientStore();

/**
 * How a call runs the promise continuations it set off. Node's `process._tickCallback`
 * (lib/internal/process/task_queues.js runNextTicks, present from Node 0.x to 24) runs the
 * isolate's microtask queue, then Node's tick queue and its promise-rejection processing; a
 * context made without a queue of its own puts its continuations on that queue, so one such
 * call after a step runs them all, and tells 'unhandledRejection' listeners of what was left
 * unhandled. V8 runs no microtask checkpoint while a continuation runs, so own code is called
 * from a macrotask (run-worker.ts), and each run checks that its continuations do run
 * (UserCode.call). Measured on Node 20.20.2: a step drained this way costs 0.5-0.8 us, one
 * drained by running an empty script in a context with `microtaskMode: 'afterEvaluate'` (and
 * its own queue) and then the same call 1.8-2.3 us, about 6,000 times a twin module run.
 * Without `_tickCallback`, the context gets its own queue and the empty script drains it.
 */
const processTicks = (process as unknown as { _tickCallback?: () => void })._tickCallback;
const SHARED_QUEUE = typeof processTicks === 'function';
/** A continuation queued in a context: it has run once the caller drained the queue. */
const CHECK_SCRIPT = new vm.Script('(() => { const box = { ran: false }; Promise.resolve().then(() => { box.ran = true; }); return box; })()', { filename: 'lock-sim:own-code/check.js' });

/** Promise rejections nothing handled: recorded at the call that left them (processTicks tells the listener). */
const unhandled: Array<{ message: string; name: string }> = [];
let listening = false;
function listenForUnhandled(describe: GlueApi['describe']): void {
  if (listening) return;
  listening = true;
  process.on('unhandledRejection', (reason) => {
    const d = describe(reason);
    unhandled.push({ message: d.message, name: d.name });
  });
}

export class UserCode {
  private readonly context: vm.Context;
  private readonly api: GlueApi;
  private readonly watch: ContextWatch;
  private readonly mailbox: GlueHost['mailbox'] = { msg: null, result: null, namespace: null, loadError: null };
  /** The simulation's clocks of the clients (OwnCodeRuntime sets it); NaN before the run. */
  clockMs: (client: number, monotonic: boolean) => number = () => NaN;

  private constructor(private readonly file: string) {
    refuseRealSockets();
    const sandbox: Record<string, unknown> = {};
    for (const name of PASSED_GLOBALS) if (name in globalThis) sandbox[name] = (globalThis as any)[name];
    this.context = vm.createContext(sandbox, SHARED_QUEUE ? { name: 'lock-sim user code' } : { name: 'lock-sim user code', microtaskMode: 'afterEvaluate' });
    const main = GLUE_SCRIPT.runInContext(this.context) as typeof ownCodeContextMain;
    this.api = main({
      als,
      EventEmitter,
      hostCrypto,
      hostProcess: process,
      hostPerformance: performance,
      clockMs: (client, monotonic) => this.clockMs(client, monotonic),
      mailbox: this.mailbox,
    });
    listenForUnhandled(this.api.describe);
    const [global, objectPrototype] = REALM_SCRIPT.runInContext(this.context) as [object, object];
    this.watch = new ContextWatch(global, objectPrototype, this.api.watched);
  }

  /**
   * A context for one run with `file` loaded (its load error kept for 'start-run' and
   * 'probe' to report): for a run, one a previous run of the same module left unchanged
   * (recycle), else a new one; a probe gets a new one. `seed` seeds the random draws user
   * code makes outside any client (module load).
   */
  static async prepare(file: string, seed: number, fromKept = true): Promise<UserCode> {
    const u = (fromKept ? kept.get(file)?.pop() : undefined) ?? new UserCode(file);
    u.api.reset(seed);
    const loader = new ModuleLoader({ context: u.context, builtin: (name) => u.builtin(name) });
    try {
      u.evaluate = await loader.prepare(file);
    } catch (err) {
      u.mailbox.loadError = err;
    }
    return u;
  }

  /**
   * After a run that ended normally: the context is kept for the module's next run when user
   * code changed none of its shared objects (context-watch.ts), its run's state let go now.
   * The next run gets fresh module instances in it (a new module graph, a reset glue): what
   * a new context would give, without compiling the glue again and without V8 optimizing it
   * again. Measured on Node 20.20.2 (scenarios/own-code/twin-lua-unlock.yaml): a new context
   * per run had V8 re-optimize the glue's and the runtime's hot functions every run, about
   * half of a module run's CPU time on V8's compiler threads.
   */
  recycle(): void {
    if (!this.watch.unchanged()) return;
    this.api.reset(0);
    this.evaluate = null;
    this.clockMs = () => NaN;
    const m = this.mailbox;
    m.msg = m.result = m.namespace = m.loadError = null;
    let list = kept.get(this.file);
    if (!list) kept.set(this.file, (list = []));
    if (list.length < KEPT_PER_MODULE) list.push(this);
  }

  /** Evaluates the module graph (prepare linked it): at the run's first call, at its simulated instant. */
  private evaluate: (() => Record<string, unknown>) | null = null;

  private evaluateOnce(): void {
    const evaluate = this.evaluate;
    if (evaluate === null) return;
    this.evaluate = null;
    try {
      this.mailbox.namespace = evaluate();
    } catch (err) {
      this.mailbox.loadError = err;
    }
  }

  private builtin(name: string): any {
    switch (name) {
      case 'crypto': return this.api.crypto;
      case 'timers': return this.api.timers;
      case 'process': return this.api.process;
      case 'perf_hooks': return { ...hostRequire('node:perf_hooks'), performance: this.api.performance };
      default: return hostRequire(`node:${name}`);
    }
  }

  /** Runs the continuations queued so far (SHARED_QUEUE). */
  private runContinuations(): void {
    if (SHARED_QUEUE) processTicks!.call(process);
    else DRAIN_SCRIPT.runInContext(this.context);
  }

  /** Runs a step, then the continuations it set off, until no immediate is left. */
  private drain(): void {
    const api = this.api;
    api.step();
    this.runContinuations();
    while (api.pending()) {
      api.step();
      this.runContinuations();
    }
  }

  /** A continuation queued in the context runs when this thread drains: not so inside a continuation (SHARED_QUEUE). */
  private checkContinuationsRun(): void {
    const box = CHECK_SCRIPT.runInContext(this.context) as { ran: boolean };
    this.runContinuations();
    if (!box.ran) throw new Error('lock-sim: own code was called from inside a promise continuation, where its continuations cannot run (V8 runs no microtask checkpoint there): call it from a macrotask');
  }

  /** Delivers one message and runs everything it set off; the answer and what user code asked for. */
  call(message: { op: string; [field: string]: unknown }): ThreadAnswer {
    if (message.op === 'start-run' || message.op === 'probe') {
      this.checkContinuationsRun();
      if (typeof message.simMs === 'number') this.api.at(message.simMs);
      this.evaluateOnce();
    }
    this.mailbox.result = null;
    this.mailbox.msg = message;
    this.drain();
    const actions = this.api.takeActions() as ThreadAnswer['actions'];
    if (unhandled.length > 0) for (const error of unhandled.splice(0)) actions.push({ kind: 'uncaught', client: -1, error });
    return { result: this.mailbox.result, actions };
  }
}

/**
 * Contexts prepared for the run about to start (run-worker.ts prepares them, loading is
 * asynchronous; OwnCodeRuntime takes one per simulated run). A run that needs one more than
 * was prepared (runVariant re-runs a seed the streaming checker could not judge) throws
 * NeedsAnotherContext, and the worker runs it again with more: runs are deterministic.
 */
const prepared: UserCode[] = [];

export class NeedsAnotherContext extends Error {
  constructor() {
    super('lock-sim: an own-code run needs another prepared context');
    this.name = 'NeedsAnotherContext';
  }
}

export function offerPrepared(contexts: UserCode[]): void {
  prepared.length = 0;
  prepared.push(...contexts);
}

export function takePrepared(): UserCode {
  const u = prepared.shift();
  if (!u) throw new NeedsAnotherContext();
  return u;
}
