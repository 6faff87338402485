/** Redisson's options: WAIT-based replica sync and what the watchdog does after an error. */
import { describe, expect, it } from 'vitest';
import { runYaml } from '../helpers.js';

describe('redisson sync-replicas (WAIT after acquire and renew)', () => {
  const world = (sync: boolean, faults: string) => `
name: wait-sync
duration: 20s
drain: 10s
stock: { sku: 1, available: 100000 }
workload: { clients: 1, workers: 2, users: 1, think: 100ms, steps: [lock, read, deduct, order, unlock] }
redis: { topology: sentinel, replicas: 1, down-after: 60s }
faults:
${faults}
variants:
  v: { lock: redisson, sync-replicas: ${sync} }
`;
  const stall = '  - { kind: primary-crash, at: 19s, replication-stalled-for: 9s }';

  it('gives the lock back and fails when no replica acknowledges within 1 s', () => {
    const r = runYaml(world(true, stall));
    const fails = r.history.flatMap((op) => (op.f === 'acquire' && op.type === 'fail' ? [op] : []));
    expect(fails.length).toBeGreaterThan(0);
    expect(fails[0].detail).toBe('None of slaves were synced; lock given back');
    // Given back on the primary: each refused request deleted the key it had just set.
    for (const fail of fails.filter((op) => op.detail?.startsWith('None'))) {
      const givenBack = r.history.some((op) => op.f === 'key-state' && op.node === 'redis-0' && op.cause === 'delete' && op.by === fail.request && op.timeUs <= fail.timeUs);
      expect(givenBack).toBe(true);
    }
    expect(r.history.filter((op) => op.f === 'acquire' && op.type === 'ok' && op.timeUs > 11e6 && op.timeUs < 19e6)).toEqual([]);
  });

  it('acquires normally while the replica keeps up (and WAIT costs a round trip)', () => {
    const r = runYaml(world(true, '  []'));
    expect(r.metrics.outcomes['lock-error']).toBe(0);
    const unsynced = runYaml(world(false, '  []'));
    expect(r.metrics.latencyP50Us).toBeGreaterThan(unsynced.metrics.latencyP50Us);
  });

  it('without sync takes locks the replica never sees', () => {
    const r = runYaml(world(false, stall));
    expect(r.history.filter((op) => op.f === 'acquire' && op.type === 'fail')).toEqual([]);
  });
});

describe('redisson sync-replicas on a partitioned old primary', () => {
  // redis-0 and client-1 are cut off from everyone at 10 s; Sentinel promotes a replica, and
  // client-1 keeps locking on redis-0, which still lists both replicas until repl-timeout.
  const world = (replTimeout: string) => `
name: old-primary-wait
duration: 100s
drain: 10s
stock: { sku: 1, available: 100000 }
workload: { clients: 2, workers: 1, users: 2, think: 500ms, steps: [lock, read, deduct, order, unlock] }
redis: { topology: sentinel, replicas: 2, down-after: 1s, repl-timeout: ${replTimeout} }
faults:
  - { kind: partition, at: 10s, duration: 80s, isolate: [redis-0, client-1] }
variants:
  v: { lock: redisson }
`;
  const client1 = (replTimeout: string) => {
    const r = runYaml(world(replTimeout));
    const acquires = r.history.flatMap((op) => (op.f === 'acquire' && op.process.startsWith('client-1') && op.timeUs > 10e6 && op.timeUs < 90e6 ? [op] : []));
    return {
      firstOkS: (acquires.find((op) => op.type === 'ok')?.timeUs ?? 0) / 1e6,
      refusals: acquires.filter((op) => op.type === 'fail' && op.detail === 'None of slaves were synced; lock given back').length,
    };
  };

  it('WAIT finds no acknowledgement and the lock is given back until repl-timeout (60 s) drops the replicas', () => {
    const { firstOkS, refusals } = client1('60s');
    expect(refusals).toBeGreaterThan(20);
    expect(firstOkS).toBeGreaterThan(70);
  });

  it('with repl-timeout 10s the old primary counts no replica from 20 s on, and Redisson grants unsynced locks there', () => {
    const { firstOkS, refusals } = client1('10s');
    expect(refusals).toBeGreaterThan(0);
    expect(firstOkS).toBeGreaterThan(20);
    expect(firstOkS).toBeLessThan(22);
  });
});

describe('redisson watchdog-on-error', () => {
  // One long critical section; the only Redis node sleeps 5 s (> the 3 s command timeout)
  // exactly when the first renewal (10 s after acquiring) is sent.
  const world = (mode: string) => `
name: watchdog-error
duration: 20s
drain: 120s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, users: 1, think: 2s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 70s }
faults:
  - { kind: redis-pause, node: redis-0, at: 11900ms, duration: 5s }
variants:
  v: { lock: redisson, watchdog-on-error: ${mode} }
`;

  it('stop (3.14-3.43): one failed renewal ends renewal for good and the lease runs out', () => {
    const r = runYaml(world('stop'));
    expect(r.metrics.renewalFailures).toBe(1);
    expect(r.metrics.lockLost).toBe(1);
  });

  it('continue (3.44+): renewal resumes on the next tick and the lock is kept', () => {
    const r = runYaml(world('continue'));
    expect(r.metrics.renewalFailures).toBe(1);
    expect(r.metrics.renewals).toBeGreaterThan(4);
    expect(r.metrics.lockLost).toBe(0);
  });
});
