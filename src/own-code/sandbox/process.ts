/**
 * The `process` (global and `node:process`) and `console` of one realm: a simulated client
 * process's own. Every member of Node 20's `process` is classified here (PROCESS_MEMBERS;
 * test/own-code/sandbox.test.ts checks that none is missing):
 * - virtual: pid/ppid (a new pid per incarnation), hrtime/uptime (the client's monotonic
 *   clock), nextTick, env (a fixed, per-process environment: `TZ` only), argv, cwd (the
 *   module's directory), memoryUsage/cpuUsage/resourceUsage (fixed figures: the simulation
 *   has no heap or CPU of its own per process), stdout/stderr (the console sink), the
 *   process's own events (on/once/emit...), emitWarning, exitCode, uid/gid (1000);
 * - pure: the host's version, versions, arch, platform, release, config, features (the same
 *   within a machine, never within a run);
 * - refused: exit, kill, abort, chdir, the set*id calls, stdin, binding/dlopen, report, ...
 */
import { EventEmitter } from 'node:events';
import { dirname } from 'node:path';
import { format } from 'node:util';
import { refusedObject } from './builtins.js';
import { WHY, type SandboxEnv } from './env.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Node 20's process members by treatment ('virtual' ones are built below). */
export const PROCESS_MEMBERS: Record<string, 'virtual' | 'pure' | 'refused'> = {
  version: 'pure', versions: 'pure', arch: 'pure', platform: 'pure', release: 'pure', config: 'pure', features: 'pure',
  allowedNodeEnvironmentFlags: 'pure', assert: 'pure', moduleLoadList: 'virtual', domain: 'virtual', _exiting: 'virtual',
  exitCode: 'virtual', uptime: 'virtual', hrtime: 'virtual', nextTick: 'virtual', env: 'virtual', argv: 'virtual',
  execArgv: 'virtual', argv0: 'virtual', execPath: 'virtual', title: 'virtual', pid: 'virtual', ppid: 'virtual',
  debugPort: 'virtual', cwd: 'virtual', umask: 'virtual', memoryUsage: 'virtual', cpuUsage: 'virtual',
  resourceUsage: 'virtual', constrainedMemory: 'virtual', availableMemory: 'virtual', emitWarning: 'virtual',
  stdout: 'virtual', stderr: 'virtual', getuid: 'virtual', geteuid: 'virtual', getgid: 'virtual', getegid: 'virtual',
  getgroups: 'virtual', _getActiveRequests: 'virtual', _getActiveHandles: 'virtual', getActiveResourcesInfo: 'virtual',
  setUncaughtExceptionCaptureCallback: 'virtual', hasUncaughtExceptionCaptureCallback: 'virtual', getBuiltinModule: 'virtual',
  sourceMapsEnabled: 'virtual', setSourceMapsEnabled: 'virtual', _rawDebug: 'virtual', _events: 'virtual',
  _eventsCount: 'virtual', _maxListeners: 'virtual', emit: 'virtual', _eval: 'virtual', _preload_modules: 'virtual',
  exit: 'refused', reallyExit: 'refused', abort: 'refused', kill: 'refused', _kill: 'refused', chdir: 'refused',
  binding: 'refused', _linkedBinding: 'refused', dlopen: 'refused', openStdin: 'refused', stdin: 'refused',
  setuid: 'refused', seteuid: 'refused', setgid: 'refused', setegid: 'refused', setgroups: 'refused', initgroups: 'refused',
  report: 'refused', loadEnvFile: 'refused', _fatalException: 'refused', _tickCallback: 'refused', _debugProcess: 'refused',
  _debugEnd: 'refused', _startProfilerIdleNotifier: 'refused', _stopProfilerIdleNotifier: 'refused',
};

/** The simulated process has no heap or CPU of its own: fixed figures (bytes), the same in every run. */
const MEMORY = { rss: 64 * 2 ** 20, heapTotal: 32 * 2 ** 20, heapUsed: 16 * 2 ** 20, external: 2 ** 20, arrayBuffers: 2 ** 18 };

