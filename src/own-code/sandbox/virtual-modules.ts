/**
 * The builtin modules a realm gets its own version of (builtins.ts says which). Each builder
 * returns a view with every export of Node 20's module as an own, enumerable property (so
 * named imports work); each export is replaced by a simulated one, passed through as the
 * host's (listed in the builder's `pure`), or refused. test/own-code/sandbox.test.ts checks
 * every export of every such module is one of the three.
 */
import { createRequire } from 'node:module';
import { WHY, type SandboxEnv } from './env.js';
import { PROCESS_MEMBERS } from './process.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const hostRequire = createRequire(import.meta.url);

export interface ViewContext {
  env: SandboxEnv;
  /** The realm's process and console, its global crypto and performance (one object each per realm). */
  process: any;
  console: any;
  webcrypto: any;
  performance: any;
  /** `require` for code in `file` (module.createRequire). */
  requireFrom(file: string): any;
  /** Whether `path` may be read now (while loading, files next to the module and its packages). */
  readable(path: string): boolean;
  /** Another builtin's view (a module that re-exports one: timers.promises, util of sys). */
  view(name: string): any;
}

interface VirtualModule {
  /** Exports of the host module passed through as they are (a list, or a test of the name). */
  pure: readonly string[] | ((key: string) => boolean);
  build(v: ViewContext, host: any): Record<string, unknown>;
}

/** The realm's AbortError (Node's: name AbortError, code ABORT_ERR). */
function abortError(env: SandboxEnv, signal: any): Error {
  const err = new env.intrinsics.Error('The operation was aborted', signal?.reason !== undefined ? { cause: signal.reason } : undefined);
  err.name = 'AbortError';
  (err as any).code = 'ABORT_ERR';
  return err;
}

/** A promise of the realm resolved after `ms` of the client's clock (timers/promises setTimeout). lock-sim: wall-clock ok */
function sleep(env: SandboxEnv, ms: unknown, value: unknown, options: any, immediate: boolean): Promise<unknown> {
  const { Promise } = env.intrinsics;
  const signal = options?.signal;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(env, signal));
      return;
    }
    let t: unknown = null;
    const onAbort = (): void => {
      if (immediate) env.prims.clearImmediate(t);
      else env.prims.clearTimeout(t);
      reject(abortError(env, signal));
    };
    t = immediate
      ? env.prims.setImmediate(() => { signal?.removeEventListener?.('abort', onAbort); resolve(value); })
      : env.prims.setTimeout(() => { signal?.removeEventListener?.('abort', onAbort); resolve(value); }, ms); // lock-sim: wall-clock ok, the simulated timer
    signal?.addEventListener?.('abort', onAbort, { once: true });
  });
}

/** A callback-style call computed now with its synchronous twin, its callback run as an immediate of the process. */
function viaImmediate(env: SandboxEnv, sync: (...a: any[]) => unknown): (...a: any[]) => void {
  return (...args: any[]) => {
    const cb = args.pop();
    if (typeof cb !== 'function') throw new env.intrinsics.TypeError('The "callback" argument must be of type function');
    let result: unknown;
    try {
      result = sync(...args);
    } catch (err) {
      env.prims.setImmediate(() => cb(err));
      return;
    }
    env.prims.setImmediate(() => cb(null, result));
  };
}

