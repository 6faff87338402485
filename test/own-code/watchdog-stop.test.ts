/**
 * `watchdog-stop`: a timer chain of a request that holds its lock and talks to Redis (a
 * refresh loop) that no longer has a timer armed when the request releases stopped while the
 * lock was held. Next to it what must not count: a refresh that runs until the release, the
 * retry sleeps of a polling acquire, a lock with no refresh.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { loadScenario, parseScenario } from '../../src/scenario/load.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function stops(lock: string, work = 'uniform(3s, 4s)'): { stops: string[]; orders: number } {
  const s = parseScenario(
    `
name: watchdog-stop
seed: 1
duration: 20s
stock: { sku: 1, available: 100000 }
workload: { clients: 2, workers: 2, users: 4, think: 100ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: "${work}" }
variants:
  v: { lock: ${lock}, lease: 1500ms, retry-interval: 50ms }
`,
    join(HERE, 'watchdog-stop.yaml'),
  );
  const r = runSimulated(s, s.variants[0]);
  return { stops: r.history.filter((o) => o.f === 'diagnostic' && o.kind === 'watchdog-stop').map((o) => (o as { frame?: string }).frame ?? ''), orders: r.metrics.orders };
}

describe('a refresh loop that stops while its lock is held', () => {
  it('is a watchdog-stop of each request whose chain gave up, located in the module', () => {
    const r = stops('{ module: ./modules/chain-refresh-lock.mjs, options: { stopAfter: 2 } }');
    expect(r.orders).toBeGreaterThan(5);
    // Each critical section (3-4 s) outlasts two refreshes 0.5 s apart: every order's chain stopped.
    expect(r.stops.length).toBe(r.orders);
    expect(r.stops[0]).toMatch(/^modules\/chain-refresh-lock\.mjs:\d+:\d+$/);
  });

  it('is none when the chain runs until the release, when a short section releases first, or without a refresh', () => {
    expect(stops('{ module: ./modules/chain-refresh-lock.mjs }').stops).toEqual([]);
    expect(stops('{ module: ./modules/chain-refresh-lock.mjs, options: { stopAfter: 2 } }', 'uniform(100ms, 400ms)').stops).toEqual([]);
    expect(stops('{ module: ./modules/chain-refresh-lock.mjs, options: { refreshes: false } }', 'uniform(100ms, 400ms)').stops).toEqual([]);
    expect(stops('{ module: ./modules/refresh-lock.mjs }').stops).toEqual([]);
  });
});

describe('libraries of the corpus', () => {
  it('redlock-universal 0.8.5: the extension refused after a GC pause stops its chain; a 10 s TTL keeps it', () => {
    const s = loadScenario('scenarios/own-code/redlock-universal-gc-pause.yaml');
    const count = (name: string): number => runSimulated(s, s.variants.find((v) => v.name === name)!).history.filter((o) => o.f === 'diagnostic' && o.kind === 'watchdog-stop').length;
    expect(count('using-3s')).toBe(1);
    expect(count('using-10s')).toBe(0);
  });
});
