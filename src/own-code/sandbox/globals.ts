/**
 * The globals of a realm beyond JavaScript's own (which every vm context has afresh): each
 * global Node 20 adds is named in NODE_GLOBALS (test/own-code/sandbox.test.ts enumerates the
 * host's globals against it) as
 * - 'virtual': the process's own (process, console, crypto, performance, the timers,
 *   queueMicrotask, AbortSignal.timeout on the simulated clock; the glue sets the timers);
 * - 'pure': the host's (Buffer, URL, TextEncoder, streams, structuredClone, ...): they compute
 *   and touch no clock, randomness or I/O;
 * - 'refused': fetch, the message channels, compression streams, PerformanceObserver:
 *   constructing or calling one throws, naming it.
 * JavaScript's own nondeterministic intrinsics are replaced in the realm too: Date (the
 * client's clock, in the variant's time zone), Intl and the toLocale* methods (the variant's
 * locale), Math.random (the glue: the process's seeded stream; lock-sim: wall-clock ok), WeakRef (holds its target:
 * garbage collection is not simulated, so deref never depends on when it ran) and
 * FinalizationRegistry (never calls back, for the same reason).
 */
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { makeZonedDate, localizeRealm } from './date-zone.js';
import { WHY, type SandboxEnv } from './env.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const hostRequire = createRequire(import.meta.url);
const hostCrypto = hostRequire('node:crypto');

export const NODE_GLOBALS: Record<string, 'virtual' | 'pure' | 'refused'> = {
  process: 'virtual', global: 'virtual', console: 'virtual', crypto: 'virtual', performance: 'virtual',
  setTimeout: 'virtual', setInterval: 'virtual', setImmediate: 'virtual', clearTimeout: 'virtual', clearInterval: 'virtual', // lock-sim: wall-clock ok (names them)
  clearImmediate: 'virtual', queueMicrotask: 'virtual', AbortSignal: 'virtual',
  Buffer: 'pure', URL: 'pure', URLSearchParams: 'pure', DOMException: 'pure', AbortController: 'pure', Event: 'pure',
  EventTarget: 'pure', TextEncoder: 'pure', TextDecoder: 'pure', TransformStream: 'pure',
  TransformStreamDefaultController: 'pure', WritableStream: 'pure', WritableStreamDefaultController: 'pure',
  WritableStreamDefaultWriter: 'pure', ReadableStream: 'pure', ReadableStreamDefaultReader: 'pure',
  ReadableStreamBYOBReader: 'pure', ReadableStreamBYOBRequest: 'pure', ReadableByteStreamController: 'pure',
  ReadableStreamDefaultController: 'pure', ByteLengthQueuingStrategy: 'pure', CountQueuingStrategy: 'pure',
  TextEncoderStream: 'pure', TextDecoderStream: 'pure', structuredClone: 'pure', atob: 'pure', btoa: 'pure',
  MessageEvent: 'pure', Blob: 'pure', File: 'pure', Performance: 'pure', PerformanceEntry: 'pure',
  PerformanceObserverEntryList: 'pure', PerformanceResourceTiming: 'pure', FormData: 'pure', Headers: 'pure',
  Request: 'pure', Response: 'pure', Crypto: 'pure', CryptoKey: 'pure', SubtleCrypto: 'pure', CustomEvent: 'pure',
  fetch: 'refused', BroadcastChannel: 'refused', MessageChannel: 'refused', MessagePort: 'refused',
  CompressionStream: 'refused', DecompressionStream: 'refused', PerformanceObserver: 'refused',
  PerformanceMark: 'refused', PerformanceMeasure: 'refused', WebSocket: 'refused', EventSource: 'refused',
  navigator: 'refused', Navigator: 'refused',
};

const REFUSED_WHY: Record<string, string> = {
  fetch: WHY.network, WebSocket: WHY.network, EventSource: WHY.network, navigator: WHY.host, Navigator: WHY.host,
  BroadcastChannel: WHY.eventLoop, MessageChannel: WHY.eventLoop, MessagePort: WHY.eventLoop,
  CompressionStream: `${WHY.eventLoop}: compression runs on Node's thread pool`, DecompressionStream: `${WHY.eventLoop}: compression runs on Node's thread pool`,
  PerformanceObserver: WHY.eventLoop,
  PerformanceMark: `${WHY.nondeterministic}: it reads the host's clock; use performance.mark()`,
  PerformanceMeasure: `${WHY.nondeterministic}: it reads the host's clock; use performance.measure()`,
};