const timersPromises: VirtualModule = {
  pure: [],
  build: ({ env }) => {
    const setTimeout = (ms?: unknown, value?: unknown, options?: unknown) => sleep(env, ms, value, options, false); // lock-sim: wall-clock ok, the simulated timer
    const setImmediate = (value?: unknown, options?: unknown) => sleep(env, 0, value, options, true);
    const setInterval = (ms?: unknown, value?: unknown, options?: any) => { // lock-sim: wall-clock ok, the simulated timer
      // An async iterator yielding `value` every `ms`; ticks that fall due while nobody waits are counted, as Node does.
      let pending = 0;
      let waiter: ((r: IteratorResult<unknown>) => void) | null = null;
      let done = false;
      const t = env.prims.setInterval(() => { // lock-sim: wall-clock ok, the simulated timer
        if (waiter) {
          const w = waiter;
          waiter = null;
          w({ value, done: false });
        } else pending += 1;
      }, ms);
      const stop = (): void => {
        done = true;
        env.prims.clearInterval(t);
      };
      options?.signal?.addEventListener?.('abort', stop, { once: true });
      const it = {
        next: (): Promise<IteratorResult<unknown>> => {
          const { Promise } = env.intrinsics;
          if (done) return Promise.resolve({ value: undefined, done: true });
          if (pending > 0) {
            pending -= 1;
            return Promise.resolve({ value, done: false });
          }
          return new Promise((resolve) => { waiter = resolve; });
        },
        return: (): Promise<IteratorResult<unknown>> => {
          stop();
          return env.intrinsics.Promise.resolve({ value: undefined, done: true });
        },
        [Symbol.asyncIterator]() { return it; },
      };
      return it;
    };
    const scheduler = { wait: (ms: unknown, options?: unknown) => setTimeout(ms, undefined, options), yield: () => setImmediate() }; // lock-sim: wall-clock ok, the simulated timers
    return { setTimeout, setImmediate, setInterval, scheduler }; // lock-sim: wall-clock ok, the simulated timers
  },
};

const timers: VirtualModule = {
  pure: [],
  build: ({ env, view }) => {
    const p = env.prims;
    const refused = (call: string) => env.refuser('timers', call, 'a deprecated internal of Node\'s timers; use setTimeout'); // lock-sim: wall-clock ok (names the function)
    return {
      setTimeout: p.setTimeout, setInterval: p.setInterval, setImmediate: p.setImmediate, // lock-sim: wall-clock ok, the simulated timers
      clearTimeout: p.clearTimeout, clearInterval: p.clearInterval, clearImmediate: p.clearImmediate,
      _unrefActive: refused('_unrefActive()'), active: refused('active()'), unenroll: refused('unenroll()'), enroll: refused('enroll()'),
      promises: view('timers/promises'),
    };
  },
};

const CRYPTO_PURE = [
  'checkPrimeSync', 'createCipheriv', 'createDecipheriv', 'createHash', 'createHmac', 'createPrivateKey', 'createPublicKey',
  'createSecretKey', 'createSign', 'createVerify', 'diffieHellman', 'getCiphers', 'getCipherInfo', 'getCurves', 'getHashes',
  'hkdfSync', 'pbkdf2Sync', 'privateDecrypt', 'privateEncrypt', 'publicDecrypt', 'scryptSync', 'timingSafeEqual', 'getFips',
  'hash', 'Certificate', 'Cipher', 'Cipheriv', 'Decipher', 'Decipheriv', 'Hash', 'Hmac', 'KeyObject', 'Sign', 'Verify',
  'X509Certificate', 'secureHeapUsed', 'createCipher', 'createDecipher', 'constants', 'fips',
];

