/**
 * Attribution by the lock's identity on the real backend, for ioredis clients as for
 * node-redis ones: a lock taken by a pub/sub listener (code outside any request: the
 * subscriber's connection was made outside one) belongs to the waiting request on that key,
 * so a correct run shows no lock lost, no foreign unlock, no orphan or stuck time. Three
 * requests of one client on one SKU at once: the first takes the lock, the others wait and
 * are woken by its release's publish.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { hasRedis } from '../backends/real/redis-available.js';
import { runReal } from '../backends/real/real-runs.js';

function waitersWoken(lock: string) {
  return runReal(parseScenario(`
name: real-pubsub-attribution
duration: 4s
drain: 4s
stock: { sku: 1, available: 10 }
workload:
  clients: 1
  workers: 3
  requests:
    - { at: 1s, sku: 1, client: 1 }
    - { at: 1s, sku: 1, client: 1 }
    - { at: 1s, sku: 1, client: 1 }
  steps: [lock, read, work, deduct, order, unlock]
dependencies:
  work: 300ms
network:
  redis-latency: 1ms
variants:
  v: { lock: ${lock}, lease: 5s, wait: 10s }
`, 'real-pubsub-attribution.yaml'));
}

const CLEAN = { orders: 3, doubleHolders: 0, lockLost: 0, foreignUnlocks: 0, stuckLockUs: 0, orphanLockUs: 0 };

describe.skipIf(!hasRedis)('a lock taken in a pub/sub listener, on the real backend', () => {
  it('is the waiting request\'s, with ioredis clients (a hand-written pub/sub lock)', async () => {
    const r = await waitersWoken('{ module: ./test/own-code/modules/pubsub-wakeup.mjs }');
    expect(r.metrics).toMatchObject(CLEAN);
  });

  it('... and with node-redis clients (npm simple-redis-mutex 3.0.0)', async () => {
    const r = await waitersWoken('{ module: ./scenarios/own-code/locks/simple-redis-mutex.mjs, client: node-redis, keys: "@simple-redis-mutex:lock-{key}", options: { pollingInterval: 2000 } }');
    expect(r.metrics).toMatchObject(CLEAN);
  });
});
