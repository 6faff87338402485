/**
 * The sandbox is complete by enumeration (src/own-code/sandbox/): every builtin module Node
 * lists, every member of `process`, every global Node adds to JavaScript's own, and every
 * export of each virtualized module is named as virtual, pure or refused; pure views are
 * frozen and refused calls throw naming the module, the call and the file. A module that
 * imports every builtin by name and dynamically runs, on simulated time.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BUILTINS, REFUSED } from '../../src/own-code/sandbox/builtins.js';
import { NODE_GLOBALS } from '../../src/own-code/sandbox/globals.js';
import { PROCESS_MEMBERS } from '../../src/own-code/sandbox/process.js';
import { Sandbox } from '../../src/own-code/sandbox/sandbox.js';
import { VIRTUAL_MODULES } from '../../src/own-code/sandbox/virtual-modules.js';
import type { GlueApi } from '../../src/own-code/realm-bridge.js';
import type { ModuleLoader } from '../../src/own-code/loader.js';
import { oneRequestScenario } from './module-scenario.js';
import { runSimulated } from '../../src/backends/default-backend.js';

const hostRequire = createRequire(import.meta.url);

/** A sandbox on a bare context, with primitives that record what they are asked. */
function sandbox(): { s: Sandbox; reports: unknown[] } {
  const reports: unknown[] = [];
  const context = vm.createContext({});
  const s = new Sandbox(context, '/srv/locks/lock.mjs');
  const noop = (): undefined => undefined;
  const prims = {
    wallNow: () => 0, monoNow: () => 0, startedMs: () => 0, rand: () => 0.5, randomFill: (b: Uint8Array) => b,
    setTimeout: noop, setInterval: noop, setImmediate: noop, clearTimeout: noop, clearInterval: noop, clearImmediate: noop,
    queueMicrotask: noop, nextTick: noop, store: noop, runIn: (_s: unknown, fn: () => unknown) => fn(),
    report: (...a: unknown[]) => { reports.push(a); },
  };
  s.attach({ prims } as unknown as GlueApi);
  s.begin({ client: 1, name: 'client-1', incarnation: 0, baseDir: '/srv/locks', timeZone: 'UTC', locale: 'en-US' });
  return { s, reports };
}

const view = (s: Sandbox, name: string): Record<string, unknown> => s.builtin(name, '/srv/locks/lock.mjs', {} as ModuleLoader) as Record<string, unknown>;

describe('the sandbox names every builtin', () => {
  it('classifies each of module.builtinModules', () => {
    expect(builtinModules.filter((m) => !(m in BUILTINS))).toEqual([]);
    for (const [name, t] of Object.entries(BUILTINS)) {
      if (t === 'virtual') expect(VIRTUAL_MODULES[name], name).toBeDefined();
      if (t === 'refused') expect(REFUSED[name], name).toBeDefined();
    }
  });

  it('gives each virtual module every export of the host module, each simulated, listed as pure, or refused', () => {
    const { s } = sandbox();
    const unclassified: string[] = [];
    for (const [name, t] of Object.entries(BUILTINS)) {
      if (t !== 'virtual') continue;
      const host = hostRequire(`node:${name}`);
      const v = view(s, name);
      const spec = VIRTUAL_MODULES[name];
      const pure = (k: string): boolean => (typeof spec.pure === 'function' ? spec.pure(k) : spec.pure.includes(k));
      for (const key of Object.keys(host)) {
        if (!(key in v)) unclassified.push(`${name}.${key} missing`);
        else if (v[key] === host[key] && (typeof host[key] === 'function' || (typeof host[key] === 'object' && host[key] !== null)) && !pure(key)) unclassified.push(`${name}.${key} passed through unlisted`);
      }
    }
    expect(unclassified).toEqual([]);
  });

  it('classifies every member of process', () => {
    expect(Object.keys(process).filter((k) => !(k in PROCESS_MEMBERS))).toEqual([]);
  });

  it('classifies every global Node adds to a bare context', () => {
    const own = new Set(vm.runInContext('Object.getOwnPropertyNames(globalThis)', vm.createContext({})) as string[]);
    const node = Object.getOwnPropertyNames(globalThis).filter((k) => !own.has(k) && !k.startsWith('__') && !['__filename', '__dirname', 'require', 'module', 'exports'].includes(k));
    expect(node.filter((k) => !(k in NODE_GLOBALS))).toEqual([]);
  });

  it('freezes every pure module view', () => {
    const { s } = sandbox();
    for (const [name, t] of Object.entries(BUILTINS)) if (t === 'pure') expect(Object.isFrozen(view(s, name)), name).toBe(true);
  });

  it('refuses every function of a refused module, naming module and call, and reports it', () => {
    const { s, reports } = sandbox();
    let calls = 0;
    for (const [name, t] of Object.entries(BUILTINS)) {
      if (t !== 'refused' || name === 'test' || name === 'sea') continue;
      const v = view(s, name);
      for (const [key, value] of Object.entries(v)) {
        if (typeof value !== 'function' || REFUSED[name].pure?.includes(key)) continue;
        calls += 1;
        expect(() => (value as () => unknown)(), `${name}.${key}`).toThrow(`lock-sim refused node:${name} `);
      }
    }
    expect(calls).toBeGreaterThan(100);
    expect(reports).toHaveLength(calls);
  });

  it('... while a pure member of a refused module passes (net.isIP)', () => {
    const { s } = sandbox();
    expect((view(s, 'net').isIP as (a: string) => number)('127.0.0.1')).toBe(4);
  });
});