/** The console of a realm: Node's console methods writing to the sandbox's sink, with the simulated clock for time/timeEnd. */
export function makeConsole(env: SandboxEnv, hostConsole: Console): Record<string, unknown> {
  const times = new Map<string, number>();
  const counts = new Map<string, number>();
  let indent = '';
  const out = (stream: 'stdout' | 'stderr') => (...args: unknown[]): void => env.write(stream, indent + format(...args) + '\n');
  const log = out('stdout');
  const err = out('stderr');
  return {
    log, info: log, debug: log, dirxml: log, error: err, warn: err, trace: err,
    dir: (o: unknown) => log(o), table: (o: unknown) => log(o),
    assert: (ok: unknown, ...rest: unknown[]) => { if (!ok) err('Assertion failed', ...rest); },
    count: (label = 'default') => { const n = (counts.get(label) ?? 0) + 1; counts.set(label, n); log(`${label}: ${n}`); },
    countReset: (label = 'default') => { counts.delete(label); },
    group: (...a: unknown[]) => { if (a.length) log(...a); indent += '  '; },
    groupCollapsed: (...a: unknown[]) => { if (a.length) log(...a); indent += '  '; },
    groupEnd: () => { indent = indent.slice(2); },
    time: (label = 'default') => { times.set(label, env.prims.monoNow()); },
    timeEnd: (label = 'default') => { const t = times.get(label); times.delete(label); if (t !== undefined) log(`${label}: ${(env.prims.monoNow() - t).toFixed(3)}ms`); },
    timeLog: (label = 'default', ...a: unknown[]) => { const t = times.get(label); if (t !== undefined) log(`${label}: ${(env.prims.monoNow() - t).toFixed(3)}ms`, ...a); },
    clear: () => undefined, profile: () => undefined, profileEnd: () => undefined, timeStamp: () => undefined,
    context: () => makeConsole(env, hostConsole),
    createTask: () => ({ run: (fn: () => unknown) => fn() }),
    Console: hostConsole.Console,
  };
}

