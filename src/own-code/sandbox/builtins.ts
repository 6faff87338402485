/**
 * Every Node 20 builtin module (`module.builtinModules`), as a lock module sees it: the
 * sandbox is complete by enumeration (test/own-code/sandbox.test.ts fails on a builtin this
 * table does not name). Each is
 * - 'virtual': the simulated client process's own (virtual-modules.ts): time, randomness,
 *   the process, the host and its files are simulated or fixed per process;
 * - 'pure': the host's, frozen (its exports object and the plain objects under it), so a
 *   module cannot change it for another process: it computes, it reads no clock, no
 *   randomness, no I/O (path, url, util/types, buffer, stream, string_decoder, assert...);
 * - 'refused': every function or class it exports throws, naming the module, the call and the
 *   file that called it (and the call is recorded as a 'refused-call' diagnostic); its plain
 *   data (constants, `http.STATUS_CODES`) reads as the host's, frozen. Imports of it work, so
 *   a library that only mentions it loads.
 */
import { WHY, type SandboxEnv } from './env.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

type Treatment = 'virtual' | 'pure' | 'refused';

/** Why a refused module is refused (env.ts WHY), and which of its exports are pure all the same. */
interface Refused {
  why: string;
  pure?: readonly string[];
}

export const BUILTINS: Record<string, Treatment> = {
  _http_agent: 'refused', _http_client: 'refused', _http_common: 'refused', _http_incoming: 'refused',
  _http_outgoing: 'refused', _http_server: 'refused', _stream_duplex: 'pure', _stream_passthrough: 'pure',
  _stream_readable: 'pure', _stream_transform: 'pure', _stream_wrap: 'refused', _stream_writable: 'pure',
  _tls_common: 'refused', _tls_wrap: 'refused', assert: 'pure', 'assert/strict': 'pure', async_hooks: 'virtual',
  buffer: 'pure', child_process: 'refused', cluster: 'refused', console: 'virtual', constants: 'pure', crypto: 'virtual',
  dgram: 'refused', diagnostics_channel: 'virtual', dns: 'refused', 'dns/promises': 'refused', domain: 'refused',
  events: 'virtual', fs: 'virtual', 'fs/promises': 'virtual', http: 'refused', http2: 'refused', https: 'refused',
  inspector: 'refused', 'inspector/promises': 'refused', module: 'virtual', net: 'refused', os: 'virtual', path: 'pure',
  'path/posix': 'pure', 'path/win32': 'pure', perf_hooks: 'virtual', process: 'virtual', punycode: 'pure',
  querystring: 'pure', readline: 'refused', 'readline/promises': 'refused', repl: 'refused', stream: 'pure',
  'stream/consumers': 'pure', 'stream/promises': 'pure', 'stream/web': 'pure', string_decoder: 'pure', sys: 'virtual',
  timers: 'virtual', 'timers/promises': 'virtual', tls: 'refused', trace_events: 'refused', tty: 'virtual', url: 'pure',
  util: 'virtual', 'util/types': 'pure', v8: 'virtual', vm: 'refused', wasi: 'refused', worker_threads: 'virtual',
  zlib: 'virtual',
  // Only with the node: prefix (module.builtinModules does not list them).
  test: 'refused', sea: 'refused',
};

