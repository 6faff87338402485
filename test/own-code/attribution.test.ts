/**
 * Attribution by the lock's identity: a lock taken by code outside any request (a pub/sub
 * listener waking its waiters, as simple-redis-mutex 3.0.0 does) belongs to the waiting
 * request on that key, and a `keys` pattern matches whole keys (a counter next to the lock
 * key is no lock key). Each on a correct run: no lock lost, no foreign unlock, no orphan or
 * stuck time, next to the same run's critical sections (no double holder).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function run(lock: string, workers: number) {
  const s = parseScenario(
    `
name: attribution
seed: 1
duration: 20s
stock: { sku: 1, available: 100000 }
workload: { clients: 2, workers: ${workers}, users: ${2 * workers}, think: "uniform(10ms, 50ms)", steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: "uniform(20ms, 80ms)" }
variants:
  v: { lock: ${lock}, lease: 5s, wait: 30s, retry-interval: 50ms }
`,
    join(HERE, 'attribution.yaml'),
  );
  const m = runSimulated(s, s.variants[0]).metrics;
  return { ordered: m.orders, doubleHolders: m.doubleHolders, lockLost: m.lockLost, foreignUnlocks: m.foreignUnlocks, stuckLockUs: m.stuckLockUs, orphanLockUs: m.orphanLockUs };
}

const CLEAN = { doubleHolders: 0, lockLost: 0, foreignUnlocks: 0, stuckLockUs: 0, orphanLockUs: 0 };

describe('a lock taken in a pub/sub listener', () => {
  it.each([1, 3])('is the waiting request\'s (a hand-written pub/sub lock, %i workers a process)', (workers) => {
    const r = run('{ module: ./modules/pubsub-wakeup.mjs }', workers);
    expect(r.ordered).toBeGreaterThan(50);
    expect(r).toMatchObject(CLEAN);
  });

  it('is the request whose acquire returned it, when the waiter that came last wins', () => {
    const r = run('{ module: ./modules/pubsub-wakeup.mjs, options: { lastFirst: true } }', 3);
    expect(r.ordered).toBeGreaterThan(50);
    expect(r).toMatchObject(CLEAN);
  });

  it.each([1, 3])('is the waiting request\'s (npm simple-redis-mutex 3.0.0 on node-redis v5, %i workers a process)', (workers) => {
    const r = run('{ module: ./modules/simple-redis-mutex.mjs, client: node-redis, keys: "@simple-redis-mutex:lock-{key}" }', workers);
    expect(r.ordered).toBeGreaterThan(50);
    expect(r).toMatchObject(CLEAN);
  });
});

describe('a counter next to the lock key (`<key>:next-id`, no TTL)', () => {
  it('is no lock key: no stuck lock on a correct run', () => {
    const r = run('{ module: ./modules/fifo-next-id.mjs }', 2);
    expect(r.ordered).toBeGreaterThan(50);
    expect(r).toMatchObject(CLEAN);
  });
});