const crypto: VirtualModule = {
  pure: CRYPTO_PURE,
  build: ({ env, webcrypto }, host) => {
    const refused = (call: string) => env.refuser('crypto', call, `${WHY.nondeterministic}: it draws its own randomness`);
    const randomBytes = (size: number, cb?: any): any => {
      const buf = Buffer.alloc(size);
      env.prims.randomFill(buf);
      if (typeof cb === 'function') {
        env.prims.setImmediate(() => cb(null, buf));
        return undefined;
      }
      return buf;
    };
    const fillSync = (buf: any, offset = 0, size?: number): any => {
      const bytes = ArrayBuffer.isView(buf) ? new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) : new Uint8Array(buf);
      const end = size === undefined ? bytes.length : offset + size;
      env.prims.randomFill(bytes.subarray(offset, end));
      return buf;
    };
    const randomFill = (buf: any, ...rest: any[]): void => {
      const cb = rest.pop();
      fillSync(buf, rest[0], rest[1]);
      env.prims.setImmediate(() => cb(null, buf));
    };
    /** crypto.randomInt([min,] max[, cb]): uniform in [min, max), by rejection as Node does. */
    const randomInt = (a: number, b?: any, c?: any): any => {
      let min = 0;
      let max = a;
      let cb = typeof b === 'function' ? b : c;
      if (typeof b === 'number') {
        min = a;
        max = b;
      }
      if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min) throw new env.intrinsics.RangeError(`The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
      const range = max - min;
      const n = min + Math.floor(env.prims.rand() * range);
      if (typeof cb === 'function') {
        env.prims.setImmediate(() => cb(null, n));
        return undefined;
      }
      cb = null;
      return n;
    };
    const async = (name: string) => viaImmediate(env, host[`${name}Sync`]);
    const view: Record<string, unknown> = {};
    for (const key of CRYPTO_PURE) view[key] = host[key];
    Object.assign(view, {
      randomBytes, pseudoRandomBytes: randomBytes, prng: randomBytes, rng: randomBytes,
      randomFillSync: fillSync, randomFill, randomInt, randomUUID: webcrypto.randomUUID,
      getRandomValues: webcrypto.getRandomValues, webcrypto, subtle: webcrypto.subtle,
      pbkdf2: async('pbkdf2'), scrypt: async('scrypt'), hkdf: async('hkdf'), checkPrime: async('checkPrime'),
      sign: (alg: any, data: any, key: any, cb?: any) => (typeof cb === 'function' ? viaImmediate(env, host.sign)(alg, data, key, cb) : host.sign(alg, data, key)),
      verify: (alg: any, data: any, key: any, sig: any, cb?: any) => (typeof cb === 'function' ? viaImmediate(env, host.verify)(alg, data, key, sig, cb) : host.verify(alg, data, key, sig)),
      setEngine: env.refuser('crypto', 'setEngine()', WHY.host), setFips: env.refuser('crypto', 'setFips()', WHY.host),
    });
    for (const name of ['generatePrime', 'generatePrimeSync', 'generateKeyPair', 'generateKeyPairSync', 'generateKey', 'generateKeySync', 'createDiffieHellman', 'createDiffieHellmanGroup', 'createECDH', 'getDiffieHellman', 'DiffieHellman', 'DiffieHellmanGroup', 'ECDH', 'publicEncrypt']) {
      view[name] = refused(`${name}()`);
    }
    return view;
  },
};

/** A simulated machine's figures: each client process its own host (its name), the same in every run. */
const os: VirtualModule = {
  pure: ['arch', 'platform', 'endianness', 'constants', 'EOL', 'devNull'],
  build: ({ env, process }) => {
    const cpu = { model: 'lock-sim simulated CPU', speed: 2000, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } };
    return {
      hostname: () => env.who().name,
      uptime: () => Math.floor(process.uptime()),
      loadavg: () => [0, 0, 0],
      freemem: () => 8 * 2 ** 30,
      totalmem: () => 16 * 2 ** 30,
      availableParallelism: () => 2,
      cpus: () => [{ ...cpu, times: { ...cpu.times } }, { ...cpu, times: { ...cpu.times } }],
      networkInterfaces: () => ({ lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }] }),
      userInfo: () => ({ uid: 1000, gid: 1000, username: 'node', homedir: '/srv/node', shell: '/bin/sh' }),
      homedir: () => '/srv/node',
      tmpdir: () => '/var/tmp',
      type: () => 'Linux',
      release: () => '6.1.0-lock-sim',
      version: () => '#1 SMP lock-sim',
      machine: () => 'x86_64',
      getPriority: () => 0,
      setPriority: env.refuser('os', 'setPriority()', WHY.process),
    };
  },
};

const perfHooks: VirtualModule = {
  pure: ['Performance', 'PerformanceEntry', 'PerformanceObserverEntryList', 'PerformanceResourceTiming', 'createHistogram', 'constants'],
  build: ({ env, performance }) => ({
    performance,
    PerformanceMark: env.refuser('perf_hooks', 'new PerformanceMark()', `${WHY.nondeterministic}: it reads the host's clock; use performance.mark()`),
    PerformanceMeasure: env.refuser('perf_hooks', 'new PerformanceMeasure()', `${WHY.nondeterministic}: it reads the host's clock; use performance.measure()`),
    PerformanceObserver: env.refuser('perf_hooks', 'PerformanceObserver', WHY.eventLoop),
    monitorEventLoopDelay: env.refuser('perf_hooks', 'monitorEventLoopDelay()', `${WHY.eventLoop}; ${WHY.nondeterministic}`),
  }),
};

