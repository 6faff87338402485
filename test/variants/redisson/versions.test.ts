/**
 * Behaviours that changed between Redisson versions (src/variants/locks/redisson/versions.ts),
 * each next to the version that does not fail that way.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../src/history/operation.js';
import { runYaml } from '../../helpers.js';

const detailOf = (o: Operation | undefined): string => (o && 'detail' in o && o.detail ? o.detail : '');
const requestOf = (o: Operation | undefined): string => (o && 'request' in o ? o.request : '');

describe('an acquire whose WAIT no replica acknowledged', () => {
  // redis-1 cannot hear redis-0 from 10 s to 25 s: WAIT 1 1000 answers 0 on the primary.
  const world = (version: string) => `
name: t
duration: 30s
drain: 60s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 1, users: 2, think: 1s, steps: [lock, read, deduct, order, unlock] }
redis: { topology: sentinel, replicas: 1, down-after: 60s }
faults:
  - { kind: partition, at: 10s, duration: 15s, isolate: [redis-1], from: [redis-0] }
variants:
  v: { lock: redisson, redisson-version: "${version}" }
`;
  const refused = (ops: readonly Operation[]) => ops.filter((o) => o.f === 'acquire' && detailOf(o).startsWith('None of slaves were synced'));
  const deletedBy = (ops: readonly Operation[], request: string) => ops.some((o) => o.f === 'key-state' && o.node === 'redis-0' && o.cause === 'delete' && o.by === request);

  it('3.25.0-3.46.x: the error text no longer matches, so the lock taken is kept (nobody renews or releases it)', () => {
    const r = runYaml(world('3.25.0'));
    const kept = refused(r.history).filter((o) => o.type === 'info');
    expect(kept.length).toBeGreaterThan(0);
    expect(detailOf(kept[0])).toBe('None of slaves were synced. Try to increase slavesSyncTimeout setting or set checkLockSyncedSlaves = false.; the lock taken stays held');
    for (const o of kept) expect(deletedBy(r.history, requestOf(o))).toBe(false);
    // Refusals whose script found the lock held took nothing: those are plain failures.
    expect(refused(r.history).every((o) => o.type === 'info' || !detailOf(o).endsWith('stays held'))).toBe(true);
  });

  it('3.47.0: a lock taken is given back (and the acquire tried again), never kept', () => {
    const r = runYaml(world('3.47.0'));
    const all = refused(r.history);
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((o) => o.type !== 'fail')).toEqual([]);
    const givenBack = all.filter((o) => detailOf(o).endsWith('; lock given back'));
    expect(givenBack.length).toBeGreaterThan(0);
    for (const o of givenBack) expect(deletedBy(r.history, requestOf(o))).toBe(true);
  });

  it('3.24.3: given back too (the text still matched)', () => {
    const r = runYaml(world('3.24.3'));
    expect(refused(r.history).map((o) => detailOf(o))).toContain('None of slaves were synced; lock given back');
  });
});

describe('the renewal entry left behind by a nil unlock (3.11.5)', () => {
  // r1 (1 s) sits out a 35 s GC pause: its lease runs out, its renewal then finds the lock
  // gone, and its unlock answers nil. r2 (about 42 s) holds the same name 40 s in the same client.
  const world = (version: string) => `
name: t
duration: 45s
drain: 120s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, users: 1, think: 1s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 40s }
faults:
  - { kind: gc-pause, client: 1, at: 5s, duration: 35s }
variants:
  v: { lock: redisson, redisson-version: "${version}" }
`;
  const renewedFor = (ops: readonly Operation[], request: string) => ops.filter((o) => o.f === 'renew' && o.type === 'ok' && requestOf(o) === request).length;

  it('3.11.5: the next lock of that name in that client gets no watchdog and expires under its holder', () => {
    const r = runYaml(world('3.11.5'));
    expect(detailOf(r.history.find((o) => o.f === 'release' && requestOf(o) === 'r1' && o.type !== 'invoke'))).toBe('IllegalMonitorStateException: not locked by current thread');
    expect(renewedFor(r.history, 'r2')).toBe(0);
    expect(r.metrics.lockLost).toBe(2);
  });

  it('3.12.1+: every unlock cancels its renewal, so the next lock is renewed and kept', () => {
    for (const version of ['3.12.1', '3.16.0']) {
      const r = runYaml(world(version));
      expect(renewedFor(r.history, 'r2')).toBeGreaterThan(2);
      expect(r.metrics.lockLost).toBe(1);
    }
  });
});

describe('the renewal entry a failed renewal leaves until its holder unlocks', () => {
  // Two threads of one client want the same lock, each for 60 s. r1 (1 s) loses its renewal;
  // its lease runs out and r2 (waiting in the same client) takes the lock at about 40 s,
  // while r1's entry, without a timer, is still in the client's renewal map.
  const world = (version: string, fault: string) => `
name: t
duration: 45s
drain: 150s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 2, users: 2, think: 1s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 60s }
faults:
  - ${fault}
variants:
  v: { lock: redisson, redisson-version: "${version}", wait: 100s }
`;
  const renewedR2 = (version: string, fault: string) => {
    const r = runYaml(world(version, fault));
    return { renewals: r.history.filter((o) => o.f === 'renew' && o.type === 'ok' && requestOf(o) === 'r2').length, lockLost: r.metrics.lockLost };
  };
  const CUT = '{ kind: partition, at: 10s, duration: 30s, isolate: [client-1], from: [redis-0] }';
  const PAUSE = '{ kind: gc-pause, client: 1, at: 5s, duration: 35s }';

  it('a renewal error before 3.14.0: r2 joins the entry and gets no watchdog', () => {
    expect(renewedR2('3.13.6', CUT)).toEqual({ renewals: 0, lockLost: 2 });
  });

  it('a renewal error from 3.14.0 removes the entry: r2 gets its own watchdog', () => {
    expect(renewedR2('3.14.0', CUT)).toMatchObject({ lockLost: 1 });
    expect(renewedR2('3.14.0', CUT).renewals).toBeGreaterThan(4);
  });

  it('a renewal that finds the lock gone, before 3.16.1: r2 gets no watchdog', () => {
    expect(renewedR2('3.16.0', PAUSE)).toEqual({ renewals: 0, lockLost: 2 });
  });

  it('from 3.16.1 that renewal removes the entry: r2 gets its own watchdog', () => {
    expect(renewedR2('3.16.1', PAUSE).renewals).toBeGreaterThan(4);
  });
});

describe('watchdog-on-error', () => {
  // One 70 s critical section from 2 s; the only Redis node sleeps 20 s from just before the
  // first renewal (12 s): every re-send waits in its queue, and all of them run when it wakes.
  const world = (version: string, extra = '') => `
name: watchdog-error
duration: 40s
drain: 120s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, users: 1, think: 2s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 70s }
faults:
  - { kind: redis-pause, node: redis-0, at: 11900ms, duration: 20s }
variants:
  v: { lock: redisson, redisson-version: "${version}"${extra} }
`;

  it('stop (before 3.44): the renewal given up after 16.5 s ends renewal; the late copies renew once, then the lease runs out', () => {
    const r = runYaml(world('3.43.0'));
    expect(r.metrics.renewalFailures).toBe(1);
    expect(r.metrics.renewals).toBe(0);
    expect(r.metrics.lockLost).toBe(1);
  });

  it('continue (3.44+): the shared timer renews again on its next tick and the lock is kept', () => {
    const r = runYaml(world('3.44.0'));
    expect(r.metrics.renewalFailures).toBe(1);
    expect(r.metrics.renewals).toBeGreaterThanOrEqual(4);
    expect(r.metrics.lockLost).toBe(0);
  });

  it('continue given to a per-lock timer (a what-if): re-armed after the error, the lock is kept', () => {
    const r = runYaml(world('3.43.0', ', watchdog-on-error: continue'));
    expect(r.metrics.renewalFailures).toBe(1);
    expect(r.metrics.lockLost).toBe(0);
  });
});

describe('a re-sent unlock whose first copy ran (single server, the node asleep 5 s at the unlock)', () => {
  // Unlock at about 6.006 s, re-sent at 10.5 s, both run when redis-0 wakes at 11 s.
  const world = (version: string) => `
name: t
duration: 12s
drain: 60s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, users: 1, think: 1s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 5s }
faults:
  - { kind: redis-pause, node: redis-0, at: 6s, duration: 5s }
variants:
  v: { lock: redisson, redisson-version: "${version}" }
`;
  const released = (version: string) => runYaml(world(version)).history.find((o) => o.f === 'release' && o.type !== 'invoke');

  it('before 3.24.0 the second copy finds no lock: IllegalMonitorStateException, though the lock was released', () => {
    const r = released('3.23.0');
    expect(r?.type).toBe('fail');
    expect(detailOf(r)).toBe('IllegalMonitorStateException: not locked by current thread');
  });

  it('3.24.0+: the second copy reads the first one\'s result from the unlock latch', () => {
    expect(released('3.24.0')?.type).toBe('ok');
  });
});

describe('renewal timing', () => {
  // One client, locks on ten SKUs held 15 s each, taken at Poisson times.
  const world = (version: string) => `
name: t
duration: 60s
drain: 60s
stock: { sku: 1, available: 1000, count: 10 }
workload: { clients: 1, workers: 4, arrival: 0.5/s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 15s }
variants:
  v: { lock: redisson, redisson-version: "${version}" }
`;
  /** For each lock, from its acquisition to its first renewal. */
  const firstRenewalAfterUs = (version: string): number[] => {
    const ops = runYaml(world(version)).history;
    return ops.flatMap((o) => {
      if (o.f !== 'acquire' || o.type !== 'ok') return [];
      const renew = ops.find((x) => x.f === 'renew' && x.type === 'ok' && requestOf(x) === o.request && x.timeUs > o.timeUs);
      return renew ? [renew.timeUs - o.timeUs] : [];
    });
  };

  it('per-lock timers (before 3.44): every lock is first renewed 10 s after it was taken', () => {
    const delays = firstRenewalAfterUs('3.43.0');
    expect(delays.length).toBeGreaterThan(5);
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(10_000_000), expect(d).toBeLessThan(10_010_000);
  });

  it('one shared timer (3.44+): a lock taken between two ticks is renewed at the next one, sooner than 10 s', () => {
    const delays = firstRenewalAfterUs('3.44.0');
    expect(delays.length).toBeGreaterThan(5);
    expect(delays.filter((d) => d < 9_000_000).length).toBeGreaterThan(0);
    for (const d of delays) expect(d).toBeLessThan(10_010_000);
  });
});

