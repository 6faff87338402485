/** Redisson's sync-replicas option (checkLockSyncedSlaves) at the current release. */
import { describe, expect, it } from 'vitest';
import { runYaml } from '../helpers.js';

describe('redisson sync-replicas (checkLockSyncedSlaves; WAIT after acquire, renew and unlock)', () => {
  const world = (options: string, faults: string) => `
name: wait-sync
duration: 40s
drain: 10s
stock: { sku: 1, available: 100000 }
workload: { clients: 1, workers: 2, users: 1, think: 100ms, steps: [lock, read, deduct, order, unlock] }
redis: { topology: sentinel, replicas: 1, down-after: 60s }
faults:
${faults}
variants:
  v: { lock: redisson${options} }
`;
  // The replication stream stalls from 10 s until the primary dies at 39 s.
  const stall = '  - { kind: primary-crash, at: 39s, replication-stalled-for: 29s }';

  it('gives the lock back, tries 4 more times, and fails when no replica acknowledges within 1 s', () => {
    const r = runYaml(world('', stall));
    const fails = r.history.flatMap((op) => (op.f === 'acquire' && op.type === 'fail' ? [op] : []));
    expect(fails.length).toBeGreaterThan(0);
    expect(fails[0].detail).toBe('None of slaves were synced. Try to increase slavesSyncTimeout setting or set checkLockSyncedSlaves = false.; lock given back');
    // Given back on the primary: each refused request deleted the key it had just set.
    for (const fail of fails.filter((op) => op.detail?.endsWith('lock given back'))) {
      const givenBack = r.history.some((op) => op.f === 'key-state' && op.node === 'redis-0' && op.cause === 'delete' && op.by === fail.request && op.timeUs <= fail.timeUs);
      expect(givenBack).toBe(true);
    }
    expect(r.history.filter((op) => op.f === 'acquire' && op.type === 'ok' && op.timeUs > 11e6 && op.timeUs < 39e6)).toEqual([]);
  });

  it('acquires normally while the replica keeps up, WAIT costing a round trip that versions before 3.12.5 did not pay', () => {
    const r = runYaml(world('', '  []'));
    expect(r.metrics.outcomes['lock-error']).toBe(0);
    const unsynced = runYaml(world(', redisson-version: "3.12.4"', '  []'));
    expect(r.metrics.latencyP50Us).toBeGreaterThan(unsynced.metrics.latencyP50Us);
  });

  it('false: WAIT is still sent (the same round trip) but its answer never fails a lock, so locks the replica never sees are taken', () => {
    const r = runYaml(world(', sync-replicas: false', stall));
    expect(r.history.filter((op) => op.f === 'acquire' && op.type === 'fail')).toEqual([]);
    const synced = runYaml(world('', '  []'));
    const unsynced = runYaml(world(', sync-replicas: false', '  []'));
    expect(unsynced.metrics.latencyP50Us).toBe(synced.metrics.latencyP50Us);
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
      // Redisson 4.7.0 gives each unsynced lock back and runs the whole acquire again (up to 4
      // times, 1-2 s apart) before the request fails: one refusal per ~17 s.
      refusals: acquires.filter((op) => op.type === 'fail' && op.detail?.startsWith('None of slaves were synced') && op.detail.endsWith('lock given back')).length,
    };
  };

  it('WAIT finds no acknowledgement and the lock is given back until repl-timeout (60 s) drops the replicas', () => {
    const { firstOkS, refusals } = client1('60s');
    expect(refusals).toBeGreaterThanOrEqual(3);
    expect(firstOkS).toBeGreaterThan(70);
  });

  it('with repl-timeout 10s the old primary counts no replica from 20 s on, and Redisson grants unsynced locks there', () => {
    const { firstOkS } = client1('10s');
    expect(firstOkS).toBeGreaterThan(20);
    expect(firstOkS).toBeLessThan(22);
  });
});