/** The realm's `performance`: marks and measures on the client's monotonic clock. */
export function makePerformance(env: SandboxEnv, timeOrigin: number): Record<string, unknown> {
  const entries: Array<{ name: string; entryType: string; startTime: number; duration: number; detail: unknown }> = [];
  const now = (): number => env.prims.monoNow();
  const pick = (type: string, name?: string) => entries.filter((e) => e.entryType === type && (name === undefined || e.name === name));
  const clear = (type: string) => (name?: string): void => {
    for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === type && (name === undefined || entries[i].name === name)) entries.splice(i, 1);
  };
  const markTime = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? pick('mark', v).at(-1)?.startTime ?? now() : now());
  return {
    now,
    timeOrigin,
    mark: (name: string, options?: any) => {
      const e = { name: String(name), entryType: 'mark', startTime: options?.startTime ?? now(), duration: 0, detail: options?.detail ?? null };
      entries.push(e);
      return e;
    },
    measure: (name: string, start?: any, end?: any) => {
      const s = typeof start === 'object' && start !== null ? markTime(start.start) : start === undefined ? 0 : markTime(start);
      const f = typeof start === 'object' && start !== null ? markTime(start.end) : end === undefined ? now() : markTime(end);
      const e = { name: String(name), entryType: 'measure', startTime: s, duration: f - s, detail: null };
      entries.push(e);
      return e;
    },
    getEntries: () => entries.slice(),
    getEntriesByName: (name: string, type?: string) => entries.filter((e) => e.name === name && (type === undefined || e.entryType === type)),
    getEntriesByType: (type: string) => pick(type),
    clearMarks: clear('mark'),
    clearMeasures: clear('measure'),
    clearResourceTimings: () => undefined,
    setResourceTimingBufferSize: () => undefined,
    markResourceTiming: env.refuser('perf_hooks', 'performance.markResourceTiming()', WHY.network),
    eventLoopUtilization: () => ({ idle: 0, active: 0, utilization: 0 }),
    timerify: (fn: unknown) => fn,
    nodeTiming: { name: 'node', entryType: 'node', startTime: 0, duration: 0, nodeStart: 0, v8Start: 0, bootstrapComplete: 0, environment: 0, loopStart: 0, loopExit: -1, idleTime: 0 },
    toJSON: () => ({ timeOrigin, nodeTiming: {}, eventLoopUtilization: { idle: 0, active: 0, utilization: 0 } }),
    onresourcetimingbufferfull: null,
  };
}

const events: VirtualModule = {
  pure: ['addAbortListener', 'once', 'on', 'getEventListeners', 'getMaxListeners', 'usingDomains', 'captureRejectionSymbol', 'EventEmitterAsyncResource', 'errorMonitor', 'kMaxEventTargetListeners', 'kMaxEventTargetListenersWarned', 'init', 'listenerCount'],
  build: (_v, host) => {
    // A class of this process's own: its defaults (defaultMaxListeners, captureRejections) are
    // the process's, and a patch of its prototype stays in the process.
    const settings = { defaultMaxListeners: host.defaultMaxListeners as number, captureRejections: false };
    class EventEmitter extends host {
      constructor(options?: any) {
        super(options === undefined && settings.captureRejections ? { captureRejections: true } : options);
        if (settings.defaultMaxListeners !== host.defaultMaxListeners && (this as any)._maxListeners === undefined) (this as any).setMaxListeners(settings.defaultMaxListeners);
      }
    }
    const view = EventEmitter as any;
    const own = (key: string, value: unknown): void => { Object.defineProperty(view, key, { value, writable: true, enumerable: true, configurable: true }); };
    for (const key of events.pure as readonly string[]) own(key, host[key]);
    own('EventEmitter', view);
    Object.defineProperty(view, 'defaultMaxListeners', { get: () => settings.defaultMaxListeners, set: (n) => { settings.defaultMaxListeners = n; }, enumerable: true, configurable: true });
    Object.defineProperty(view, 'captureRejections', { get: () => settings.captureRejections, set: (b) => { settings.captureRejections = Boolean(b); }, enumerable: true, configurable: true });
    own('setMaxListeners', (n: number, ...targets: any[]) => {
      if (targets.length === 0) settings.defaultMaxListeners = n;
      else host.setMaxListeners(n, ...targets);
    });
    return view;
  },
};

