/**
 * Redisson's RFencedLock on the model: every acquisition gets the next token and the storage
 * sees it (a failure next to its must-not-fail neighbour: fenced-write with and without a
 * failover that loses the last increments); its acquire, unlike RLock's, gives back nothing
 * after a WAIT no replica acknowledged (RedissonFencedLock.tryAcquireAsync has no
 * handleNoSync); versions before 3.19.0 are refused.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { runYaml } from '../helpers.js';

const world = (variant: string, o: { redis?: string; faults?: string; duration?: string; skus?: number } = {}) => `
name: fenced
duration: ${o.duration ?? '20s'}
stock: { sku: 1, available: 100000, count: ${o.skus ?? 1} }
workload: { clients: 2, workers: 4, arrival: 20/s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: "uniform(50ms, 150ms)" }
${o.redis ?? ''}
${o.faults ?? ''}
variants:
  v: { ${variant} }
`;

describe('redisson-fenced', () => {
  it('hands out 1, 2, 3, ... in acquisition order, each write carrying its holder\'s token', () => {
    const r = runYaml(world('lock: redisson-fenced, guard: fenced-write, wait: 5s'));
    const tokens = r.history.filter((op) => op.f === 'acquire' && op.type === 'ok').map((op) => (op as { fence?: number }).fence);
    expect(tokens.length).toBeGreaterThan(100);
    expect(tokens).toEqual(tokens.map((_, i) => i + 1));
    expect(r.metrics).toMatchObject({ doubleHolders: 0, oversold: 0, staleTokens: 0, fenceRejections: 0 });
  });

  it('renews its lock with the watchdog when taken without a lease, and not with one', () => {
    const watchdog = runYaml(world('lock: redisson-fenced, guard: fenced-write, lock-watchdog-timeout: 300ms, wait: 5s'));
    const leased = runYaml(world('lock: redisson-fenced, guard: fenced-write, lease: 300ms, wait: 5s'));
    expect(watchdog.metrics.renewals).toBeGreaterThan(0);
    expect(leased.metrics.renewals).toBe(0);
  });

  it('a failover that loses increments repeats tokens; without one, none', () => {
    const redis = 'redis: { topology: sentinel, replicas: 1, down-after: 1s }';
    const faults = 'faults:\n  - { kind: primary-crash, at: 10s, replication-stalled-for: 3s }';
    const variant = 'lock: redisson-fenced, guard: fenced-write, sync-replicas: false, lease: 5s, wait: 2s';
    const failed = runYaml(world(variant, { redis, faults, duration: '30s' }));
    const calm = runYaml(world(variant, { redis, duration: '30s' }));
    expect(failed.metrics.staleTokens).toBeGreaterThan(0);
    expect(calm.metrics.staleTokens).toBe(0);
  });

  it('leaves the lock taken when no replica acknowledged its WAIT, where RLock gives it back', () => {
    const redis = 'redis: { topology: sentinel, replicas: 1, down-after: 1s }';
    // The stream stalls 5 s before the primary dies: the WAITs of those seconds get no acknowledgement.
    const faults = 'faults:\n  - { kind: primary-crash, at: 10s, replication-stalled-for: 5s }';
    // Ten SKUs: a lock left taken is seldom re-entered by the same worker's next request.
    const fenced = runYaml(world('lock: redisson-fenced, guard: fenced-write, wait: 2s', { redis, faults, duration: '30s', skus: 10 }));
    const rlock = runYaml(world('lock: redisson, guard: conditional, wait: 2s', { redis, faults, duration: '30s', skus: 10 }));
    expect(fenced.metrics.orphanLockUs).toBeGreaterThan(0);
    expect(rlock.metrics.orphanLockUs).toBe(0);
  });
});

describe('redisson-fenced options', () => {
  const load = (variant: string) => () => parseScenario(world(variant), 'fenced.yaml');
  it('refuses a Redisson version without RFencedLock, and takes 3.19.0', () => {
    expect(load('lock: redisson-fenced, redisson-version: "3.18.1"')).toThrow(/RFencedLock first ships in Redisson 3\.19\.0/);
    expect(load('lock: redisson-fenced, redisson-version: "3.19.0"')).not.toThrow();
  });
  it('takes fenced-write and RLock\'s watchdog options; fenced-write still refuses RLock', () => {
    expect(load('lock: redisson-fenced, guard: fenced-write, lock-watchdog-timeout: 10s, slaves-sync-timeout: 2s')).not.toThrow();
    expect(load('lock: redisson, guard: fenced-write')).toThrow(/fenced-write needs a lock that hands out fencing tokens: lock: fenced or redisson-fenced/);
  });
});
