/** The workload's client processes: identities across a restart. */
import { describe, expect, it } from 'vitest';
import { runYaml } from '../helpers.js';

const world = (faults: string) => `
name: restart-identity
duration: 40s
drain: 10s
stock: { sku: 1, available: 100000 }
workload: { clients: 1, workers: 1, users: 1, think: 100ms, steps: [lock, work, unlock] }
dependencies: { work: 5s }
faults:
${faults}
variants:
  redisson: { lock: redisson }
`;

const acquiredBetween = (r: ReturnType<typeof runYaml>, fromUs: number, toUs: number) =>
  r.history.filter((op) => op.f === 'acquire' && op.type === 'ok' && op.timeUs > fromUs && op.timeUs < toUs);

describe('a restarted client process', () => {
  it('gets a new Redisson instance id: its thread cannot re-enter the lock its killed incarnation left', () => {
    // Killed at 2 s inside a critical section, back at 3 s; the orphaned hold (30 s lease,
    // the watchdog died with the process) keeps the same thread out until it expires.
    const r = runYaml(world('  - { kind: crash, client: 1, at: 2s, restart-after: 1s }'));
    expect(acquiredBetween(r, 3e6, 30e6)).toEqual([]);
    expect(r.metrics.outcomes['lock-busy']).toBeGreaterThan(0);
    expect(acquiredBetween(r, 30e6, 40e6).length).toBeGreaterThan(0);
    expect(r.metrics.orphanLockUs).toBeGreaterThan(27e6);
  });

  it('without the kill, the same thread takes the lock again after each release', () => {
    const r = runYaml(world('  []'));
    expect(acquiredBetween(r, 3e6, 30e6).length).toBeGreaterThan(3);
    expect(r.metrics.outcomes['lock-busy']).toBe(0);
    expect(r.metrics.orphanLockUs).toBe(0);
  });
});

describe('a worker thread', () => {
  const oneWorker = (requests: string) => `
name: one-worker
duration: 10s
drain: 5s
stock: { sku: 1, available: 100 }
workload: { clients: 1, workers: 1, requests: ${requests}, steps: [lock, work, unlock] }
dependencies: { work: 10ms }
variants:
  v: { lock: lua-unlock, lease: 5s }
`;
  const acquireInvokedS = (r: ReturnType<typeof runYaml>) =>
    r.history.flatMap((op) => (op.f === 'acquire' && op.type === 'invoke' && 'request' in op ? [[op.request, op.timeUs / 1e6]] : []));

  it('idle, wakes at the instant a request arrives and serves it', () => {
    const r = runYaml(oneWorker('[{ at: 1s, sku: 1 }]'));
    expect(acquireInvokedS(r)).toEqual([['r1', 1]]);
    expect(r.metrics.outcomes.ordered + r.metrics.outcomes['sold-out']).toBe(1);
  });

  it('idles again after each request and wakes at each arrival (one wake-up signal, rearmed)', () => {
    const r = runYaml(oneWorker('[{ at: 1s, sku: 1 }, { at: 2s, sku: 1 }, { at: 3.5s, sku: 1 }]'));
    expect(acquireInvokedS(r)).toEqual([['r1', 1], ['r2', 2], ['r3', 3.5]]);
  });

  it('busy, leaves a second request queued until the first is done, then serves it without idling', () => {
    const r = runYaml(oneWorker('[{ at: 1s, sku: 1 }, { at: 1.001s, sku: 1 }]'));
    const [[, first], [, second]] = acquireInvokedS(r);
    expect(first).toBe(1);
    // The first request's lock, 10 ms of work and unlock come before the second starts.
    expect(second).toBeGreaterThan(1.01);
    expect(r.metrics.requests).toBe(2);
  });
});
