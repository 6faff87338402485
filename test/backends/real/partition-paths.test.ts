/**
 * Partitions on the real backend cut exactly the paths they name (src/backends/real/real-faults.ts
 * pathsBetween, proxy.ts classify), as the model's do: a replica cut off from its primary
 * stops replicating, and only that replica; the Sentinels keep seeing the primary. Judged from the history's
 * order (the replica's key-state record before or after the partition's end), never from
 * wall-clock durations.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../src/scenario/load.js';
import type { History } from '../../../src/history/operation.js';
import { hasRedis } from './redis-available.js';
import { runReal } from './real-runs.js';

/** One lock taken at 1.5 s on a primary with `replicas` replicas; `isolate` cut off `from` 1 s to 4 s. */
function scenario(replicas: number, isolate: string, from: string): string {
  return `name: real-partition-paths
duration: 5s
drain: 3s
stock: { sku: 1, available: 10 }
workload:
  clients: 1
  workers: 1
  requests:
    - { at: 1500ms, sku: 1, client: 1 }
  steps: [lock, read, deduct, order, unlock]
network:
  redis-latency: 1ms
redis:
  topology: sentinel
  replicas: ${replicas}
  down-after: 10s
faults:
  - { kind: partition, at: 1s, duration: 3s, isolate: [${isolate}], from: [${from}] }
variants:
  lua: { lock: lua-unlock, lease: 30s }
`;
}

/** Where in the history the replica first recorded the lock, and where the partition ended. */
function positions(history: History, replica = 'redis-1'): { replicaSaw: number; healed: number } {
  const replicaSaw = history.findIndex((op) => op.f === 'key-state' && op.node === replica && op.holder === 'r1');
  const healed = history.findIndex((op) => op.f === 'fault' && op.fault === 'partition' && op.phase === 'end');
  return { replicaSaw, healed };
}

describe.skipIf(!hasRedis)('partition paths on real Redis', () => {
  it('one replica cut off from the primary: the other replica, whose link is not named, still gets the lock before the partition ends', async () => {
    const s = parseScenario(scenario(2, 'redis-1', 'redis-0'), 'partition-one-replica.yaml');
    const r = await runReal(s);
    const other = positions(r.history, 'redis-2');
    expect(other.replicaSaw).toBeGreaterThan(0);
    expect(other.replicaSaw).toBeLessThan(other.healed);
    const cut = positions(r.history, 'redis-1');
    expect(cut.replicaSaw === -1 || cut.replicaSaw > cut.healed).toBe(true);
    expect(r.metrics.orders).toBe(1);
    // The Sentinels still see the primary (their links are not cut): no failover.
    expect(r.history.some((op) => op.f === 'fault' && op.fault === 'failover')).toBe(false);
  });

  it('... and a primary cut off from its only replica: the replica gets the lock only after the partition ends', async () => {
    const s = parseScenario(scenario(1, 'redis-0', 'redis-1'), 'partition-replica.yaml');
    const r = await runReal(s);
    const { replicaSaw, healed } = positions(r.history);
    expect(healed).toBeGreaterThan(0);
    // Never seen, or seen after the heal (the replica resynchronises then).
    expect(replicaSaw === -1 || replicaSaw > healed).toBe(true);
    expect(r.metrics.orders).toBe(1);
    expect(r.history.some((op) => op.f === 'fault' && op.fault === 'failover')).toBe(false);
  });
});