/** The `process` of a realm (one per realm; what differs per process it reads from `env` when asked). */
export function makeProcess(env: SandboxEnv, moduleFile: string, getBuiltin: (name: string) => unknown): Record<string, unknown> {
  const hostProcess = process;
  const { prims } = env;
  const emitter = new EventEmitter();
  const refused = (call: string, why: string = WHY.process): ((...args: any[]) => never) => env.refuser('process', call, why);
  const hrtime = (prev?: [number, number]): [number, number] => {
    const ns = Math.round(prims.monoNow() * 1e6);
    let s = Math.floor(ns / 1e9);
    let n = ns - s * 1e9;
    if (Array.isArray(prev)) {
      s -= prev[0];
      n -= prev[1];
      if (n < 0) {
        s -= 1;
        n += 1e9;
      }
    }
    return [s, n];
  };
  hrtime.bigint = (): bigint => BigInt(Math.round(prims.monoNow() * 1e6));
  const stream = (name: 'stdout' | 'stderr', fd: number): object => {
    const s = new EventEmitter() as any;
    s.fd = fd;
    s.isTTY = false;
    s.writable = true;
    s.write = (chunk: unknown, encoding?: unknown, cb?: unknown): boolean => {
      env.write(name, typeof chunk === 'string' ? chunk : String(chunk));
      const done = typeof encoding === 'function' ? encoding : cb;
      if (typeof done === 'function') prims.setImmediate(done);
      return true;
    };
    s.end = () => undefined;
    return s;
  };
  let exitCode: number | undefined;
  let captureCallback: unknown = null;
  const envObject: Record<string, string> = {};
  const p: Record<string, unknown> = {};
  // The process's own events: on/once/emit... of an emitter per realm, never the host's.
  for (const key of ['on', 'once', 'off', 'addListener', 'removeListener', 'removeAllListeners', 'prependListener', 'prependOnceListener', 'emit', 'listeners', 'rawListeners', 'listenerCount', 'eventNames', 'setMaxListeners', 'getMaxListeners']) {
    const method = (emitter as any)[key];
    p[key] = function (this: unknown, ...args: unknown[]) {
      const r = method.apply(emitter, args);
      return r === emitter ? p : r;
    };
  }
  for (const [key, treatment] of Object.entries(PROCESS_MEMBERS)) {
    if (treatment === 'pure') p[key] = (hostProcess as any)[key];
    else if (treatment === 'refused') p[key] = refused(key === 'stdin' || key === 'openStdin' ? key : `${key}()`, key === 'exit' || key === 'reallyExit' || key === 'abort' ? 'a lock module must not end the process that runs the simulation; throw or reject instead' : key.startsWith('_debug') || key === 'binding' || key === '_linkedBinding' || key === 'dlopen' || key === 'report' ? WHY.host : key === 'loadEnvFile' || key === 'chdir' ? WHY.files : WHY.process);
  }
  Object.defineProperties(p, {
    pid: { get: () => env.pid(), enumerable: true },
    ppid: { get: () => 1, enumerable: true },
    exitCode: { get: () => exitCode, set: (v) => { exitCode = v; }, enumerable: true },
  });
  p.stdin = refusedObject(refused('stdin'));
  Object.assign(p, {
    moduleLoadList: [], domain: null, _exiting: false, _eval: undefined, _preload_modules: [],
    _events: undefined, _eventsCount: 0, _maxListeners: undefined, debugPort: 9229,
    uptime: () => (prims.monoNow() - prims.startedMs()) / 1000,
    hrtime,
    nextTick: prims.nextTick,
    env: envObject,
    argv: [hostProcess.argv0 === undefined ? 'node' : 'node', moduleFile],
    execArgv: [],
    argv0: 'node',
    execPath: '/usr/local/bin/node',
    title: 'node',
    cwd: () => dirname(moduleFile),
    umask: () => 0o022,
    memoryUsage: Object.assign(() => ({ ...MEMORY }), { rss: () => MEMORY.rss }),
    cpuUsage: () => ({ user: 0, system: 0 }),
    resourceUsage: () => ({ userCPUTime: 0, systemCPUTime: 0, maxRSS: MEMORY.rss / 1024, sharedMemorySize: 0, unsharedDataSize: 0, unsharedStackSize: 0, minorPageFault: 0, majorPageFault: 0, swappedOut: 0, fsRead: 0, fsWrite: 0, ipcSent: 0, ipcReceived: 0, signalsCount: 0, voluntaryContextSwitches: 0, involuntaryContextSwitches: 0 }),
    constrainedMemory: () => 0,
    availableMemory: () => 4 * 2 ** 30,
    emitWarning: (warning: unknown, type?: unknown) => {
      const text = typeof warning === 'string' ? warning : String((warning as Error)?.message ?? warning);
      const kind = typeof type === 'string' ? type : typeof type === 'object' && type !== null && typeof (type as any).type === 'string' ? (type as any).type : 'Warning';
      env.write('stderr', `(node:${env.pid()}) ${kind}: ${text}\n`);
      emitter.emit('warning', warning);
    },
    stdout: stream('stdout', 1),
    stderr: stream('stderr', 2),
    getuid: () => 1000, geteuid: () => 1000, getgid: () => 1000, getegid: () => 1000, getgroups: () => [1000],
    _getActiveRequests: () => [], _getActiveHandles: () => [], getActiveResourcesInfo: () => [],
    setUncaughtExceptionCaptureCallback: (fn: unknown) => { captureCallback = fn; },
    hasUncaughtExceptionCaptureCallback: () => captureCallback !== null,
    getBuiltinModule: (id: string) => getBuiltin(String(id).replace(/^node:/, '')),
    sourceMapsEnabled: false,
    setSourceMapsEnabled: () => undefined,
    _rawDebug: (...args: unknown[]) => env.write('stderr', args.map(String).join(' ') + '\n'),
  });
  // TZ, as a service in that zone would have it; otherwise empty (nothing of the host's environment).
  Object.defineProperty(envObject, 'TZ', { get: () => env.who().timeZone, enumerable: true, configurable: true });
  return p;
}
