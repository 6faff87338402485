/**
 * One simulated client process's user code, in the simulation's own thread: a `vm` context
 * of its own (its own globals, built-in objects and simulated clock, timers and random
 * stream), the glue (realm-bridge.ts) compiled in it, and the user module loaded in it afresh for that
 * process incarnation (loader.ts: new module instances, so module-level state, a library's
 * registries and caches, cannot leak from one process into another, from a killed process
 * into its restart, or from one run into the next). Separate processes of a real service do
 * not share a module instance; neither do the simulated ones.
 *
 * A context serves another process (of this run or a later one) only when the run left its
 * shared objects unchanged (UserCode.recycle, context-watch.ts); else the next one gets a new
 * one. A call delivers one message by calling the glue's step, then running the microtask
 * queue (runContinuations), so every promise continuation the message set off has run; then
 * the context's immediates run, each batch drained the same way, until none is left. No
 * thread hop, no wait: the simulation stays synchronous and user code runs only inside
 * `call`, at the simulated instant of the event.
 *
 * ESM in a context needs `vm.SourceTextModule` (Node's --experimental-vm-modules): this
 * module is used inside the own-code run worker (backends/worker/run-worker.ts), started with that flag.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { ownCodeContextMain, type GlueApi, type GlueHost } from './realm-bridge.js';
import { nodeRedisMain } from './node-redis-client.js';
import { clientStore } from './client-store.js';
import { ModuleLoader } from './loader.js';
import { RealmCode } from './realm-code.js';
import { ContextWatch } from './context-watch.js';
import type { ThreadAnswer } from './user-thread.js';
import { Sandbox, type SandboxProcess } from './sandbox/sandbox.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const hostRequire = createRequire(import.meta.url);
const hostCrypto = hostRequire('node:crypto');

/** The glue's source, compiled once per context (a bundler's keep-names helper `__name` covered). */
const GLUE_SOURCE = `(function () { const __name = (f) => f; return (${ownCodeContextMain.toString()}); })()`;
const GLUE_SCRIPT = new vm.Script(GLUE_SOURCE, { filename: 'lock-sim:own-code/realm-bridge.js' });
const NODE_REDIS_SCRIPT = new vm.Script(`(function () { const __name = (f) => f; return (${nodeRedisMain.toString()}); })()`, { filename: 'lock-sim:own-code/node-redis-client.js' });
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

/** Contexts kept for later processes of a module (UserCode.recycle), by module file: a run of the shipped scenarios needs one per client process. */
const kept = new Map<string, UserCode[]>();
const KEPT_PER_MODULE = 16;

/** Which request runs (client-store.ts), one for the thread: its promise hooks are per process. */
const als = clientStore();

/**
 * How a call runs the promise continuations it set off. Node's `process._tickCallback`
 * (lib/internal/process/task_queues.js runNextTicks, present from Node 0.x to 24) runs the
 * isolate's microtask queue, then Node's tick queue and its promise-rejection processing; a
 * context made without a queue of its own puts its continuations on that queue, so one such
 * call after a step runs them all, and tells 'unhandledRejection' listeners of what was left
 * unhandled. V8 runs no microtask checkpoint while a continuation runs, so own code is called
 * from a macrotask (backends/worker/run-worker.ts), and each process checks that its continuations do run
 * (UserCode.load). Measured on Node 20.20.2: a step drained this way costs 0.5-0.8 us, one
 * drained by running an empty script in a context with `microtaskMode: 'afterEvaluate'` (and
 * its own queue) and then the same call 1.8-2.3 us, about 6,000 times a twin module run.
 * Without `_tickCallback`, the context gets its own queue and the empty script drains it.
 */
const processTicks = (process as unknown as { _tickCallback?: () => void })._tickCallback;
const SHARED_QUEUE = typeof processTicks === 'function';
/**
 * A context whose global object is an ordinary object (Node's `vm.constants.DONT_CONTEXTIFY`,
 * Node 20.18 and 22.8 on) rather than one contextified around a host object: every read of a
 * global in the context (`Promise`, `Array`, `Buffer`, the timer functions, ... by the glue, the
 * sandbox's modules and user code alike) is then a property lookup V8 caches, where a
 * contextified global answers each through Node's C++ interceptors. Measured on Node 20.20.2:
 * a function reading three globals per element of a 6-element array, 2.7 us a call in a
 * contextified context, 0.07 us in this one. Nothing else differs: the context starts empty
 * either way (its globals are the ones the glue and the sandbox put there). Older Node: a
 * contextified empty object, as before.
 */
const DONT_CONTEXTIFY = (vm as unknown as { constants?: { DONT_CONTEXTIFY?: symbol } }).constants?.DONT_CONTEXTIFY as unknown as object | undefined;
/** A continuation queued in a context: it has run once the caller drained the queue. */
const CHECK_SCRIPT = new vm.Script('(() => { const box = { ran: false }; Promise.resolve().then(() => { box.ran = true; }); return box; })()', { filename: 'lock-sim:own-code/check.js' });

/** Promise rejections nothing handled, with the realm they belong to (processTicks tells the listener): recorded at the call that left them. */
const unhandled: Array<{ reason: unknown }> = [];
let listening = false;
function listenForUnhandled(): void {
  if (listening) return;
  listening = true;
  process.on('unhandledRejection', (reason) => {
    unhandled.push({ reason });
  });
}