const asyncHooks: VirtualModule = {
  pure: ['asyncWrapProviders'],
  build: ({ env }) => {
    const { prims } = env;
    type Store = { client: number; tag: string; user?: Map<object, unknown>; chain?: number } | undefined;
    const current = (): Store => prims.store() as Store;
    const withValue = (key: object, value: unknown, remove: boolean): Store => {
      const cur = current();
      const user = new Map(cur?.user ?? []);
      if (remove) user.delete(key);
      else user.set(key, value);
      return { client: cur?.client ?? -1, tag: cur?.tag ?? '', user, chain: cur?.chain };
    };
    // AsyncLocalStorage on the store the glue carries along promise chains and timers (client-store.ts).
    class AsyncLocalStorage {
      run(value: unknown, fn: (...a: any[]) => unknown, ...args: any[]): unknown {
        return prims.runIn(withValue(this, value, false), () => fn(...args));
      }
      exit(fn: (...a: any[]) => unknown, ...args: any[]): unknown {
        return prims.runIn(withValue(this, undefined, true), () => fn(...args));
      }
      getStore(): unknown {
        return current()?.user?.get(this);
      }
      enterWith(value: unknown): void {
        // The rest of this synchronous run and what it sets off: the current store, changed in place.
        const cur = current();
        if (cur) cur.user = new Map(cur.user ?? []).set(this, value);
      }
      disable(): void {
        const cur = current();
        if (cur?.user?.has(this)) cur.user = new Map([...cur.user].filter(([k]) => k !== this));
      }
      static bind<F extends (...a: any[]) => any>(fn: F): F {
        const store = current();
        return ((...args: any[]) => prims.runIn(store, () => fn(...args))) as F;
      }
      static snapshot(): (fn: (...a: any[]) => unknown, ...args: any[]) => unknown {
        const store = current();
        return (fn, ...args) => prims.runIn(store, () => fn(...args));
      }
    }
    let nextAsyncId = 1;
    class AsyncResource {
      private readonly store = current();
      private readonly id = nextAsyncId++;
      constructor(readonly type: string = 'AsyncResource') {}
      runInAsyncScope(fn: (...a: any[]) => unknown, thisArg?: unknown, ...args: any[]): unknown {
        return prims.runIn(this.store, () => fn.apply(thisArg, args));
      }
      bind<F extends (...a: any[]) => any>(fn: F, thisArg?: unknown): F {
        return ((...args: any[]) => this.runInAsyncScope(fn, thisArg ?? this, ...args)) as F;
      }
      emitDestroy(): this { return this; }
      asyncId(): number { return this.id; }
      triggerAsyncId(): number { return 0; }
      static bind<F extends (...a: any[]) => any>(fn: F, type?: string, thisArg?: unknown): F {
        return new AsyncResource(type).bind(fn, thisArg);
      }
    }
    const resource = {};
    return {
      AsyncLocalStorage, AsyncResource,
      executionAsyncId: () => 1, triggerAsyncId: () => 0, executionAsyncResource: () => resource,
      createHook: env.refuser('async_hooks', 'createHook()', `${WHY.host}: its hooks would see the simulation's own work`),
    };
  },
};

/** fs: reads of files next to the module (and of the packages it loads) while it loads; nothing else. */
const FS_READS = ['existsSync', 'readFileSync', 'statSync', 'lstatSync', 'readdirSync', 'realpathSync', 'accessSync', 'readlinkSync'];
const FS_ASYNC_READS: Record<string, string> = { readFile: 'readFileSync', stat: 'statSync', lstat: 'lstatSync', readdir: 'readdirSync', realpath: 'realpathSync', access: 'accessSync', readlink: 'readlinkSync' };
const FS_PURE = ['Dirent', 'Stats', 'constants', 'F_OK', 'R_OK', 'W_OK', 'X_OK', '_toUnixTimestamp'];

function guardedRead(v: ViewContext, module: string, name: string, fn: (...a: any[]) => unknown): (...a: any[]) => unknown {
  const refuse = v.env.refuser(module, `${name}()`, WHY.files);
  const { isAbsolute, resolve } = hostRequire('node:path');
  return (...args: any[]) => {
    const target = args[0];
    let path = target instanceof URL ? hostRequire('node:url').fileURLToPath(target) : String(target);
    // A relative path is the simulated process's: from its cwd, the module's directory.
    if (!isAbsolute(path)) path = resolve(v.process.cwd(), path);
    if (!v.env.loading() || !v.readable(path)) refuse(path);
    args[0] = path;
    return fn(...args);
  };
}

