/** What a client does when the lock is busy, and the finally block that unlocks regardless. */
import { describe, expect, it } from 'vitest';
import { runYaml } from '../helpers.js';

const stuck = (wait: string) => `
name: stuck
duration: 30s
drain: 1s
stock: { sku: 1, available: 100000, count: 4 }
workload: { clients: 1, workers: 8, arrival: 20/s, queue-limit: 20, steps: [lock, read, deduct, order, unlock] }
faults:
  - { kind: crash, client: 1, at: 2s, point: between-setnx-and-expire, restart-after: 100ms }
variants:
  v: { lock: setnx-expire, lease: 5s, wait: ${wait}, retry-interval: 50ms }
`;

describe('wait', () => {
  it('forever: workers pile up on a stuck lock until the queue overflows for every SKU', () => {
    const r = runYaml(stuck('forever'));
    expect(r.metrics.outcomes.overloaded).toBeGreaterThan(100);
  });
  it('bounded: requests for the stuck SKU give up and the others are served', () => {
    const r = runYaml(stuck('200ms'));
    expect(r.metrics.outcomes.overloaded).toBe(0);
    expect(r.metrics.outcomes['lock-busy']).toBeGreaterThan(50);
    expect(r.metrics.orders).toBeGreaterThan(300);
  });
});

describe('unlock-always (a finally block around the whole method)', () => {
  const world = (lock: string) => `
name: finally
duration: 10s
stock: { sku: 1, available: 100000 }
workload: { clients: 2, workers: 8, arrival: 100/s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 20ms }
variants:
  v: { lock: ${lock}, lease: 30s, unlock-always: true }
`;
  it('with a plain DEL deletes the holder\'s lock on every refused attempt', () => {
    const r = runYaml(world('set-nx-px'));
    expect(r.metrics.foreignUnlocks).toBeGreaterThan(50);
    expect(r.metrics.maxHolders).toBeGreaterThanOrEqual(3);
  });
  it('with the token compare-and-delete is harmless', () => {
    const r = runYaml(world('lua-unlock'));
    expect(r.metrics.foreignUnlocks).toBe(0);
    expect(r.metrics.doubleHolders).toBe(0);
  });
});
