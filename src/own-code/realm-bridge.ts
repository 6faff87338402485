/**
 * The glue between the simulation and user lock code, compiled INSIDE the run's `vm` context
 * (user-code.ts), so that its promises, classes, errors and closures belong to that context,
 * as user code's own do. The simulation delivers one message (a reply, a timer, a call) by
 * calling `step`, then running the promise continuations it set off (user-code.ts
 * runContinuations); then the host runs the context's immediates until none is left. So a
 * continuation runs at the simulated instant of the event that resolved it, in one order,
 * every run, in the simulation's own thread. `reset` starts a run over: a context may serve
 * run after run of a module (user-code.ts UserCode.recycle).
 *
 * This function is compiled from its source (`${fn}`), so it must be self-contained: no
 * imports; what it needs from Node comes in `host`.
 *
 * What user code sees instead of Node's globals (the context's own, set before any user
 * module loads, so libraries that keep a reference at load time keep ours): setTimeout / (lock-sim: wall-clock ok: replaced, not read)
 * setInterval / setImmediate and their clear*, Date, performance.now, Math.random, (lock-sim: wall-clock ok: replaced by simulated ones)
 * process.nextTick, queueMicrotask, and through the `node:crypto` the loader hands out,
 * crypto.randomBytes, crypto.randomUUID and crypto.getRandomValues. Each call is attributed
 * to a simulated client by a store carried along promise chains (client-store.ts, V8's
 * promise hooks, as AsyncLocalStorage did): a store set with `als.run` around a
 * delivery is still the store when a continuation of that chain resumes during a later
 * delivery made under another store (the context's promises carry it).
 */
export interface GlueHost {
  /** The request user code runs for, carried along its promise chains (client-store.ts). */
  als: import('./client-store.js').ClientStore;
  EventEmitter: typeof import('node:events').EventEmitter;
  hostCrypto: typeof import('node:crypto');
  /** This realm's client's clock now: wall (Date) or monotonic (performance.now) milliseconds; NaN before the run. (lock-sim: wall-clock ok, names the simulated clock, reads none) */
  clockMs(monotonic: boolean): number;
  /** The user module's namespace once loaded (user-code.ts sets it before the factory is called). */
  mailbox: { msg: unknown; result: unknown; namespace: Record<string, unknown> | null; loadError: unknown };
  /** What the sandbox (sandbox/sandbox.ts) gives the glue: the frame of an error, for its report. */
  sandbox: { frameOf(err: unknown): string | null };
  /** node-redis-client.ts nodeRedisMain, compiled in this realm. */
  nodeRedisMain: typeof import('./node-redis-client.js').nodeRedisMain;
}

/** The simulated primitives the sandbox builds Node's globals and builtins on (sandbox/). */
export interface GluePrims {
  /** The client's wall clock (Date.now) and monotonic clock (performance.now), in ms. (lock-sim: wall-clock ok, the simulated clocks) */
  wallNow(): number;
  monoNow(): number;
  /** The monotonic ms at which this process's module was loaded (process.uptime). */
  startedMs(): number;
  rand(): number;
  randomFill(buf: Uint8Array): Uint8Array;
  setTimeout(fn: unknown, ms?: unknown, ...args: unknown[]): unknown; // lock-sim: wall-clock ok, the simulated timers
  setInterval(fn: unknown, ms?: unknown, ...args: unknown[]): unknown; // lock-sim: wall-clock ok, the simulated timers
  setImmediate(fn: unknown, ...args: unknown[]): unknown;
  clearTimeout(t: unknown): void;
  clearInterval(t: unknown): void;
  clearImmediate(t: unknown): void;
  queueMicrotask(fn: unknown): void;
  nextTick(fn: unknown, ...args: unknown[]): void;
  /** The store current now (client-store.ts), and a run of `fn` under one. */
  store(): unknown;
  runIn<T>(store: unknown, fn: () => T): T;
  /** Records a diagnostic of this process (DiagnosticOp). */
  report(kind: 'uncaught' | 'unhandled-rejection' | 'refused-call' | 'watchdog-stop', error: { message: string; name: string }, frame: string | null): void;
}

/** What the glue gives the host: the step entry, what is pending, its primitives. */
export interface GlueApi {
  prims: GluePrims;
  /** One step: handles mailbox.msg if set, else runs the pending immediates. Then run a script in the context: its end drains the microtasks. */
  step(): void;
  /** Immediates are waiting. */
  pending(): boolean;
  /** What user code asked for since the last call (commands, timers, settled calls). */
  takeActions(): unknown[];
  /** A fresh process: its seeded stream (Math.random, crypto), its number and name. (lock-sim: wall-clock ok, names the simulated random, reads none) */
  reset(seed: number, client: number, name: string): void;
  /** The simulated instant (ms) the process starts at. */
  at(simMs: number): void;
  /** Runs `fn` as this process's code (its store current): module load. */
  inProcess<T>(fn: () => T): T;
  describe(err: unknown): { message: string; name: string; timeout: boolean; frame: string | null };
  /** The glue's objects user code reaches other than through the global (context-watch.ts watches them). */
  watched: object[];
}

