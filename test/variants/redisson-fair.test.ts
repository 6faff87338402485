/**
 * Redisson's fair lock on the model, each failure next to its must-not-fail neighbour: a
 * mutex in arrival order under steady load; its waiters' queue timeouts (threadWaitTime, or
 * the tryLock's wait from 3.13.3) and what a waiter dropped from the queue does by version;
 * acquireFailed takes a waiter whose wait ran out off the queue; the keys it leaves behind.
 */
import { describe, expect, it } from 'vitest';
import { defaultThreadWaitTimeMs } from '../../src/variants/locks/redisson-fair.js';
import { runYaml } from '../helpers.js';

const world = (variant: string, o: { work?: string; duration?: string; faults?: string; arrival?: string } = {}) => `
name: fair
duration: ${o.duration ?? '30s'}
stock: { sku: 1, available: 100000 }
workload: { clients: 2, workers: 4, arrival: ${o.arrival ?? '10/s'}, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: "${o.work ?? 'uniform(20ms, 60ms)'}" }
${o.faults ?? ''}
variants:
  v: { lock: redisson-fair, ${variant} }
`;

/** One holder for 40 s from 10 s while others queue behind it (the slow call of redisson#3004's long holder). */
const longHold = 'faults: [{ kind: slow-call, dependency: work, at: 10s, duration: 35s, latency: 40s }]';

describe('redisson-fair', () => {
  it('is a mutex that hands the lock over in arrival order under steady load', () => {
    const r = runYaml(world('wait: 5s'));
    expect(r.metrics).toMatchObject({ maxHolders: 1, doubleHolders: 0, fifoOvertakes: 0, starvedWaiters: 0 });
    expect(r.metrics.orders).toBeGreaterThan(200);
    expect(r.violations).toEqual([]);
  });

  it('RLock under the same load is not judged for order (no fairness figures)', () => {
    const r = runYaml(world('wait: 5s').replace('lock: redisson-fair', 'lock: redisson'));
    expect(r.metrics.fifoOvertakes).toBeUndefined();
    expect(r.metrics.starvedWaiters).toBeUndefined();
  });

  it('threadWaitTime: 5 s before 3.13.3, 5 minutes from it (the constructor, then Config.fairLockWaitTimeout)', () => {
    expect(defaultThreadWaitTimeMs('3.11.0')).toBe(5000);
    expect(defaultThreadWaitTimeMs('3.13.2')).toBe(5000);
    expect(defaultThreadWaitTimeMs('3.13.3')).toBe(300_000);
    expect(defaultThreadWaitTimeMs('4.7.0')).toBe(300_000);
  });

  it('3.12.5, lock() behind a 40 s holder: waiters dropped after threadWaitTime (5 s) wait for good while others get the lock', () => {
    const r = runYaml(world('redisson-version: "3.12.5", wait: forever', { duration: '90s', arrival: '1/s', work: 'uniform(200ms, 400ms)', faults: longHold }));
    expect(r.metrics.starvedWaiters).toBeGreaterThan(0);
    expect(r.metrics.fifoOvertakes).toBeGreaterThan(0);
    expect(r.metrics.outcomes.unknown).toBe(r.metrics.starvedWaiters);
    expect(r.violations.map((v) => v.kind)).toEqual(expect.arrayContaining(['fifo-overtaken', 'waiter-starved']));
  });

  it('4.7.0 with its default 5 minutes: the same holder drops nobody, and the order holds', () => {
    const r = runYaml(world('wait: forever', { duration: '90s', arrival: '1/s', work: 'uniform(200ms, 400ms)', faults: longHold }));
    expect(r.metrics).toMatchObject({ fifoOvertakes: 0, starvedWaiters: 0 });
    expect(r.metrics.outcomes.unknown).toBe(0);
  });

  it('4.7.0 with thread-wait-time 5s: a dropped waiter is told the PTTL (3.32.0+), joins again at the end and gets the lock late', () => {
    const r = runYaml(world('wait: forever, thread-wait-time: 5s', { duration: '90s', arrival: '1/s', work: 'uniform(200ms, 400ms)', faults: longHold }));
    expect(r.metrics.fifoOvertakes).toBeGreaterThan(0);
    expect(r.metrics).toMatchObject({ starvedWaiters: 0 });
    expect(r.metrics.outcomes.unknown).toBe(0);
  });

  it('3.30.0 with thread-wait-time 5s (before the 3.32.0 fix): dropped waiters wait for good, as on 3.12', () => {
    const r = runYaml(world('redisson-version: "3.30.0", wait: forever, thread-wait-time: 5s', { duration: '90s', arrival: '1/s', work: 'uniform(200ms, 400ms)', faults: longHold }));
    expect(r.metrics.starvedWaiters).toBeGreaterThan(0);
  });

  it('tryLock from 3.13.3 queues a waiter for its own wait, not threadWaitTime: a 60 s wait behind the 40 s holder keeps its place', () => {
    const r = runYaml(world('redisson-version: "3.13.3", wait: 60s, thread-wait-time: 5s', { duration: '90s', arrival: '1/s', work: 'uniform(200ms, 400ms)', faults: longHold }));
    expect(r.metrics).toMatchObject({ fifoOvertakes: 0, starvedWaiters: 0 });
  });

  it('tryLock before 3.13.3 queues it for threadWaitTime whatever its wait: the same 60 s wait is dropped and overtaken', () => {
    const r = runYaml(world('redisson-version: "3.12.5", wait: 60s', { duration: '90s', arrival: '1/s', work: 'uniform(200ms, 400ms)', faults: longHold }));
    expect(r.metrics.fifoOvertakes).toBeGreaterThan(0);
  });

  it('a waiter whose wait runs out leaves the queue (acquireFailed): those behind it move up, nobody is overtaken', () => {
    const r = runYaml(world('wait: 300ms', { work: 'uniform(100ms, 300ms)' }));
    expect(r.metrics.outcomes['lock-busy']).toBeGreaterThan(0);
    expect(r.metrics).toMatchObject({ doubleHolders: 0, fifoOvertakes: 0, starvedWaiters: 0 });
    expect(r.metrics.orders).toBeGreaterThan(50);
  });
});
