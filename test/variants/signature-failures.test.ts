/** Each lock's known failure, reproduced in a small world, next to a case where it must not fail. */
import { describe, expect, it } from 'vitest';
import { runYaml } from '../helpers.js';

/** Two shoppers back to back; the critical section (risk check) is longer than a 1s lease. */
const leaseShorterThanWork = (lock: string, extra = '') => `
name: lease-too-short
duration: 10s
drain: 30s
stock: { sku: 1, available: 100 }
workload: { clients: 2, workers: 1, users: 2, think: 100ms, steps: [lock, read, risk-check, deduct, order, unlock] }
dependencies: { risk-check: 1500ms }
variants:
  v: { lock: ${lock}, lease: 1s, wait: 5s, retry-interval: 10ms ${extra} }
`;

describe('set-nx-px (constant value, plain DEL)', () => {
  it('deletes another holder\'s lock after its own lease expired', () => {
    const r = runYaml(leaseShorterThanWork('set-nx-px'));
    expect(r.metrics.foreignUnlocks).toBeGreaterThan(0);
    expect(r.metrics.doubleHolders).toBeGreaterThan(0);
  });
  it('does not when the lease outlives the work', () => {
    const r = runYaml(leaseShorterThanWork('set-nx-px').replace('lease: 1s', 'lease: 5s'));
    expect(r.metrics.foreignUnlocks).toBe(0);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.metrics.orders).toBeGreaterThan(3);
  });
});

describe('lua-unlock', () => {
  it('never deletes another holder\'s lock, but still loses the lock when the lease is too short', () => {
    const r = runYaml(leaseShorterThanWork('lua-unlock'));
    expect(r.metrics.foreignUnlocks).toBe(0);
    expect(r.metrics.lockLost).toBeGreaterThan(0);
    expect(r.metrics.doubleHolders).toBeGreaterThan(0);
  });
});

describe('setnx-expire', () => {
  const crashBetween = (withCrash: boolean) => `
name: setnx-crash
duration: 60s
drain: 5s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 2, arrival: 5/s }
variants:
  v: { lock: setnx-expire, lease: 5s }
faults:
${withCrash ? '  - { kind: crash, client: 1, at: 10s, point: between-setnx-and-expire }' : '  []'}
`;
  it('a crash between SETNX and EXPIRE leaves a lock with no TTL for the rest of the run', () => {
    const r = runYaml(crashBetween(true).replace('faults:\n  - ', 'faults:\n  - '));
    const crash = r.history.find((o) => o.f === 'fault' && o.fault === 'crash');
    expect(crash).toBeDefined();
    const restUs = 60_000_000 - (crash?.timeUs ?? 0);
    // Stuck from the crash to the end of the run (plus the drain, when the run ends).
    expect(r.metrics.stuckLockUs).toBeGreaterThanOrEqual(restUs);
    const ordersAfter = r.history.filter((o) => o.f === 'order' && o.type === 'ok' && o.timeUs > (crash?.timeUs ?? 0));
    expect(ordersAfter).toHaveLength(0);
    expect(r.metrics.outcomes['lock-busy']).toBeGreaterThan(100);
  });
  it('without the crash nothing is stuck', () => {
    const r = runYaml(crashBetween(false).replace('faults:\n  []', 'faults: []'));
    expect(r.metrics.stuckLockUs).toBe(0);
    expect(r.metrics.orders).toBeGreaterThan(100);
  });
});

describe('redisson', () => {
  const longSection = (lease: string) => `
name: redisson-40s
duration: 5s
drain: 120s
stock: { sku: 1, available: 10 }
workload: { clients: 2, workers: 1, users: 2, think: 1s, steps: [lock, read, risk-check, deduct, order, unlock] }
dependencies: { risk-check: 40s }
variants:
  v: { lock: redisson, wait: 100s ${lease} }
`;
  it('with the watchdog (no lease) survives a 40s critical section', () => {
    const r = runYaml(longSection(''));
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.metrics.lockLost).toBe(0);
    expect(r.metrics.renewals).toBeGreaterThanOrEqual(3);
    expect(r.metrics.orders).toBeGreaterThanOrEqual(2);
  });
  it('with a 10s lease the watchdog is off and the lock expires mid-section', () => {
    const r = runYaml(longSection(', lease: 10s'));
    expect(r.metrics.renewals).toBe(0);
    expect(r.metrics.lockLost).toBeGreaterThan(0);
    expect(r.metrics.doubleHolders).toBeGreaterThan(0);
  });
  it('after kill -9 of the holder the lock lives about one watchdog lease, then others proceed', () => {
    const r = runYaml(`
name: redisson-kill
duration: 60s
drain: 5s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 1, arrival: 2/s, steps: [lock, read, risk-check, deduct, order, unlock] }
dependencies: { risk-check: 5s }
variants:
  v: { lock: redisson }
faults:
  - { kind: crash, client: 1, at: 2s }
`);
    const stuckS = r.metrics.stuckLockUs / 1e6;
    expect(stuckS).toBeGreaterThan(20);
    expect(stuckS).toBeLessThanOrEqual(30.1);
    expect(r.metrics.orders).toBeGreaterThan(3);
  });
});