export const REFUSED: Record<string, Refused> = {
  _http_agent: { why: WHY.network }, _http_client: { why: WHY.network }, _http_common: { why: WHY.network },
  _http_incoming: { why: WHY.network }, _http_outgoing: { why: WHY.network }, _http_server: { why: WHY.network },
  _stream_wrap: { why: WHY.network }, _tls_common: { why: WHY.network }, _tls_wrap: { why: WHY.network },
  child_process: { why: WHY.process }, cluster: { why: WHY.process }, dgram: { why: WHY.network },
  dns: { why: WHY.network }, 'dns/promises': { why: WHY.network }, domain: { why: `${WHY.eventLoop} (and it is deprecated)` },
  http: { why: WHY.network, pure: ['METHODS', 'STATUS_CODES', 'maxHeaderSize', 'validateHeaderName', 'validateHeaderValue'] },
  http2: { why: WHY.network, pure: ['constants', 'sensitiveHeaders'] },
  https: { why: WHY.network },
  inspector: { why: WHY.host }, 'inspector/promises': { why: WHY.host },
  net: { why: WHY.network, pure: ['isIP', 'isIPv4', 'isIPv6', 'BlockList', 'SocketAddress', 'getDefaultAutoSelectFamily', 'getDefaultAutoSelectFamilyAttemptTimeout'] },
  readline: { why: WHY.host }, 'readline/promises': { why: WHY.host }, repl: { why: WHY.host },
  tls: { why: WHY.network, pure: ['CLIENT_RENEG_LIMIT', 'CLIENT_RENEG_WINDOW', 'DEFAULT_CIPHERS', 'DEFAULT_ECDH_CURVE', 'DEFAULT_MIN_VERSION', 'DEFAULT_MAX_VERSION', 'getCiphers', 'rootCertificates'] },
  trace_events: { why: WHY.host },
  vm: { why: `${WHY.host}: a new context would have the host's real clock and randomness` },
  wasi: { why: WHY.host }, test: { why: WHY.host }, sea: { why: WHY.host },
};

/** A plain data object (not a function, class or instance of one): frozen as data, not refused. */
function plainData(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Freezes `o` and the plain objects under it (not functions, classes or their prototypes: Node's own code assigns on instances). */
function freezeData(o: any, seen = new Set<object>()): void {
  if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) return;
  seen.add(o);
  Object.freeze(o);
  for (const key of Reflect.ownKeys(o)) {
    const d = Reflect.getOwnPropertyDescriptor(o, key)!;
    if ('value' in d && plainData(d.value)) freezeData(d.value, seen);
  }
}

const pureViews = new Map<string, unknown>();

/**
 * A pure module as user code gets it: the host's, frozen; where the module has an accessor
 * that would change the host's state for every process (buffer.INSPECT_MAX_BYTES), a frozen
 * copy whose accessors read once as data. One per worker, shared by every realm.
 */
export function pureView(name: string, host: any): unknown {
  const known = pureViews.get(name);
  if (known !== undefined) return known;
  const setters = Reflect.ownKeys(host).filter((k) => typeof Reflect.getOwnPropertyDescriptor(host, k)?.set === 'function');
  let view = host;
  if (setters.length > 0) {
    view = typeof host === 'function' ? host : {};
    if (typeof host !== 'function') for (const key of Reflect.ownKeys(host)) {
      const d = Reflect.getOwnPropertyDescriptor(host, key)!;
      Object.defineProperty(view, key, { value: 'value' in d ? d.value : d.get?.call(host), enumerable: d.enumerable, writable: false, configurable: false });
    }
  }
  freezeData(view);
  pureViews.set(name, view);
  return view;
}

/** An object that refuses any use (a refused module's instance export, `process.stdin`): reading it is fine, touching it is not. */
export function refusedObject(refuse: (...a: any[]) => never): object {
  return new Proxy(function () {}, {
    get: (_t, key) => (key === 'then' || typeof key === 'symbol' ? undefined : refuse()),
    set: () => refuse(),
    apply: () => refuse(),
    construct: () => refuse(),
    has: () => false,
  });
}

/** A refused module's view: its functions and classes refuse, its plain data is the host's (frozen), its `pure` list passes. */
export function refusedView(env: SandboxEnv, name: string, host: any): Record<string, unknown> {
  const spec = REFUSED[name];
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(host ?? {})) {
    let value: unknown;
    try {
      value = host[key];
    } catch {
      value = undefined;
    }
    if (spec.pure?.includes(key)) view[key] = value;
    else if (typeof value === 'function') view[key] = env.refuser(name, /^[A-Z]/.test(key) ? key : `${key}()`, spec.why);
    else if (value !== null && typeof value === 'object' && !plainData(value)) view[key] = refusedObject(env.refuser(name, key, spec.why));
    else {
      freezeData(value);
      view[key] = value;
    }
  }
  return view;
}