export function ownCodeContextMain(host: GlueHost): GlueApi {
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const { als, EventEmitter, hostCrypto, mailbox } = host;
  const g = globalThis as any;
  // The context's globals as local bindings: a global lookup in a vm context goes through the
  // contextified global's interceptor (a call into C++ each time); a closure variable does not.
  /* eslint-disable @typescript-eslint/no-shadow */
  const Promise: PromiseConstructor = g.Promise;
  const Map: MapConstructor = g.Map;
  const Set: SetConstructor = g.Set;
  const WeakMap: WeakMapConstructor = g.WeakMap;
  const Object: ObjectConstructor = g.Object;
  const Array: ArrayConstructor = g.Array;
  const Error: ErrorConstructor = g.Error;
  const TypeError: TypeErrorConstructor = g.TypeError;
  const String: StringConstructor = g.String;
  const Number: NumberConstructor = g.Number;
  const Math: Math = g.Math;
  const Symbol: SymbolConstructor = g.Symbol;
  const undefined = void 0;
  /** A fixed epoch for Date: simulated time 0 reads 2024-01-01T00:00:00Z. */
  const EPOCH_MS = 1_704_067_200_000;

  interface Ctx {
    client: number;
    /** The request on whose behalf commands go out (Redis records it as the key's writer). */
    tag: string;
    /** Values of the process's AsyncLocalStorage instances (sandbox/async-hooks.ts), carried as the tag is. */
    user?: unknown;
    /** The timer chain whose callback this code continues (a timer it arms re-arms the chain). */
    chain?: Chain;
  }
  /**
   * A timer chain: a timer, and every timer armed by its callback or the continuations it set
   * off (an interval is one chain). A chain of a request that holds its lock and that talks to
   * Redis is a refresh loop (redis-semaphore's interval timer, redlock-universal's chain of
   * one-shot timers, a hand-written watchdog); one that no longer has a timer armed when its request
   * releases stopped while the lock was held: a `watchdog-stop` diagnostic.
   */
  interface Chain {
    /** In `liveChains` (armed or watched); a chain let go starts over when its code arms a timer again. */
    live: boolean;
    /** Its place in `liveChains`, and when it went in (reports are in that order). */
    slot: number;
    since: number;
    tag: string;
    /** Its timers armed now. */
    armed: number;
    /** Commands its code sent while its request held the lock. */
    commands: number;
    /** Where its first such command was sent from (the library's refresh call). */
    frame: string | null;
    /** Armed while its request held the lock. */
    watched: boolean;
  }
  interface ClientState {
    id: number;
    name: string;
    alive: boolean;
    /** The factory's lock, once it returned (it may return a promise). */
    ready: Promise<any>;
    handles: Map<number, unknown>;
    redis: any[];
    /** Every client user code holds (the factory's and their duplicate()s): status events reach each. */
    instances: any[];
  }
  // A process's state: `reset` starts it over (a context may serve process after process: user-code.ts).
  let clients = new Map<number, ClientState>();
  let selfId = -1;
  let selfName = '';
  let selfCtx: Ctx = { client: -1, tag: '' };
  let actions: any[] = [];
  let nextId = 1;
  let runId = 0;
  let simMs = 0;
  let startedMs = 0;
  let probeOutcome: { lock?: any; err?: unknown } | null = null;
  let rng = mulberry(1);
  /** The process was killed: a reply that reaches it still settles nothing. */
  let killed = false;
  /**
   * The timer chains kept while armed or watched, in no order (a chain's `slot` is its place):
   * a chain leaves by swapping the last one into its place, so chains come and go without
   * an allocation (V8's Map compacts its table as entries come and go).
   */
  const liveChains: Chain[] = [];
  let chainsSince = 0;
  /** Requests whose acquire returned the lock and that have not called release yet. */
  let holding = new Set<string>();
  let immediates: Immediate[] = [];

  function mulberry(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  const ctx = (): Ctx | undefined => als.getStore() as Ctx | undefined;
  // The client's clock as it reads now, asked of the simulation when user code reads it (NaN: before the run).
  const wallNow = (): number => {
    const ms = host.clockMs(false);
    return EPOCH_MS + (ms === ms ? ms : simMs);
  };
  const monoNow = (): number => {
    const ms = host.clockMs(true);
    return ms === ms ? ms : simMs;
  };
  const rand = (): number => rng();

  // ---- the timers user code sees ----
  /**
   * A timer as the host schedules it (user-thread.ts TimerHandle): it goes out with the
   * 'timer' action and comes back in the 'fire' message, so neither side looks it up by id.
   * `arming` is the host's: the arming its wake-up belongs to, -1 once cleared.
   */
  interface TimerRecord {
    id: number;
    fn: () => void;
    ctx: Ctx | undefined;
    interval: number | null;
    run: number;
    chain: Chain;
    active: boolean;
    arming: number;
  }
  // What the timers' private fields give the glue (set in the classes' static blocks: no member user code could call).
  let recordOf: (t: Timeout) => TimerRecord;
  let clearImmediate: (i: Immediate) => void;
  let runImmediate: (i: Immediate) => void;
  /** Timers whose id user code took as a number (Node lib/timers.js knownTimersById): clearTimeout(id) finds them. */
  let knownTimersById = new Map<number, TimerRecord>();
  class Timeout {
    readonly #timer: TimerRecord;
    readonly id: number;
    constructor(timer: TimerRecord) {
      this.#timer = timer;
      this.id = timer.id;
    }
    ref(): this { return this; }
    unref(): this { return this; }
    hasRef(): boolean { return true; }
    refresh(): this { return this; }
    close(): this { clearTimer(this); return this; }
    [Symbol.toPrimitive](): number {
      const t = this.#timer;
      if (t.active) knownTimersById.set(t.id, t);
      return t.id;
    }
    static {
      recordOf = (t) => t.#timer;
    }
  }
  class Immediate {
    #cleared = false;
    readonly #fn: () => void;
    readonly #ctx: Ctx | undefined;
    constructor(readonly id: number, fn: () => void, c: Ctx | undefined) {
      this.#fn = fn;
      this.#ctx = c;
    }
    ref(): this { return this; }
    unref(): this { return this; }
    hasRef(): boolean { return true; }
    static {
      clearImmediate = (i) => { i.#cleared = true; };
      runImmediate = (i) => { if (!i.#cleared) runUser(i.#ctx, i.#fn); };
    }
  }
  /** The chain a timer armed under `c` belongs to: the chain its code continues, else a new one. */
  function chainFor(c: Ctx | undefined): Chain {
    let chain = c?.chain;
    if (chain === undefined) chain = { live: false, slot: -1, since: 0, tag: '', armed: 0, commands: 0, frame: null, watched: false };
    if (!chain.live) {
      // A new chain, or one let go whose code arms a timer again: it starts over.
      chain.live = true;
      chain.slot = liveChains.length;
      chain.since = ++chainsSince;
      chain.tag = c?.tag ?? selfName;
      chain.armed = 0;
      chain.commands = 0;
      chain.frame = null;
      chain.watched = false;
      liveChains.push(chain);
    }
    return chain;
  }
  function letGo(chain: Chain): void {
    const last = liveChains.pop()!;
    if (last !== chain) {
      liveChains[chain.slot] = last;
      last.slot = chain.slot;
    }
    chain.live = false;
  }
  function letGoAll(): void {
    for (const chain of liveChains) chain.live = false;
    liveChains.length = 0;
  }
  function addTimer(fn: any, ms: any, args: any[], interval: boolean): Timeout {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    // Node lib/internal/timers.js: a delay that is not a number in [1, 2^31-1] becomes 1.
    let delay = Number(ms);
    if (!(delay >= 1 && delay <= 2147483647)) delay = 1;
    const id = nextId++;
    const c = ctx();
    const chain = chainFor(c);
    chain.armed++;
    if (holding.has(chain.tag)) chain.watched = true;
    const timer: TimerRecord = { id, fn: args.length === 0 ? fn : () => fn(...args), ctx: c, interval: interval ? delay : null, run: runId, chain, active: true, arming: 0 };
    actions.push({ kind: 'timer', timer, client: selfId, ms: delay });
    return new Timeout(timer);
  }
  function clearTimer(t: any): void {
    // Node lib/timers.js clearTimeout: a Timeout, or the number or string of one whose id was taken.
    const timer = t instanceof Timeout ? recordOf(t) : typeof t === 'number' || typeof t === 'string' ? knownTimersById.get(Number(t)) : undefined;
    if (timer === undefined || !timer.active || timer.run !== runId) return;
    timer.active = false;
    timer.arming = -1; // the host's wake-up of it is stale, and it is not armed again
    knownTimersById.delete(timer.id);
    disarm(timer.chain);
  }
  /** A timer of the chain fired once or was cleared. */
  function disarm(chain: Chain): void {
    if (!chain.live) return;
    chain.armed--;
    if (chain.armed <= 0 && !chain.watched) letGo(chain);
  }
  /** Code of a timer chain sent a command: while its request holds the lock, the chain is a refresh loop. */
  function chainSent(c: Ctx | undefined): void {
    const chain = c?.chain;
    if (chain === undefined || !chain.live || !chain.watched || !holding.has(chain.tag)) return;
    if (chain.commands++ === 0) chain.frame = host.sandbox.frameOf(new Error());
  }
  /** The request took its lock: its chains armed now are watched. */
  function heldBy(tag: string): void {
    holding.add(tag);
    for (const chain of liveChains) if (chain.tag === tag && chain.armed > 0) chain.watched = true;
  }
  /** The request calls release: a refresh loop of it with no timer armed stopped while the lock was held. */
  function releasing(tag: string): void {
    if (!holding.delete(tag)) return;
    const ofTag = liveChains.filter((chain) => chain.tag === tag).sort((a, b) => a.since - b.since);
    for (const chain of ofTag) {
      if (chain.watched && chain.armed <= 0 && chain.commands > 0) {
        report('watchdog-stop', { name: 'LockRefreshStopped', message: 'a timer chain that refreshed the lock stopped re-arming while the lock was held' }, chain.frame);
      }
      letGo(chain);
    }
  }
  const setTimeoutSim = (fn: any, ms?: any, ...args: any[]): Timeout => addTimer(fn, ms, args, false); // lock-sim: wall-clock ok, the simulated timers user code sees
  const setIntervalSim = (fn: any, ms?: any, ...args: any[]): Timeout => addTimer(fn, ms, args, true); // lock-sim: wall-clock ok, the simulated timers user code sees
  const setImmediateSim = (fn: any, ...args: any[]): any => {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    const immediate = new Immediate(nextId++, args.length === 0 ? fn : () => fn(...args), ctx());
    immediates.push(immediate);
    return immediate;
  };
  // Node lib/timers.js clearImmediate: an Immediate; anything else is ignored.
  const clearImmediateSim = (i: any): void => { if (i instanceof Immediate) clearImmediate(i); };
  g.setTimeout = setTimeoutSim; // lock-sim: wall-clock ok (replaced by a simulated timer)
  g.setInterval = setIntervalSim; // lock-sim: wall-clock ok (replaced by a simulated timer)
  g.clearTimeout = clearTimer;
  g.clearInterval = clearTimer;
  g.setImmediate = setImmediateSim;
  g.clearImmediate = clearImmediateSim;
  // The microtask queue, drained after each step (user-code.ts runContinuations).
  const queueMicrotaskSim = (fn: any): void => { if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function'); void Promise.resolve().then(fn); };
  g.queueMicrotask = queueMicrotaskSim;
  /**
   * process.nextTick: on the microtask queue (Node runs its tick queue before
   * promise reactions; here both share one FIFO queue, so a tick set off inside a promise
   * continuation may run before reactions Node would have run first: docs/guides/own-code.md says so).
   */
  const nextTick = (fn: any, ...args: any[]): void => {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    void Promise.resolve().then(() => fn(...args));
  };
  g.global = g;
  Math.random = rand; // lock-sim: wall-clock ok (replaced by the process's seeded stream; the context's own Math)
  const randomFill = (buf: Uint8Array): Uint8Array => {
    const next = rng;
    for (let i = 0; i < buf.length; i++) buf[i] = Math.floor(next() * 256);
    return buf;
  };
  function report(kind: string, error: { message: string; name: string }, frame: string | null): void {
    actions.push({ kind: 'diagnostic', diagnostic: kind, error: { message: error.message, name: error.name, frame } });
  }
  const prims: GluePrims = {
    wallNow, monoNow, startedMs: () => startedMs, rand, randomFill,
    setTimeout: setTimeoutSim, setInterval: setIntervalSim, setImmediate: setImmediateSim, // lock-sim: wall-clock ok, the simulated timers
    clearTimeout: clearTimer, clearInterval: clearTimer, clearImmediate: clearImmediateSim,
    queueMicrotask: queueMicrotaskSim, nextTick,
    store: () => als.getStore(),
    runIn: (store, fn) => als.run(store, fn),
    report,
  };

  // ---- the ioredis-compatible client ----
  class ReplyError extends Error {
    constructor(message: string) {
      super(message);
      this.name = 'ReplyError';
    }
  }
  class MaxRetriesPerRequestError extends Error {
    constructor(message: string) {
      super(message);
      this.name = 'MaxRetriesPerRequestError';
    }
  }
  const sha1 = (s: string): string => hostCrypto.createHash('sha1').update(s).digest('hex');
  /** A command name as it goes out: each name upper-cased once, not a new string per command. */
  const upperNames = new Map<string, string>();
  const upperCase = (name: string): string => {
    let upper = upperNames.get(name);
    if (upper === undefined) upperNames.set(name, (upper = name.toUpperCase()));
    return upper;
  };
  const flatten = (args: any[]): string[] => {
    const out: string[] = [];
    for (const a of args) {
      // Strings first: most arguments are (and Buffer.isBuffer is a call into the host).
      if (typeof a === 'string') out.push(a);
      else if (Array.isArray(a)) out.push(...flatten(a));
      else if (a === undefined || a === null) out.push('');
      else if (Buffer.isBuffer(a)) out.push(a.toString());
      else if (typeof a === 'object') for (const [k, v] of Object.entries(a)) out.push(k, String(v));
      else out.push(String(a));
    }
    return out;
  };
  /**
   * A reply as user code gets it: its arrays this realm's own, an error inside one a
   * ReplyError (ioredis' parser gives an error element as its ReplyError). A reply comes from
   * the simulation, whose arrays belong to another realm: `reply instanceof Array` was false in
   * user code, and the array's constructor led to the host's Function. Strings and numbers
   * belong to no realm.
   */
  const realmReply = (r: any): any => {
    if (r === null || typeof r !== 'object') return r;
    if (Array.isArray(r)) {
      const out: any[] = [];
      for (let i = 0; i < r.length; i++) out.push(realmReply(r[i]));
      return out;
    }
    if ('__error' in r) return new ReplyError(r.__error);
    return r;
  };
  /** Plain data from the scenario (a factory's options) as this realm's objects and arrays. */
  const realmData = (v: any): any => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const x of v) out.push(realmData(x));
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[k] = realmData(v[k]);
    return out;
  };
  /** ioredis converts HGETALL's flat array into an object (lib/command.ts reply transformers). */
  const transforms: Record<string, (r: any) => any> = {
    hgetall: (r) => {
      if (!Array.isArray(r)) return r;
      const o: Record<string, any> = {};
      for (let i = 0; i < r.length; i += 2) o[r[i]] = r[i + 1];
      return o;
    },
  };

  /** ioredis 5.11.1 RedisOptions.ts DEFAULT_REDIS_OPTIONS.retryStrategy. */
  const defaultRetryStrategy = (times: number): number => Math.min(times * 50, 2000);
  /**
   * A client's options: ioredis 5.11.1's defaults of the options the simulated connection
   * reads, then `opts` over them (the keys in the order `{ ...defaults, ...opts }` gives). Made
   * from an object literal, whose hidden class V8 keeps with the literal's site, rather than by
   * a spread, whose class comes from an inline cache that V8 may reset between two processes
   * of a realm (measured on Node 20.20.2, the own-code twin: a process's options then had
   * another class than the last process's, and code the processes share deoptimized 16 times
   * in 20 runs; none with the literal).
   */
  const newOptions = (opts: any): any => {
    const o = { retryStrategy: defaultRetryStrategy, maxRetriesPerRequest: 20, enableOfflineQueue: true, reconnectOnError: null, autoResubscribe: true, failoverDetector: false };
    // Object.assign sets what a spread defines: the same but for an own `__proto__` key.
    return Object.prototype.hasOwnProperty.call(opts, '__proto__') ? { ...o, ...opts } : Object.assign(o, opts);
  };
  /** What the connection model reads of a client's options (user-thread.ts ClientConfig). */
  type Config = { maxRetries: number | null; offlineQueue: boolean; retry: string; failoverDetector: boolean };
  /** The last config made: a command whose options read the same gets it again (no object per command; the host only reads it). */
  let lastConfig: Config | null = null;
  const configOf = (o: any): Config => {
    // ioredis 5.11.1 event_handler.ts closeHandler: a number >= 0 limits the retries; null or negative does not.
    const maxRetries = typeof o.maxRetriesPerRequest === 'number' && o.maxRetriesPerRequest >= 0 ? o.maxRetriesPerRequest : null;
    const offlineQueue = Boolean(o.enableOfflineQueue);
    const retry = typeof o.retryStrategy !== 'function' ? 'none' : o.retryStrategy === defaultRetryStrategy ? 'default' : 'custom';
    const failoverDetector = Boolean(o.failoverDetector);
    const l = lastConfig;
    if (l !== null && l.maxRetries === maxRetries && l.offlineQueue === offlineQueue && l.retry === retry && l.failoverDetector === failoverDetector) return l;
    return (lastConfig = { maxRetries, offlineQueue, retry, failoverDetector });
  };
  /** The error ioredis fails a command with when the connection gave it up. */
  const connectionError = (message: string): Error =>
    message.startsWith('Reached the max retries per request limit') ? new MaxRetriesPerRequestError(message) : new Error(message);

  class SimRedis extends EventEmitter {
    status = 'ready';
    readonly options: any;
    private readonly scripts = new Map<string, { lua: string; numberOfKeys: number | null }>();
    private subscribed = new Set<string>();
    /** The client process's id (not named `client`: that is the CLIENT command's method). */
    readonly clientId: number;
    constructor(clientId: number, readonly conn: number, opts: any) {
      super();
      this.clientId = clientId;
      this.options = newOptions(opts);
      clients.get(clientId)?.instances.push(this);
    }
    /** ioredis `call(command, ...args)`. */
    call(name: string, ...args: any[]): Promise<any> {
      return this.callWithCallback(String(name).toLowerCase(), args);
    }
    private callWithCallback(name: string, args: any[]): Promise<any> {
      let cb: ((err: unknown, r?: any) => void) | null = null;
      if (args.length > 0 && typeof args[args.length - 1] === 'function') cb = args.pop();
      const p = this.sendCommand(name, flatten(args));
      if (cb) {
        const callback = cb;
        p.then((r) => callback(null, r), (e) => callback(e));
      }
      return p;
    }
    sendCommand(nameOrCommand: any, argsIn?: string[]): Promise<any> {
      // ioredis' sendCommand(new Command(name, args)): the command's own promise settles (lib/Redis.ts sendCommand).
      if (nameOrCommand !== null && typeof nameOrCommand === 'object' && typeof nameOrCommand.name === 'string') {
        const command = nameOrCommand;
        this.sendCommand(String(command.name).toLowerCase(), flatten(command.args ?? [])).then((r) => command.resolve?.(r), (e) => command.reject?.(e));
        return command.promise ?? Promise.resolve(undefined);
      }
      const name: string = nameOrCommand;
      const args: string[] = argsIn ?? [];
      const state = clients.get(this.clientId);
      nextId++; // a command takes a number of the counter that numbers timers (their ids user code sees), handles and subscribers
      const timeoutMs = typeof this.options.commandTimeout === 'number' ? this.options.commandTimeout : null;
      return new Promise((resolve, reject) => {
        if (!state?.alive) return; // the process is gone: nothing settles
        const done = (outcome: any): void => {
          if (outcome.status === 'ok') {
            if (outcome.error !== undefined) this.replyError(new ReplyError(outcome.error), name, args, resolve, reject);
            else resolve(transforms[name] ? transforms[name](realmReply(outcome.reply)) : realmReply(outcome.reply));
          } else if (outcome.status === 'timeout') {
            reject(new Error('Command timed out'));
          } else {
            reject(connectionError(outcome.message));
          }
        };
        const c = ctx();
        if (c !== undefined && c.chain !== undefined) chainSent(c);
        actions.push({ kind: 'cmd', done, client: this.clientId, conn: this.conn, args: [upperCase(name), ...args], timeoutMs, tag: c?.tag ?? selfName, cfg: configOf(this.options) });
      });
    }
    /**
     * ioredis 5.11.1 Redis.ts handleReconnection: `reconnectOnError(err)` (default null: the
     * error goes to the caller and the connection stays) answering 1 or true reconnects and
     * fails the command, 2 reconnects and sends the command again.
     */
    private replyError(err: Error, name: string, args: string[], resolve: (v: any) => void, reject: (e: any) => void): void {
      const decide = this.options.reconnectOnError;
      const answer = typeof decide === 'function' ? decide(err) : false;
      if (answer === 1 || answer === true || answer === 2) actions.push({ kind: 'reconnect', client: this.clientId, conn: this.conn });
      if (answer === 2) this.sendCommand(name, args).then(resolve, reject);
      else reject(err);
    }
    /** A transaction's commands, run by the server as MULTI ... EXEC; resolves to { exec, queued } (realm replies: an error a ReplyError). */
    sendBatch(commands: string[][]): Promise<any> {
      const state = clients.get(this.clientId);
      nextId++; // a command takes a number of the counter that numbers timers (their ids user code sees), handles and subscribers
      const timeoutMs = typeof this.options.commandTimeout === 'number' ? this.options.commandTimeout : null;
      return new Promise((resolve, reject) => {
        if (!state?.alive) return;
        const done = (outcome: any): void => {
          if (outcome.status === 'ok') resolve({ exec: realmReply(outcome.reply.exec), queued: realmReply(outcome.reply.queued) });
          else if (outcome.status === 'timeout') reject(new Error('Command timed out'));
          else reject(connectionError(outcome.message));
        };
        const c = ctx();
        if (c !== undefined && c.chain !== undefined) chainSent(c);
        actions.push({ kind: 'batch', done, client: this.clientId, conn: this.conn, commands, timeoutMs, tag: c?.tag ?? selfName, cfg: configOf(this.options) });
      });
    }
    /** `script('load', lua)` and friends go out as SCRIPT <sub> ... */
    script(sub: string, ...args: any[]): Promise<any> {
      return this.callWithCallback('script', [sub, ...args]);
    }
    /** ioredis defineCommand: EVALSHA first, EVAL when the server answers NOSCRIPT (lib/Script.ts). */
    defineCommand(name: string, def: { lua: string; numberOfKeys?: number }): void {
      const lua = def.lua;
      const hash = sha1(lua);
      const fixedKeys = typeof def.numberOfKeys === 'number' ? def.numberOfKeys : null;
      this.scripts.set(name, { lua, numberOfKeys: fixedKeys });
      (this as any)[name] = (...raw: any[]) => {
        let cb: any = null;
        if (raw.length > 0 && typeof raw[raw.length - 1] === 'function') cb = raw.pop();
        const args = flatten(raw);
        const tail = fixedKeys === null ? args : [String(fixedKeys), ...args];
        const p = this.sendCommand('evalsha', [hash, ...tail]).catch((e: Error) => {
          if (String(e.message).startsWith('NOSCRIPT')) return this.sendCommand('eval', [lua, ...tail]);
          throw e;
        });
        if (cb) p.then((r: any) => cb(null, r), (e: any) => cb(e));
        return p;
      };
    }
    multi(): any {
      return new Pipeline(this, true);
    }
    pipeline(): any {
      return new Pipeline(this, false);
    }
    subscribe(...channels: any[]): Promise<number> {
      let cb: any = null;
      if (typeof channels[channels.length - 1] === 'function') cb = channels.pop();
      for (const c of flatten(channels)) {
        if (this.subscribed.has(c)) continue;
        this.subscribed.add(c);
        actions.push({ kind: 'subscribe', client: this.clientId, conn: this.conn, channel: c, sub: subscriberId(this) });
      }
      // Confirmed after a round trip, like the built-in clients' SUBSCRIBE.
      const p = this.sendCommand('ping', []).then(() => this.subscribed.size);
      if (cb) p.then((n) => cb(null, n), (e) => cb(e));
      return p;
    }
    unsubscribe(...channels: any[]): Promise<number> {
      const list = channels.length === 0 ? [...this.subscribed] : flatten(channels);
      for (const c of list) {
        if (!this.subscribed.delete(c)) continue;
        actions.push({ kind: 'unsubscribe', client: this.clientId, sub: subscriberId(this), channel: c });
      }
      return Promise.resolve(this.subscribed.size);
    }
    duplicate(): SimRedis {
      return new SimRedis(this.clientId, this.conn, this.options);
    }
    quit(): Promise<string> {
      this.status = 'end';
      return Promise.resolve('OK');
    }
    disconnect(): void {
      this.status = 'end';
    }
    connect(): Promise<void> {
      return Promise.resolve();
    }
  }
  let subscribers = new Map<number, SimRedis>();
  let subscriberIds = new WeakMap<SimRedis, number>();
  function subscriberId(r: SimRedis): number {
    let id = subscriberIds.get(r);
    if (id === undefined) {
      id = nextId++;
      subscriberIds.set(r, id);
      subscribers.set(id, r);
    }
    return id;
  }

  /** MULTI/EXEC and pipelines: the commands written back to back; exec answers [[err, reply], ...]. */
  class Pipeline {
    private readonly queued: Array<{ name: string; args: string[] }> = [];
    constructor(private readonly redis: SimRedis, private readonly transaction: boolean) {}
    /** Queues one command (the methods installed from COMMANDS call it). */
    queue(name: string, args: any[]): this {
      this.queued.push({ name, args: flatten(args) });
      return this;
    }
    exec(cb?: any): Promise<any> {
      let p: Promise<any>;
      if (this.transaction) {
        // MULTI ... EXEC: the commands run together on the server, one reply per command.
        // ioredis 5.11.1 transaction.ts execAndUnwrap: EXEC's error (EXECABORT) rejects, with
        // the queued commands' errors as `previousErrors`; else [[err, reply], ...].
        const isError = (r: any): boolean => r instanceof ReplyError;
        p = this.redis.sendBatch(this.queued.map((c) => [c.name.toUpperCase(), ...c.args])).then(({ exec, queued }: { exec: any; queued: any[] }) => {
          if (isError(exec)) {
            const err: any = exec;
            err.previousErrors = queued.filter(isError);
            throw err;
          }
          return (exec as any[]).map((r, i) => (isError(r) ? [r, null] : [null, transforms[this.queued[i].name] ? transforms[this.queued[i].name](r) : r]));
        });
      } else {
        p = Promise.all(this.queued.map((c) => this.redis.sendCommand(c.name, c.args).then((r) => [null, r], (e) => [e, null])));
      }
      if (cb) p.then((r) => cb(null, r), (e) => cb(e));
      return p;
    }
  }

  /**
   * The command methods ioredis 5.11.1 defines (utils/Commander.ts: one per name of
   * @ioredis/commands 1.10.0, its `list`; test/own-code checks this list against it), but for
   * PSUBSCRIBE / PUNSUBSCRIBE / SSUBSCRIBE / SUNSUBSCRIBE / MONITOR, whose messages this client
   * does not deliver: calling them fails (not a function) rather than losing messages silently.
   * A command the Redis model does not know answers Redis's unknown-command error.
   */
  const COMMANDS = [
    'vadd', 'vcard', 'vdim', 'vemb', 'vgetattr', 'vinfo', 'vismember', 'vlinks', 'vrandmember', 'vrange', 'vrem', 'vsetattr', 'vsim', 'acl',
    'append', 'arcount', 'ardel', 'ardelrange', 'arget', 'argetrange', 'argrep', 'arinfo', 'arinsert', 'arlastitems', 'arlen', 'armget',
    'armset', 'arnext', 'arop', 'arring', 'arscan', 'arseek', 'arset', 'asking', 'auth', 'bgrewriteaof', 'bgsave', 'bitcount', 'bitfield',
    'bitfield_ro', 'bitop', 'bitpos', 'blmove', 'blmpop', 'blpop', 'brpop', 'brpoplpush', 'bzmpop', 'bzpopmax', 'bzpopmin', 'client',
    'cluster', 'command', 'config', 'copy', 'dbsize', 'debug', 'decr', 'decrby', 'del', 'discard', 'dump', 'echo', 'eval', 'eval_ro',
    'evalsha', 'evalsha_ro', 'exec', 'exists', 'expire', 'expireat', 'expiretime', 'failover', 'fcall', 'fcall_ro', 'flushall', 'flushdb',
    'function', 'geoadd', 'geodist', 'geohash', 'geopos', 'georadius', 'georadius_ro', 'georadiusbymember', 'georadiusbymember_ro',
    'geosearch', 'geosearchstore', 'get', 'getbit', 'getdel', 'getex', 'getrange', 'getset', 'hdel', 'hello', 'hexists', 'hexpire',
    'hexpireat', 'hexpiretime', 'hget', 'hgetall', 'hgetdel', 'hgetex', 'hincrby', 'hincrbyfloat', 'hkeys', 'hlen', 'hmget', 'hmset',
    'hpersist', 'hpexpire', 'hpexpireat', 'hpexpiretime', 'hpttl', 'hrandfield', 'hscan', 'hset', 'hsetex', 'hsetnx', 'hstrlen', 'httl',
    'hvals', 'incr', 'incrby', 'incrbyfloat', 'increx', 'info', 'keys', 'lastsave', 'latency', 'lcs', 'lindex', 'linsert', 'llen', 'lmove',
    'lmpop', 'lolwut', 'lpop', 'lpos', 'lpush', 'lpushx', 'lrange', 'lrem', 'lset', 'ltrim', 'memory', 'mget', 'migrate', 'module', 'move',
    'mset', 'msetex', 'msetnx', 'multi', 'object', 'persist', 'pexpire', 'pexpireat', 'pexpiretime', 'pfadd', 'pfcount', 'pfdebug',
    'pfmerge', 'pfselftest', 'ping', 'psetex', 'psync', 'pttl', 'publish', 'pubsub', 'quit', 'randomkey', 'readonly', 'readwrite', 'rename',
    'renamenx', 'replconf', 'replicaof', 'reset', 'restore', 'restore-asking', 'role', 'rpop', 'rpoplpush', 'rpush', 'rpushx', 'sadd',
    'save', 'scan', 'scard', 'script', 'sdiff', 'sdiffstore', 'select', 'set', 'setbit', 'setex', 'setnx', 'setrange', 'shutdown', 'sinter',
    'sintercard', 'sinterstore', 'sismember', 'slaveof', 'slowlog', 'smembers', 'smismember', 'smove', 'sort', 'sort_ro', 'spop',
    'spublish', 'srandmember', 'srem', 'sscan', 'strlen', 'subscribe', 'substr', 'sunion', 'sunionstore', 'swapdb', 'sync', 'time', 'touch',
    'ttl', 'type', 'unlink', 'unsubscribe', 'unwatch', 'wait', 'watch', 'xack', 'xadd', 'xautoclaim', 'xclaim', 'xdel', 'xdelex', 'xgroup',
    'xinfo', 'xlen', 'xnack', 'xpending', 'xrange', 'xread', 'xreadgroup', 'xrevrange', 'xsetid', 'xtrim', 'zadd', 'zcard', 'zcount',
    'zdiff', 'zdiffstore', 'zincrby', 'zinter', 'zintercard', 'zinterstore', 'zlexcount', 'zmpop', 'zmscore', 'zpopmax', 'zpopmin',
    'zrandmember', 'zrange', 'zrangebylex', 'zrangebyscore', 'zrangestore', 'zrank', 'zrem', 'zremrangebylex', 'zremrangebyrank',
    'zremrangebyscore', 'zrevrange', 'zrevrangebylex', 'zrevrangebyscore', 'zrevrank', 'zscan', 'zscore', 'zunion', 'zunionstore',
  ];
  /**
   * Every command as a method, lowercase and uppercase, on a prototype of its own between a
   * class's prototype and its base, as ioredis 5.11.1 keeps them on Commander.prototype
   * (lib/Redis.ts: `class Redis extends Commander`): one definition per class, not one closure
   * per connection or pipeline, and a method of the class itself (multi, subscribe, quit, exec,
   * ...) shadows the command of its name, and the command does not shadow a member of the
   * base (EventEmitter's, Object's). The prototype is filled while it is a plain object,
   * then put into the chain: measured on Node 20.20.2, adding the 1,300 methods one by one to
   * a class's prototype took 35-50 ms of each realm's creation (V8 copies an object's map at
   * each property added once it serves as a prototype), filling a plain object about 1 ms.
   * Methods, as the classes' own are: no `prototype` object each (the context watch,
   * context-watch.ts, would walk about 650 such functions and their prototypes at the end of
   * every run), and frozen, so that no process leaves a mark on one for the next process of
   * its context.
   */
  function commandsUnder(cls: { prototype: object }, method: (name: string) => (...args: any[]) => unknown): object {
    const base = Object.getPrototypeOf(cls.prototype) as object;
    const commands: Record<string, unknown> = {};
    for (const name of COMMANDS) {
      const m = Object.freeze(method(name));
      // A name the base already answers (EventEmitter's, Object's) keeps the base's member.
      for (const key of [name, name.toUpperCase()]) if (!(key in base)) commands[key] = m;
    }
    Object.setPrototypeOf(commands, base);
    Object.setPrototypeOf(cls.prototype, commands);
    return commands;
  }
  const clientCommands = commandsUnder(SimRedis, (name) => ({ [name](this: any, ...args: any[]) { return this.callWithCallback(name, args); } })[name]);
  const pipelineCommands = commandsUnder(Pipeline, (name) => ({ [name](this: Pipeline, ...args: any[]) { return this.queue(name, args); } })[name]);

  /** The clients a factory receives: ioredis-compatible, or node-redis (v5, or v4 with 'node-redis@4') over them. */
  function clientsOfFamily(client: number, connections: number, family: string | undefined): any[] {
    if (family === 'node-redis' || family === 'node-redis@5' || family === 'node-redis@4') {
      const make = host.nodeRedisMain({ EventEmitter, transport: (conn) => new SimRedis(client, conn, {}), flatten, isReplyError: (r): r is Error => r instanceof ReplyError });
      return Array.from({ length: connections }, (_, i) => make(i, family === 'node-redis@4' ? 4 : 5));
    }
    return Array.from({ length: connections }, (_, i) => new SimRedis(client, i, {}));
  }

  // ---- running user code ----
  const inClient = <T>(client: ClientState | undefined, tag: string, fn: () => T): T =>
    client ? als.run({ client: client.id, tag }, fn) : fn();

  function describe(err: unknown): { message: string; name: string; timeout: boolean; frame: string | null } {
    const e = err as any;
    let message: string;
    let name: string;
    try {
      message = e && typeof e.message === 'string' ? e.message : String(err);
      name = e && typeof e.name === 'string' ? e.name : 'Error';
    } catch {
      message = 'an unprintable value';
      name = 'Error';
    }
    return { message, name, timeout: message === 'Command timed out', frame: host.sandbox.frameOf(err) };
  }

  /** The factory from the module user-code.ts loaded into this context. */
  function loadFactory(exportName: string): any {
    if (mailbox.loadError !== null) throw mailbox.loadError;
    const mod = mailbox.namespace as Record<string, unknown>;
    if (!(exportName in mod)) {
      const names = Object.keys(mod).filter((k) => k !== 'default');
      throw Object.assign(new Error(`the module has no export "${exportName}"${names.length > 0 ? ` (it exports ${names.join(', ')})` : ''}`), { code: 'no-export' });
    }
    const f = mod[exportName];
    if (typeof f !== 'function') throw Object.assign(new Error(`export "${exportName}" is a ${typeof f}, not a factory function (clients, options) => { acquire, release }`), { code: 'shape' });
    return f;
  }

  function checkShape(lock: any): void {
    if (!lock || typeof lock.acquire !== 'function' || typeof lock.release !== 'function') {
      const got = lock === null || lock === undefined ? String(lock) : `an object with ${Object.keys(lock).join(', ') || 'no keys'}`;
      throw Object.assign(new Error(`the factory returned ${got}; it must return { acquire(key), release(handle) }`), { code: 'shape' });
    }
  }

  function settle(call: number, client: ClientState, p: Promise<any>, kind: 'acquire' | 'release', tag: string): void {
    p.then(
      (value) => {
        if (!client.alive) return;
        if (kind === 'release') {
          actions.push({ kind: 'settled', call, ok: true, value: value === true });
          return;
        }
        if (value === null || value === undefined || value === false) {
          actions.push({ kind: 'settled', call, ok: true, value: null });
          return;
        }
        const handle = nextId++;
        client.handles.set(handle, value);
        heldBy(tag);
        actions.push({ kind: 'settled', call, ok: true, value: handle });
      },
      (err) => {
        if (!client.alive) return;
        actions.push({ kind: 'settled', call, ok: false, error: describe(err) });
      },
    );
  }

  function handle(msg: any): any {
    switch (msg.op) {
      case 'reply': {
        // A command's continuation travels with the command and comes back with its reply.
        if (!killed) msg.done(msg.outcome);
        return null;
      }
      case 'fire': {
        const t = msg.timer as TimerRecord;
        if (!t.active || t.run !== runId) return null;
        if (t.interval === null) {
          t.active = false;
          knownTimersById.delete(t.id);
          disarm(t.chain);
        } else {
          actions.push({ kind: 'timer', timer: t, client: selfId, ms: t.interval });
        }
        // The callback and its continuations carry the chain: a timer they arm re-arms it.
        const base = t.ctx ?? selfCtx;
        runUser(base.chain === t.chain ? base : { client: base.client, tag: base.tag, user: base.user, chain: t.chain }, t.fn);
        return null;
      }
      case 'acquire':
      case 'release': {
        const client = clients.get(msg.client);
        if (!client) return null;
        const h = msg.op === 'release' ? client.handles.get(msg.handle) : undefined;
        if (msg.op === 'release') {
          client.handles.delete(msg.handle);
          releasing(msg.tag);
        }
        inClient(client, msg.tag, () => {
          // A throw inside acquire/release (sync or async) settles the call as failed.
          const p = client.ready.then((lock) => (msg.op === 'acquire' ? lock.acquire(msg.key) : lock.release(h ?? null, msg.key)));
          settle(msg.call, client, p, msg.op, msg.tag);
        });
        return null;
      }
      default:
        return handleRare(msg);
    }
  }

  /** The messages that come once a process or once in a while: kept out of `handle`, which V8 compiles for the frequent ones. */
  function handleRare(msg: any): any {
    switch (msg.op) {
      case 'probe': {
        // Calls the factory once with clients that never answer; 'probe-result' reads the
        // outcome after the drain. A factory that waits for Redis never gets an answer here:
        // its shape is checked at the run.
        probeOutcome = null;
        try {
          const f = loadFactory(msg.exportName);
          const probeClient: ClientState = { id: -2, name: 'probe', alive: false, ready: Promise.resolve(null), handles: new Map(), redis: [], instances: [] };
          clients.set(-2, probeClient);
          const redis = clientsOfFamily(-2, msg.connections, msg.family);
          Promise.resolve(inClient(probeClient, 'probe', () => f(redis, realmData(msg.options)))).then((lock) => { probeOutcome = { lock }; }, (err) => { probeOutcome = { err }; });
          return null;
        } catch (err) {
          probeOutcome = { err };
          return null;
        }
      }
      case 'probe-result': {
        clients.delete(-2);
        runId += 1; // the probe's timers never fire
        knownTimersById.clear();
        letGoAll();
        const o = probeOutcome as { lock?: any; err?: unknown } | null;
        try {
          if (o && 'err' in o) throw o.err;
          if (o) checkShape(o.lock);
          return { ok: true };
        } catch (err) {
          const e = err as any;
          // Located at its first user-code frame (a TypeScript refusal: its line and column in the .ts file).
          const d = describe(err);
          return { ok: false, code: e?.code ?? 'throws', message: d.frame === null ? d.message : `${d.message} (at ${d.frame})` };
        }
      }
      case 'client': {
        // The process starts: user-code.ts loaded the module into this realm just before.
        const client: ClientState = {
          id: msg.client, name: msg.name, alive: true,
          ready: Promise.resolve(null), handles: new Map(), redis: [], instances: [],
        };
        clients.set(client.id, client);
        client.redis = clientsOfFamily(client.id, msg.connections, msg.family);
        client.ready = inClient(client, client.name, () => {
          try {
            const factory = loadFactory(msg.exportName);
            return Promise.resolve(factory(client.redis, realmData(msg.options))).then((lock) => {
              checkShape(lock);
              return lock;
            });
          } catch (err) {
            return Promise.reject(err);
          }
        });
        client.ready.catch(() => undefined);
        return null;
      }
      case 'status': {
        // ioredis 5.11.1 Redis.ts setStatus: the status, then an event of that name.
        const c = clients.get(msg.client);
        if (!c?.alive) return null;
        for (const r of c.instances) {
          if (r.conn !== msg.conn || r.status === 'end') continue;
          r.status = msg.status;
          inClient(c, c.name, () => {
            try {
              if (msg.status === 'reconnecting') r.emit('reconnecting', msg.arg);
              else r.emit(msg.status);
            } catch (err) {
              report('uncaught', describe(err), describe(err).frame);
            }
          });
        }
        return null;
      }
      case 'retry': {
        // The user's retryStrategy, called as ioredis' closeHandler calls it.
        const c = clients.get(msg.client);
        const r = c?.redis[msg.conn];
        if (!c?.alive || !r) return { delay: null };
        let delay: unknown = null;
        inClient(c, c.name, () => {
          try {
            delay = r.options.retryStrategy(msg.times);
          } catch (err) {
            report('uncaught', describe(err), describe(err).frame);
          }
        });
        return { delay: typeof delay === 'number' ? delay : null };
      }
      case 'message': {
        const sub = subscribers.get(msg.sub);
        if (!sub) return null;
        const c = clients.get(sub.clientId);
        if (!c?.alive) return null;
        inClient(c, c.name, () => {
          try {
            sub.emit('message', msg.channel, msg.message);
          } catch (err) {
            report('uncaught', describe(err), describe(err).frame);
          }
        });
        return null;
      }
      case 'kill': {
        // kill -9: nothing of this process runs again (its realm serves a later process only after the run).
        const c = clients.get(msg.client);
        if (c) c.alive = false;
        runId += 1; // its timers never fire
        knownTimersById.clear();
        letGoAll();
        holding.clear();
        immediates = [];
        killed = true;
        return null;
      }
      default:
        return null;
    }
  }

  function runUser(c: Ctx | undefined, fn: () => void): void {
    const client = clients.get(selfId);
    if (client !== undefined && !client.alive) return;
    als.run(c ?? selfCtx, () => {
      try {
        fn();
      } catch (err) {
        const d = describe(err);
        report('uncaught', d, d.frame);
      }
    });
  }

  /** Our immediates, in the order set, each with the client that set it. */
  function runImmediates(): void {
    const batch = immediates;
    immediates = [];
    for (const im of batch) runImmediate(im);
  }

  return {
    prims,
    step(): void {
      const msg = mailbox.msg as any;
      if (msg === null) {
        runImmediates();
        return;
      }
      mailbox.msg = null;
      try {
        mailbox.result = handle(msg);
      } catch (err) {
        mailbox.result = { ok: false, message: describe(err).message };
      }
    },
    pending: () => immediates.length > 0,
    takeActions(): any[] {
      const out = actions;
      actions = [];
      return out;
    },
    reset(seed: number, client: number, name: string): void {
      // Everything a process leaves behind, as a fresh context has it: ids from 1, no clients,
      // timers, immediates, waiting commands or subscribers.
      clients = new Map();
      selfId = client;
      selfName = name;
      selfCtx = { client, tag: name };
      actions = [];
      nextId = 1;
      runId += 1;
      simMs = 0;
      startedMs = 0;
      probeOutcome = null;
      rng = mulberry(seed);
      killed = false;
      knownTimersById = new Map();
      letGoAll();
      holding = new Set();
      immediates = [];
      lastConfig = null;
      subscribers = new Map();
      subscriberIds = new WeakMap();
    },
    at(ms: number): void {
      simMs = ms;
      startedMs = monoNow();
    },
    inProcess: (fn) => als.run(selfCtx, fn),
    describe,
    watched: [prims, Timeout.prototype, Immediate.prototype, SimRedis, SimRedis.prototype, clientCommands, Pipeline.prototype, pipelineCommands, ReplyError, ReplyError.prototype, MaxRetriesPerRequestError, MaxRetriesPerRequestError.prototype],
  };
}