/** The realm's globals; gives its `crypto` (webcrypto). `own` are the realm's process, console and performance. */
export function makeLocalRealm(context: vm.Context, env: SandboxEnv, own: { process: object; console: object; performance: object }): object {
  const g = vm.runInContext('globalThis', context) as Record<string, unknown>;
  const { prims, intrinsics } = env;
  const HEX: string[] = [];
  for (let i = 0; i < 256; i++) HEX.push((i < 16 ? '0' : '') + i.toString(16));
  // The 16 bytes randomFill would write (the same draws of the stream, in order: byte i is
  // floor(rand() * 256)), read one at a time: no typed array per UUID (a polling lock draws
  // one per acquire).
  const randomUUID = (): string => {
    const rand = prims.rand;
    let h = '';
    for (let i = 0; i < 16; i++) {
      let byte = Math.floor(rand() * 256);
      if (i === 6) byte = (byte & 0x0f) | 0x40;
      else if (i === 8) byte = (byte & 0x3f) | 0x80;
      h += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + HEX[byte];
    }
    return h;
  };
  const getRandomValues = (a: any): any => {
    prims.randomFill(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    return a;
  };
  // SubtleCrypto: digest computed now (resolved in the realm); the rest needs Node's thread pool.
  const subtle: Record<string, unknown> = {
    digest: (algorithm: any, data: any) => new intrinsics.Promise((resolve, reject) => {
      try {
        const name = String(typeof algorithm === 'string' ? algorithm : algorithm?.name).toLowerCase().replace('-', '');
        const bytes = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
        const out = hostCrypto.createHash(name).update(bytes).digest();
        resolve(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
      } catch (err) {
        reject(err);
      }
    }),
  };
  for (const name of ['encrypt', 'decrypt', 'sign', 'verify', 'generateKey', 'deriveKey', 'deriveBits', 'importKey', 'exportKey', 'wrapKey', 'unwrapKey']) {
    subtle[name] = env.refuser('', `crypto.subtle.${name}()`, `${WHY.eventLoop}: WebCrypto runs on Node's thread pool; node:crypto's synchronous functions work`);
  }
  const webcrypto = { getRandomValues, randomUUID, subtle, CryptoKey: hostCrypto.webcrypto.CryptoKey };
  const timeZone = (): string => env.who().timeZone;
  const locale = (): string => env.who().locale;

  for (const [name, treatment] of Object.entries(NODE_GLOBALS)) {
    if (treatment === 'pure' && name in globalThis) g[name] = (globalThis as any)[name];
    else if (treatment === 'refused') g[name] = env.refuser('', name === 'fetch' ? 'fetch()' : name, REFUSED_WHY[name] ?? WHY.host);
  }
  g.process = own.process;
  g.console = own.console;
  g.performance = own.performance;
  g.crypto = webcrypto;
  // AbortSignal: the host's class, with timeout() on the client's clock.
  const HostSignal = AbortSignal as any;
  const SimAbortSignal = function AbortSignal(): never {
    throw new intrinsics.TypeError('Illegal constructor');
  } as any;
  SimAbortSignal.prototype = HostSignal.prototype;
  SimAbortSignal.abort = (reason?: unknown) => HostSignal.abort(reason);
  SimAbortSignal.any = (signals: unknown) => HostSignal.any(signals);
  SimAbortSignal.timeout = (ms: number) => {
    const controller = new AbortController();
    prims.setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms); // lock-sim: wall-clock ok, the simulated timer
    return controller.signal;
  };
  g.AbortSignal = SimAbortSignal;
  // JavaScript's own intrinsics that would read the host: Date, Intl, WeakRef, FinalizationRegistry.
  g.Date = makeZonedDate(intrinsics.Date, prims.wallNow, timeZone, locale);
  localizeRealm(intrinsics, timeZone, locale);
  class WeakRef<T extends object> {
    readonly #target: T;
    constructor(target: T) {
      if (target === null || (typeof target !== 'object' && typeof target !== 'function')) throw new intrinsics.TypeError('WeakRef: target must be an object');
      this.#target = target;
    }
    deref(): T {
      return this.#target;
    }
    get [Symbol.toStringTag](): string {
      return 'WeakRef';
    }
  }
  class FinalizationRegistry {
    constructor(cleanup: unknown) {
      if (typeof cleanup !== 'function') throw new intrinsics.TypeError('FinalizationRegistry: cleanup must be callable');
    }
    register(): void {}
    unregister(): boolean {
      return false;
    }
    get [Symbol.toStringTag](): string {
      return 'FinalizationRegistry';
    }
  }
  g.WeakRef = WeakRef;
  g.FinalizationRegistry = FinalizationRegistry;
  return webcrypto;
}