const fs: VirtualModule = {
  pure: FS_PURE,
  build: (v, host) => {
    const view: Record<string, unknown> = {};
    for (const key of Object.keys(host)) {
      if (FS_PURE.includes(key) || key === 'promises') continue;
      if (FS_READS.includes(key)) view[key] = guardedRead(v, 'fs', key, host[key]);
      else if (key in FS_ASYNC_READS) view[key] = viaImmediate(v.env, guardedRead(v, 'fs', key, host[FS_ASYNC_READS[key]]));
      else if (key === 'exists') view[key] = (p: unknown, cb: (b: boolean) => void) => { const r = (guardedRead(v, 'fs', 'exists', host.existsSync) as any)(p); v.env.prims.setImmediate(() => cb(r)); };
      else view[key] = v.env.refuser('fs', typeof host[key] === 'function' && /^[A-Z]/.test(key) ? key : `${key}()`, WHY.files);
    }
    for (const key of FS_PURE) view[key] = host[key];
    view.promises = v.view('fs/promises');
    return view;
  },
};

const fsPromises: VirtualModule = {
  pure: ['constants'],
  build: (v, host) => {
    const sync = hostRequire('node:fs');
    const view: Record<string, unknown> = { constants: host.constants };
    for (const key of Object.keys(host)) {
      if (key === 'constants') continue;
      const syncName = FS_ASYNC_READS[key];
      if (syncName) {
        const read = guardedRead(v, 'fs/promises', key, sync[syncName]);
        view[key] = (...args: any[]) => new v.env.intrinsics.Promise((resolve) => resolve(read(...args)));
      } else view[key] = v.env.refuser('fs/promises', `${key}()`, WHY.files);
    }
    return view;
  },
};

const UTIL_PURE = [
  '_errnoException', '_exceptionWithHostPort', '_extend', 'callbackify', 'format', 'styleText', 'formatWithOptions',
  'getSystemErrorMap', 'getSystemErrorName', 'inherits', 'isArray', 'isBoolean', 'isBuffer', 'isDeepStrictEqual', 'isNull',
  'isNullOrUndefined', 'isNumber', 'isString', 'isSymbol', 'isUndefined', 'isRegExp', 'isObject', 'isDate', 'isError',
  'isFunction', 'isPrimitive', 'promisify', 'stripVTControlCharacters', 'toUSVString', 'transferableAbortSignal',
  'transferableAbortController', 'aborted', 'types', 'parseEnv', 'parseArgs', 'TextDecoder', 'TextEncoder', 'MIMEType', 'MIMEParams',
];

const util: VirtualModule = {
  pure: UTIL_PURE,
  build: ({ env, process }, host) => {
    const view: Record<string, unknown> = {};
    for (const key of UTIL_PURE) if (key in host) view[key] = host[key];
    // inspect with this process's own defaultOptions (the host's setter would change them for every process).
    let defaults: Record<string, unknown> = {};
    const inspect = (value: unknown, opts?: any): string => host.inspect(value, typeof opts === 'object' && opts !== null ? { ...defaults, ...opts } : { ...defaults, ...(typeof opts === 'boolean' ? { showHidden: opts } : {}) });
    Object.assign(inspect, { custom: host.inspect.custom, colors: { ...host.inspect.colors }, styles: { ...host.inspect.styles } });
    Object.defineProperty(inspect, 'defaultOptions', { get: () => ({ ...host.inspect.defaultOptions, ...defaults }), set: (o) => { defaults = { ...o }; }, enumerable: true });
    view.inspect = inspect;
    // Deprecation warnings and debug logs go to the process's own stderr (the console sink), NODE_DEBUG is not read.
    view.deprecate = (fn: (...a: any[]) => unknown, msg: string, code?: string) => {
      let warned = false;
      return function (this: unknown, ...args: any[]) {
        if (!warned) {
          warned = true;
          process.emitWarning(msg, 'DeprecationWarning', code);
        }
        return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
      };
    };
    const debuglog = (): any => Object.assign(() => undefined, { enabled: false });
    view.debuglog = debuglog;
    view.debug = debuglog;
    view.log = (...args: unknown[]) => env.write('stdout', `${host.format(...args)}\n`);
    return view;
  },
};

