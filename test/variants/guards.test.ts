/**
 * Database guards without any lock in front (the hardest case for them): what each one
 * lets through and what it refuses, on one hot SKU with overlapping requests.
 */
import { describe, expect, it } from 'vitest';
import { runYaml } from '../helpers.js';

/** Shoppers racing for a few units; every request reads, thinks 50 ms, then writes. */
const race = (guard: string, opts: { available?: number; extra?: string; lock?: string } = {}) => `
name: guard-race
duration: 10s
drain: 30s
stock: { sku: 1, available: ${opts.available ?? 20} }
workload: { clients: 2, workers: 8, arrival: 40/s, steps: [lock, read, think, deduct, order, unlock] }
dependencies: { think: 50ms }
variants:
  v: { lock: ${opts.lock ?? 'none'}, guard: ${guard} ${opts.extra ?? ''} }
`;

describe('guard none (read-modify-write)', () => {
  it('loses updates and oversells when requests overlap', () => {
    const r = runYaml(race('none'));
    expect(r.metrics.lostUpdates).toBeGreaterThan(0);
    expect(r.metrics.oversold).toBeGreaterThan(0);
  });
  it('is exact when a working lock serialises the requests', () => {
    const r = runYaml(race('none', { lock: 'lua-unlock, lease: 5s, wait: 5s, retry-interval: 5ms' }));
    expect(r.metrics.lostUpdates).toBe(0);
    expect(r.metrics.oversold).toBe(0);
    expect(r.metrics.unitsSold).toBe(20);
  });
});

describe('guard decrement', () => {
  it('never loses an update but drives stock negative', () => {
    const r = runYaml(race('decrement'));
    expect(r.metrics.lostUpdates).toBe(0);
    expect(r.metrics.negativeStock).toBeGreaterThan(0);
    expect(r.metrics.oversold).toBe(r.metrics.negativeStock);
  });
  it('stays at zero when a working lock serialises the check and the decrement', () => {
    const r = runYaml(race('decrement', { lock: 'lua-unlock, lease: 5s, wait: 5s, retry-interval: 5ms' }));
    expect(r.metrics.negativeStock).toBe(0);
    expect(r.metrics.unitsSold).toBe(20);
  });
});

describe('guard conditional', () => {
  it('sells exactly the stock, whatever the overlap', () => {
    const r = runYaml(race('conditional'));
    expect(r.metrics.oversold).toBe(0);
    expect(r.metrics.negativeStock).toBe(0);
    expect(r.metrics.unitsSold).toBe(20);
    expect(r.metrics.refusedWrites).toBeGreaterThan(0);
  });
});

describe('guard version-cas', () => {
  it('never loses an update: conflicts are retried, then given up as "system busy"', () => {
    const r = runYaml(race('version-cas', { available: 1000 }));
    expect(r.metrics.lostUpdates).toBe(0);
    expect(r.metrics.oversold).toBe(0);
    expect(r.metrics.casConflicts).toBeGreaterThan(0);
    expect(r.metrics.outcomes.conflict).toBeGreaterThan(0);
  });
  it('retries exactly cas-retries times, with backoff, before giving up', () => {
    const r = runYaml(race('version-cas', { available: 1000, extra: ', cas-retries: 0' }));
    // Without retries every conflict is a give-up.
    expect(r.metrics.outcomes.conflict).toBe(r.metrics.casConflicts);
    const withRetries = runYaml(race('version-cas', { available: 1000, extra: ', cas-retries: 5, cas-backoff: 20ms' }));
    expect(withRetries.metrics.outcomes.conflict).toBeLessThan(r.metrics.outcomes.conflict);
    expect(withRetries.metrics.casConflicts).toBeGreaterThan(withRetries.metrics.outcomes.conflict);
  });
  it('has no conflicts when a lock serialises the requests', () => {
    const r = runYaml(race('version-cas', { available: 1000, lock: 'lua-unlock, lease: 5s, wait: 5s, retry-interval: 5ms' }));
    expect(r.metrics.casConflicts).toBe(0);
  });
});

describe('guard for-update', () => {
  it('serialises read-modify-write through the row lock: exact without any Redis lock', () => {
    const r = runYaml(race('for-update'));
    expect(r.metrics.lostUpdates).toBe(0);
    expect(r.metrics.oversold).toBe(0);
    expect(r.metrics.unitsSold).toBe(20);
    const reads = r.history.filter((op) => op.f === 'read-stock' && op.type === 'ok');
    expect(reads.every((op) => op.f === 'read-stock' && op.forUpdate === true)).toBe(true);
  });
  it('holds the row lock across the think time: requests queue behind it', () => {
    const plain = runYaml(race('conditional', { available: 100000 }));
    const locked = runYaml(race('for-update', { available: 100000 }));
    expect(locked.metrics.latencyP50Us).toBeGreaterThan(plain.metrics.latencyP50Us * 3);
  });
});