/** The realms (processes) of the run going on: recycled when it ends normally (endRun). */
const ofRun: UserCode[] = [];

/** A run starts: no realm of an earlier run is still counted as its. */
export function beginRun(): void {
  ofRun.length = 0;
}

/** The run ended; normally (`ok`): each of its processes' contexts may serve another process. */
export function endRun(ok: boolean): void {
  const realms = ofRun.splice(0);
  if (ok) for (const u of realms) u.recycle();
}

/** What identifies a process to its realm: its number in the run, its name, its seeded stream, the scenario's file. */
interface ProcessIdentity extends SandboxProcess {
  client: number;
  seed: number;
}

export class UserCode {
  private readonly context: vm.Context;
  private readonly api: GlueApi;
  private readonly watch: ContextWatch;
  private readonly sandbox: Sandbox;
  /** The user module's files compiled in this realm, each once for every process it serves. */
  private readonly code: RealmCode;
  private readonly mailbox: GlueHost['mailbox'] = { msg: null, result: null, namespace: null, loadError: null };
  /** The simulation's clock of this realm's client (OwnCodeRuntime sets it); NaN before the run. */
  clockMs: (monotonic: boolean) => number = () => NaN;

  private constructor(private readonly file: string) {
    const options = SHARED_QUEUE ? { name: 'lock-sim user code' } : { name: 'lock-sim user code', microtaskMode: 'afterEvaluate' as const };
    this.context = vm.createContext(DONT_CONTEXTIFY ?? {}, options);
    const main = GLUE_SCRIPT.runInContext(this.context) as typeof ownCodeContextMain;
    this.code = new RealmCode(this.context);
    this.sandbox = new Sandbox(this.context, file);
    this.api = main({
      als,
      EventEmitter,
      hostCrypto,
      clockMs: (monotonic) => this.clockMs(monotonic),
      mailbox: this.mailbox,
      sandbox: this.sandbox.glueSide(),
      nodeRedisMain: NODE_REDIS_SCRIPT.runInContext(this.context) as typeof nodeRedisMain,
    });
    this.sandbox.attach(this.api);
    listenForUnhandled();
    const [global, objectPrototype] = REALM_SCRIPT.runInContext(this.context) as [object, object];
    this.watch = new ContextWatch(global, objectPrototype, [...this.api.watched, ...this.sandbox.watched()]);
  }

  /**
   * A realm for a new process running `file`: one an earlier process of the module left
   * unchanged (recycle), else a new one. `fromKept` false (a probe) always makes a new one.
   */
  static forProcess(file: string, fromKept = true): UserCode {
    const u = (fromKept ? kept.get(file)?.pop() : undefined) ?? new UserCode(file);
    if (fromKept) ofRun.push(u);
    return u;
  }

  /**
   * Loads the module afresh into this realm for process `who` at simulated time `simMs`: its
   * graph linked and evaluated now (continuations it queues while loading run now too). A load
   * error, or a top-level await that does not settle at this instant, is kept for the
   * factory call ('client' or 'probe') to report.
   */
  load(who: ProcessIdentity, simMs: number): void {
    this.checkContinuationsRun();
    this.api.reset(who.seed, who.client, who.name);
    this.api.at(simMs);
    this.sandbox.begin(who);
    const loader = new ModuleLoader({ context: this.context, realm: this.code, builtin: (name, from, l) => this.sandbox.builtin(name, from, l), drain: () => this.runContinuations() });
    const m = this.mailbox;
    m.namespace = m.loadError = null;
    try {
      m.namespace = this.api.inProcess(() => loader.load(this.file));
    } catch (err) {
      m.loadError = err;
    }
    this.sandbox.loaded(loader.files());
  }

  /**
   * After a run that ended normally: the context is kept for another process of the module
   * when user code changed none of its shared objects (context-watch.ts), its state let go
   * now. The next process gets fresh module instances in it (a new module graph, a reset glue,
   * new views of the builtins): what a new context would give, without compiling the glue
   * again and without V8 optimizing it again. Measured on Node 20.20.2
   * (scenarios/own-code/twin-lua-unlock.yaml): a new context per run had V8 re-optimize the
   * glue's and the runtime's hot functions every run, about half of a module run's CPU time
   * on V8's compiler threads.
   */
  recycle(): void {
    if (!this.watch.unchanged()) return;
    this.api.reset(0, -1, '');
    this.sandbox.end();
    this.clockMs = () => NaN;
    const m = this.mailbox;
    m.msg = m.result = m.namespace = m.loadError = null;
    let list = kept.get(this.file);
    if (!list) kept.set(this.file, (list = []));
    if (list.length < KEPT_PER_MODULE) list.push(this);
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
    this.mailbox.result = null;
    this.mailbox.msg = message;
    this.drain();
    // The factory has run its synchronous part: from now on, no file reads (sandbox/virtual-modules.ts fs).
    if (message.op === 'client' || message.op === 'probe-result') this.sandbox.running();
    const actions = this.api.takeActions() as ThreadAnswer['actions'];
    if (unhandled.length > 0) {
      for (const { reason } of unhandled.splice(0)) actions.push({ kind: 'diagnostic', diagnostic: 'unhandled-rejection', error: this.api.describe(reason) });
    }
    return { result: this.mailbox.result, actions };
  }
}