describe('a batch re-sent after the primary died carries WAIT alone (its EVAL had answered)', () => {
  // The primary dies at 30 s; with a stalled stream its last second's locks are answered but
  // their WAIT is not. The re-sent WAIT goes to the promoted replica, which acknowledges.
  const world = (stall: string) => `
name: t
duration: 40s
drain: 60s
stock: { sku: 1, available: 5, count: 40 }
workload: { clients: 3, workers: 16, arrival: 10/s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: "uniform(2s, 5s)" }
redis: { topology: sentinel, replicas: 2, down-after: 1s, rediscover: 500ms }
faults:
  - { kind: primary-crash, at: 30s${stall} }
variants:
  v: { lock: redisson }
`;

  it('with a stalled stream: acquired on the dead primary, "synced" on the new one that never had the key: the lock is lost', () => {
    const r = runYaml(world(', replication-stalled-for: 5s'));
    const lost = r.history.filter((o) => o.f === 'acquire' && o.type === 'ok' && o.timeUs > 30e6).filter((o) => {
      const wrote = r.history.find((x) => x.f === 'key-state' && x.node === 'redis-0' && x.cause === 'write' && 'holder' in x && x.holder === requestOf(o));
      return wrote !== undefined && wrote.timeUs > 29e6 && wrote.timeUs < 30e6;
    });
    expect(lost.length).toBeGreaterThan(0);
    expect(r.metrics.lockLost).toBeGreaterThan(0);
  });

  it('with the stream flowing, WAIT answers before the crash and the replica has every key', () => {
    const r = runYaml(world(''));
    expect(r.metrics.lockLost).toBe(0);
  });
});