describe('a module importing every builtin', () => {
  const run = () => {
    const scenario = oneRequestScenario('every-builtin', 'every-builtin.mjs', '{}');
    const r = runSimulated(scenario, scenario.variants[0]);
    const op = r.history.find((o) => o.f === 'acquire' && o.type === 'fail');
    const detail = op && 'detail' in op ? String(op.detail) : '';
    return { seen: JSON.parse(detail.slice(detail.indexOf('RESULTS ') + 8).replace(/ \(at [^)]*\)$/, '')), r };
  };

  it('loads them by name and dynamically, sleeps on simulated time, and is refused real I/O', () => {
    const { seen, r } = run();
    expect(Object.keys(seen.named).sort()).toEqual([...builtinModules].sort());
    expect(Object.entries(seen.dynamic).filter(([, v]) => v !== true)).toEqual([]);
    expect(seen.named.crypto).toBeGreaterThan(60);
    expect(seen.slept).toBe(250);
    expect(seen.refused.net).toBe('lock-sim refused node:net connect() (called at modules/every-builtin.mjs:92:61): real network I/O is not simulated: talk to Redis through the clients the factory receives');
    for (const name of ['child_process', 'http', 'fs', 'vm']) expect(seen.refused[name]).toMatch(new RegExp(`^lock-sim refused node:${name} `));
    expect(r.history.filter((o) => o.f === 'diagnostic' && o.kind === 'refused-call')).toHaveLength(5);
    expect(seen).toMatchObject({ host: 'client-1', pid: 1001, hr: true, uptime: true, uuid: 36, int: true, dateCall: 'string', zone: 'UTC', number: '1,234,567.891', pathFrozen: true });
    expect(seen.date).toBe('Mon Jan 01 2024 12:30:00 GMT+0000 (Coordinated Universal Time)');
  });
});

describe('a module reading local time and formatting numbers', () => {
  it('sees the same under any host time zone and locale (UTC and en-US, the defaults)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-sim-tz-'));
    const file = join(dir, 'tz.yaml');
    const module = join(dirname(fileURLToPath(import.meta.url)), 'modules/every-builtin.mjs');
    writeFileSync(file, `name: tz\nseed: 1\nduration: 2s\nstock: { sku: 1, available: 10 }\nworkload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }] }\nvariants:\n  v: { lock: { module: ${JSON.stringify(module)} } }\n`);
    const script = `import { loadScenario } from './dist/scenario/load.js'; import { runSimulated } from './dist/backends/default-backend.js';
      const s = loadScenario(${JSON.stringify(file)}); const r = runSimulated(s, s.variants[0]);
      console.log(r.history.find((o) => o.f === 'acquire' && o.type === 'fail').detail);`;
    const seen = (env: Record<string, string>): string => execFileSync('node', ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
    const utc = seen({ TZ: 'UTC', LANG: 'C', LC_ALL: 'C' });
    expect(seen({ TZ: 'Asia/Shanghai', LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' })).toBe(utc);
    expect(utc).toContain('Mon Jan 01 2024 12:30:00 GMT+0000 (Coordinated Universal Time)');
  });
});