const consoleModule: VirtualModule = { pure: [], build: ({ console }) => console };

const tty: VirtualModule = {
  pure: [],
  build: ({ env }) => ({
    isatty: () => false,
    ReadStream: env.refuser('tty', 'ReadStream', WHY.host),
    WriteStream: env.refuser('tty', 'WriteStream', WHY.host),
  }),
};

const MODULE_REFUSED = ['_stat', '_pathCache', '_extensions', 'globalPaths', '_debug', '_readPackage', '_findPath', '_nodeModulePaths', '_resolveLookupPaths', '_load', '_resolveFilename', '_initPaths', '_preloadModules', 'Module', 'runMain', 'register', '_cache'];
const moduleModule: VirtualModule = {
  pure: ['wrap', 'wrapper', 'isBuiltin', 'builtinModules', 'SourceMap'],
  build: (v, host) => {
    const view: Record<string, unknown> = {};
    for (const key of moduleModule.pure as readonly string[]) view[key] = host[key];
    for (const key of MODULE_REFUSED) view[key] = v.env.refuser('module', typeof host[key] === 'function' ? `${key}()` : key, `${WHY.host}: the loader of the host; a lock module's imports are resolved by lock-sim's own`);
    view.createRequire = (from: unknown) => {
      const file = typeof from === 'string' && from.startsWith('file:') ? hostRequire('node:url').fileURLToPath(from) : from instanceof URL ? hostRequire('node:url').fileURLToPath(from) : String(from);
      return v.requireFrom(file);
    };
    view.syncBuiltinESMExports = () => undefined;
    view.findSourceMap = () => undefined;
    return view;
  },
};

const workerThreads: VirtualModule = {
  pure: ['SHARE_ENV', 'markAsUntransferable'],
  build: ({ env }, host) => {
    const data = new Map<unknown, unknown>();
    const view: Record<string, unknown> = { SHARE_ENV: host.SHARE_ENV, markAsUntransferable: host.markAsUntransferable };
    Object.assign(view, {
      isMainThread: true, threadId: 0, workerData: null, parentPort: null, resourceLimits: {},
      getEnvironmentData: (k: unknown) => data.get(k),
      setEnvironmentData: (k: unknown, val: unknown) => { if (val === undefined) data.delete(k); else data.set(k, val); },
    });
    for (const key of ['Worker', 'MessageChannel', 'MessagePort', 'BroadcastChannel', 'moveMessagePortToContext', 'receiveMessageOnPort', 'postMessageToThread']) {
      view[key] = env.refuser('worker_threads', /^[A-Z]/.test(key) ? key : `${key}()`, `${WHY.process}; ${WHY.eventLoop}`);
    }
    return view;
  },
};

