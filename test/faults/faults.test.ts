/**
 * Each fault in a small world through the real pipeline: what it must break, and a
 * neighbouring case where it must not (a fault that never changes anything is a defect).
 */
import { describe, expect, it } from 'vitest';
import { runYaml } from '../helpers.js';
import type { RunResult } from '../../src/runner/run.js';

/** One client serving one shopper at a time; each request holds the lock for `work`. */
function world(opts: { faults: string[]; lock?: string; redis?: string; work?: string; duration?: string; clients?: number }): string {
  return `
name: fault-test
duration: ${opts.duration ?? '40s'}
drain: 30s
stock: { sku: 1, available: 100000 }
workload: { clients: ${opts.clients ?? 2}, workers: 2, users: 2, think: 50ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: ${opts.work ?? '2s'} }
${opts.redis ? `redis: ${opts.redis}` : ''}
faults:
${opts.faults.length ? opts.faults.map((f) => `  - ${f}`).join('\n') : '  []'}
variants:
  v: { ${opts.lock ?? 'lock: lua-unlock, lease: 5s, wait: 10s, retry-interval: 20ms'} }
`;
}

const faultEvents = (r: RunResult, fault: string) =>
  r.history.filter((op) => op.f === 'fault' && op.fault === fault).map((op) => (op.f === 'fault' ? `${op.phase}@${op.timeUs / 1e6}s` : ''));

describe('redis-pause (DEBUG SLEEP)', () => {
  it('makes commands wait (and time out) while the node sleeps, without losing the lock', () => {
    const r = runYaml(world({ faults: ['{ kind: redis-pause, node: redis-0, at: 10s, duration: 5s }'] }));
    expect(r.metrics.timeouts).toBeGreaterThan(0);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(faultEvents(r, 'redis-pause')).toEqual(['start@10s', 'end@15s']);
  });

  it('gets a sentinel primary failed over when it sleeps past down-after, and not when it wakes in time', () => {
    const sentinel = '{ topology: sentinel, replicas: 1, down-after: 2s }';
    const long = runYaml(world({ redis: sentinel, faults: ['{ kind: redis-pause, node: primary, at: 10s, duration: 6s }'] }));
    expect(faultEvents(long, 'failover')).toHaveLength(1);
    const short = runYaml(world({ redis: sentinel, faults: ['{ kind: redis-pause, node: primary, at: 10s, duration: 1s }'] }));
    expect(faultEvents(short, 'failover')).toEqual([]);
  });
});

describe('redis-restart', () => {
  const lock = 'lock: lua-unlock, lease: 20s, wait: 30s, retry-interval: 20ms';
  it('without persistence forgets the lock: a second holder walks in', () => {
    const r = runYaml(world({ lock, work: '5s', faults: ['{ kind: redis-restart, node: redis-0, at: 11s, persistence: none }'] }));
    expect(r.metrics.lockLost).toBeGreaterThan(0);
    expect(r.metrics.doubleHolders).toBeGreaterThan(0);
  });
  it('with fsync-always persistence keeps it: nobody else gets in', () => {
    const r = runYaml(world({ lock, work: '5s', faults: ['{ kind: redis-restart, node: redis-0, at: 11s, persistence: always }'] }));
    expect(r.metrics.lockLost).toBe(0);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(faultEvents(r, 'redis-restart')).toEqual(['start@11s', 'end@11s']);
  });
});

describe('clock-jump', () => {
  it('forward on the Redis node expires a held lock early', () => {
    const r = runYaml(world({ faults: ['{ kind: clock-jump, target: redis-0, at: 11s, by: +10s }'] }));
    expect(r.metrics.lockLost).toBeGreaterThan(0);
    expect(r.metrics.doubleHolders).toBeGreaterThan(0);
  });
  it('backward on the Redis node only makes locks live longer', () => {
    const r = runYaml(world({ faults: ['{ kind: clock-jump, target: redis-0, at: 11s, by: -10s }'] }));
    expect(r.metrics.lockLost).toBe(0);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.metrics.orders).toBeGreaterThan(10);
  });
});

describe('clock-drift', () => {
  it('a Redis clock running 50% fast expires a 5s lease during 4s of work', () => {
    const r = runYaml(world({ faults: ['{ kind: clock-drift, target: redis-0, at: 10s, duration: 10s, ppm: 500000 }'], work: '4s' }));
    expect(r.metrics.lockLost).toBeGreaterThan(0);
  });
  it('without drift the same work fits in the lease', () => {
    const r = runYaml(world({ faults: [], work: '4s' }));
    expect(r.metrics.lockLost).toBe(0);
  });
});

describe('partition', () => {
  it('cuts a client off from Redis (its commands time out) and heals', () => {
    const r = runYaml(world({ faults: ['{ kind: partition, at: 10s, duration: 10s, isolate: [client-1], from: [redis-0] }'] }));
    expect(r.metrics.timeouts).toBeGreaterThan(0);
    const late = r.history.filter((op) => op.f === 'acquire' && op.type === 'ok' && op.timeUs > 25e6 && op.process.startsWith('client-1'));
    expect(late.length).toBeGreaterThan(0);
  });
  it('leaves hosts it does not name alone', () => {
    const r = runYaml(world({ faults: ['{ kind: partition, at: 10s, duration: 10s, isolate: [client-1], from: [client-2] }'] }));
    expect(r.metrics.timeouts).toBe(0);
  });
});

describe('network-delay and db-slow', () => {
  const base = runYaml(world({ faults: [], work: '10ms' }));
  it('network-delay adds its delay to every Redis round trip of the target', () => {
    const r = runYaml(world({ faults: ['{ kind: network-delay, target: redis-0, at: 0s, duration: 40s, delay: 100ms }'], work: '10ms' }));
    // acquire + release: two round trips, each 2 x 100 ms longer.
    expect(r.metrics.latencyP50Us - base.metrics.latencyP50Us).toBeGreaterThanOrEqual(390_000);
    expect(r.metrics.latencyP50Us - base.metrics.latencyP50Us).toBeLessThan(420_000);
  });
  it('db-slow multiplies statement time', () => {
    const r = runYaml(world({ faults: ['{ kind: db-slow, at: 0s, duration: 40s, factor: 100 }'], work: '10ms' }));
    expect(r.metrics.latencyP50Us).toBeGreaterThan(base.metrics.latencyP50Us + 300_000);
  });
});
