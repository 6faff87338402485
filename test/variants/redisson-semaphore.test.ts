/**
 * Redisson's semaphores on the model, each failure next to its must-not-fail neighbour: N
 * holders admitted, never N + 1; RSemaphore's release adds a permit whoever calls it
 * (redisson#5066), the expirable one's refuses an id it never handed out; an expirable permit
 * whose lease runs out under its holder lets one more in.
 */
import { describe, expect, it } from 'vitest';
import { runYaml } from '../helpers.js';

const world = (variant: string, o: { work?: string; workers?: number; redis?: string } = {}) => `
name: semaphore
duration: 30s
stock: { sku: 1, available: 100000 }
workload: { clients: 2, workers: ${o.workers ?? 4}, arrival: 40/s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: "${o.work ?? 'uniform(50ms, 150ms)'}" }
${o.redis ?? ''}
variants:
  v: { ${variant}, guard: conditional }
`;

describe.each([
  ['redisson-semaphore', ''],
  ['redisson-permit-expirable-semaphore', ', lease: 10s'],
])('%s', (lock, lease) => {
  it('admits up to its permits at once and no more, and loses none without faults', () => {
    const r = runYaml(world(`lock: ${lock}, permits: 3${lease}`));
    expect(r.metrics).toMatchObject({ maxHolders: 3, permitsExceeded: 0, permitsLeaked: 0, permitsExpired: 0, doubleHolders: 0, oversold: 0 });
    expect(r.metrics.outcomes['lock-busy']).toBeGreaterThan(0);
    expect(r.metrics.orders).toBeGreaterThan(500);
  });

  it('with one permit is a mutex: never two holders', () => {
    const r = runYaml(world(`lock: ${lock}${lease}`));
    expect(r.metrics).toMatchObject({ maxHolders: 1, doubleHolders: 0, permitsLeaked: 0 });
    expect(r.metrics.permitsExceeded).toBeUndefined();
  });

  it('pays a WAIT round trip with replicas from 3.21.0, and sends the script alone before', () => {
    const redis = 'redis: { topology: sentinel, replicas: 1 }';
    const synced = runYaml(world(`lock: ${lock}, permits: 3${lease}`, { redis }));
    const unsynced = runYaml(world(`lock: ${lock}, permits: 3${lease}, redisson-version: "3.20.1"`, { redis }));
    expect(synced.metrics.permitsExceeded).toBe(0);
    expect(unsynced.metrics.permitsExceeded).toBe(0);
    expect(synced.metrics.flashSale.latency.ordered.p99Us).toBeGreaterThan(unsynced.metrics.flashSale.latency.ordered.p99Us);
  });
});

describe('unlock-always (a release in a finally block around a failed tryAcquire)', () => {
  it('RSemaphore: each turned-away request adds a permit, and more than three get in', () => {
    const r = runYaml(world('lock: redisson-semaphore, permits: 3, unlock-always: true'));
    expect(r.metrics.permitsExceeded).toBeGreaterThan(0);
    expect(r.metrics.maxHolders).toBeGreaterThan(3);
    expect(r.violations.map((v) => v.kind)).toContain('permits-exceeded');
  });

  it('RPermitExpirableSemaphore: a release of an id it never handed out is refused, and three stay the most', () => {
    const r = runYaml(world('lock: redisson-permit-expirable-semaphore, permits: 3, lease: 10s, unlock-always: true'));
    expect(r.metrics).toMatchObject({ permitsExceeded: 0, maxHolders: 3 });
    const refused = r.history.filter((op) => op.f === 'release' && op.type === 'fail');
    expect(refused.length).toBeGreaterThan(0);
    expect('detail' in refused[0] ? refused[0].detail : undefined).toMatch(/^Permit with id .+ has already been released or doesn't exist$/);
  });
});

describe('RPermitExpirableSemaphore leases', () => {
  it('a lease shorter than the work lets a fourth in while three still hold theirs', () => {
    const r = runYaml(world('lock: redisson-permit-expirable-semaphore, permits: 3, lease: 1s', { work: 'uniform(1500ms, 2500ms)', workers: 8 }));
    expect(r.metrics.permitsExceeded).toBeGreaterThan(0);
  });

  it('a lease longer than the work never does', () => {
    const r = runYaml(world('lock: redisson-permit-expirable-semaphore, permits: 3, lease: 5s', { work: 'uniform(1500ms, 2500ms)', workers: 8 }));
    expect(r.metrics).toMatchObject({ permitsExceeded: 0, maxHolders: 3 });
  });
});