/** diagnostics_channel of the process: its own channels (the host's are the simulation's). */
const diagnosticsChannel: VirtualModule = {
  pure: [],
  build: () => {
    class Channel {
      private readonly subscribers: Array<(m: unknown, n: string) => void> = [];
      constructor(readonly name: string) {}
      get hasSubscribers(): boolean { return this.subscribers.length > 0; }
      subscribe(fn: (m: unknown, n: string) => void): void { this.subscribers.push(fn); }
      unsubscribe(fn: (m: unknown, n: string) => void): boolean {
        const i = this.subscribers.indexOf(fn);
        if (i === -1) return false;
        this.subscribers.splice(i, 1);
        return true;
      }
      publish(message: unknown): void { for (const fn of this.subscribers.slice()) fn(message, this.name); }
      bindStore(): void {}
      unbindStore(): boolean { return false; }
      runStores(data: unknown, fn: (...a: any[]) => unknown, thisArg?: unknown, ...args: any[]): unknown { this.publish(data); return fn.apply(thisArg, args); }
    }
    const channels = new Map<string, Channel>();
    const channel = (name: string): Channel => {
      let c = channels.get(name);
      if (!c) channels.set(name, (c = new Channel(name)));
      return c;
    };
    const tracingChannel = (nameOrChannels: any): object => {
      const of = (part: string): Channel => (typeof nameOrChannels === 'string' ? channel(`tracing:${nameOrChannels}:${part}`) : nameOrChannels[part]);
      const t = { start: of('start'), end: of('end'), asyncStart: of('asyncStart'), asyncEnd: of('asyncEnd'), error: of('error') };
      const parts = Object.values(t);
      return {
        ...t,
        get hasSubscribers() { return parts.some((c) => c.hasSubscribers); },
        subscribe: (h: Record<string, any>) => { for (const [k, fn] of Object.entries(h)) (t as any)[k]?.subscribe(fn); },
        unsubscribe: (h: Record<string, any>) => { for (const [k, fn] of Object.entries(h)) (t as any)[k]?.unsubscribe(fn); return true; },
        traceSync: (fn: (...a: any[]) => unknown, ctx: any = {}, thisArg?: unknown, ...args: any[]) => {
          t.start.publish(ctx);
          try {
            return (ctx.result = fn.apply(thisArg, args));
          } catch (err) {
            ctx.error = err;
            t.error.publish(ctx);
            throw err;
          } finally {
            t.end.publish(ctx);
          }
        },
        tracePromise: (fn: (...a: any[]) => Promise<unknown>, ctx: any = {}, thisArg?: unknown, ...args: any[]) => {
          t.start.publish(ctx);
          const p = fn.apply(thisArg, args);
          t.end.publish(ctx);
          return p.then((r) => { ctx.result = r; t.asyncStart.publish(ctx); t.asyncEnd.publish(ctx); return r; }, (err) => { ctx.error = err; t.error.publish(ctx); t.asyncStart.publish(ctx); t.asyncEnd.publish(ctx); throw err; });
        },
        traceCallback: (fn: (...a: any[]) => unknown, _pos: number, _ctx: unknown, thisArg?: unknown, ...args: any[]) => fn.apply(thisArg, args),
      };
    };
    return {
      channel, tracingChannel, Channel,
      hasSubscribers: (name: string) => channels.get(name)?.hasSubscribers ?? false,
      subscribe: (name: string, fn: (m: unknown, n: string) => void) => channel(name).subscribe(fn),
      unsubscribe: (name: string, fn: (m: unknown, n: string) => void) => channel(name).unsubscribe(fn),
    };
  },
};

const v8: VirtualModule = {
  pure: ['cachedDataVersionTag', 'Serializer', 'Deserializer', 'DefaultSerializer', 'DefaultDeserializer', 'deserialize', 'serialize'],
  build: ({ env }, host) => {
    const view: Record<string, unknown> = {};
    for (const key of Object.keys(host)) {
      view[key] = (v8.pure as readonly string[]).includes(key) ? host[key] : env.refuser('v8', typeof host[key] === 'function' ? `${key}()` : key, `${WHY.host}; ${WHY.nondeterministic}`);
    }
    return view;
  },
};

const zlib: VirtualModule = {
  pure: (key) => key === 'crc32' || key === 'constants' || key === 'codes' || key.endsWith('Sync') || key.startsWith('Z_') || /^[A-Z]+$/.test(key),
  build: ({ env }, host) => {
    const view: Record<string, unknown> = {};
    for (const key of Object.keys(host)) {
      const value = host[key];
      if (typeof value !== 'function' || key === 'crc32' || key.endsWith('Sync')) view[key] = value;
      else if (typeof host[`${key}Sync`] === 'function') view[key] = viaImmediate(env, (...a: any[]) => host[`${key}Sync`](...a));
      else view[key] = env.refuser('zlib', /^[A-Z]/.test(key) ? key : `${key}()`, `${WHY.eventLoop}: zlib's streams compress on Node's thread pool; use the *Sync functions or the callback ones`);
    }
    return view;
  },
};

/** The builders, by builtin name. */
export const VIRTUAL_MODULES: Record<string, VirtualModule> = {
  timers, 'timers/promises': timersPromises, crypto, os, perf_hooks: perfHooks, events, async_hooks: asyncHooks,
  fs, 'fs/promises': fsPromises, util, sys: util, console: consoleModule, tty, module: moduleModule,
  worker_threads: workerThreads, diagnostics_channel: diagnosticsChannel, v8, zlib,
  process: { pure: Object.keys(PROCESS_MEMBERS).filter((k) => PROCESS_MEMBERS[k] === 'pure'), build: ({ process }) => process },
};
