/** Redlock in small worlds of five masters: quorum, validity, unlock-all, and its failures. */
import { describe, expect, it } from 'vitest';
import { quorumOf } from '../../src/variants/locks/redlock.js';
import { runYaml } from '../helpers.js';

const world = (faults: string[], opts: { work?: string; lease?: string; extra?: string; latency?: string; version?: string } = {}) => `
name: redlock-test
duration: 40s
drain: 30s
stock: { sku: 1, available: 100000 }
workload: { clients: 2, workers: 2, users: 2, think: 50ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: ${opts.work ?? '1s'} }
network: { redis-latency: ${opts.latency ?? '1ms'} }
redis: { topology: independent, masters: 5 }
faults:
${faults.length ? faults.map((f) => `  - ${f}`).join('\n') : '  []'}
variants:
  v: { lock: redlock, redlock-version: ${opts.version ?? 'spec'}, lease: ${opts.lease ?? '10s'} ${opts.extra ?? ''} }
`;

describe('redlock', () => {
  it('needs N/2+1 masters', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(quorumOf)).toEqual([1, 2, 2, 3, 3, 4, 4]);
  });

  it('keeps mutual exclusion on healthy masters, and releases everywhere', () => {
    const r = runYaml(world([]));
    expect(r.metrics.orders).toBeGreaterThan(20);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.metrics.lockLost).toBe(0);
    const lastStates = new Map<string, string | null>();
    for (const op of r.history) if (op.f === 'key-state') lastStates.set(op.node, op.holder);
    expect([...lastStates.values()]).toEqual([null, null, null, null, null]);
  });

  it('survives the loss of a minority of masters (2 of 5 unreachable)', () => {
    const r = runYaml(world(['{ kind: partition, at: 5s, duration: 30s, isolate: [redis-3, redis-4] }']));
    expect(r.metrics.doubleHolders).toBe(0);
    const during = r.history.filter((op) => op.f === 'acquire' && op.type === 'ok' && op.timeUs > 6e6 && op.timeUs < 34e6);
    expect(during.length).toBeGreaterThan(5);
  });

  it('refuses the lock without a quorum (3 of 5 unreachable), retrying retry-count times, and unlocks what it got', () => {
    const r = runYaml(world(['{ kind: partition, at: 5s, duration: 30s, isolate: [redis-2, redis-3, redis-4] }'], { extra: ', retry-count: 2' }));
    const fails = r.history.filter((op) => op.f === 'acquire' && op.type === 'fail' && op.timeUs > 6e6 && op.timeUs < 34e6);
    expect(fails.length).toBeGreaterThan(0);
    expect(fails[0].f === 'acquire' && fails[0].detail).toMatch(/^no quorum after 3 attempts: 2 of 5 masters \(quorum 3, 3 unreachable\)/);
    const ok = r.history.filter((op) => op.f === 'acquire' && op.type === 'ok' && op.timeUs > 6e6 && op.timeUs < 34e6);
    expect(ok).toEqual([]);
    // Unlock-all after each failed attempt: whatever the reachable masters granted is deleted
    // by the same request, not left to expire.
    const grants = r.history.filter((op) => op.f === 'key-state' && op.timeUs > 6e6 && op.timeUs < 34e6 && op.cause === 'write');
    const reachable = (node: string) => node === 'redis-0' || node === 'redis-1';
    const expiries = r.history.filter((op) => op.f === 'key-state' && reachable(op.node) && op.timeUs > 6e6 && op.timeUs < 34e6 && op.cause === 'expire');
    expect(grants.length).toBeGreaterThan(10);
    expect(expiries).toEqual([]);
  });

  it('counts a pause during acquisition against the validity: the lock is not taken', () => {
    // Replies take 50 ms; client 1 pauses 12 s (> the 10 s TTL) while they are in flight.
    const r = runYaml(world(['{ kind: gc-pause, client: 1, at: 10ms, duration: 12s }'], { latency: '50ms', extra: ', instance-timeout: 500ms, retry-count: 0' }).replace('users: 2', 'users: 1').replace('clients: 2', 'clients: 1').replace('think: 50ms', 'think: 1ms'));
    const first = r.history.find((op) => op.f === 'acquire' && op.type !== 'invoke');
    expect(first?.type).toBe('fail');
    expect(first && first.f === 'acquire' ? first.detail : '').toMatch(/validity -\d+ms/);
    expect(r.metrics.lockLost).toBe(0);
  });

  it('measures validity on the client clock: a forward step during acquisition refuses the lock', () => {
    const single = (faults: string[]) =>
      world(faults, { latency: '50ms', extra: ', instance-timeout: 500ms, retry-count: 0' }).replace('users: 2', 'users: 1').replace('clients: 2', 'clients: 1').replace('think: 50ms', 'think: 1ms');
    const jumped = runYaml(single(['{ kind: clock-jump, target: client-1, at: 10ms, by: +20s }']));
    const first = jumped.history.find((op) => op.f === 'acquire' && op.type !== 'invoke');
    expect(first?.type).toBe('fail');
    const calm = runYaml(single([]));
    expect(calm.history.find((op) => op.f === 'acquire' && op.type !== 'invoke')?.type).toBe('ok');
  });

  it('breaks when a majority master restarts empty, not when it restarts with its data', () => {
    const split = [
      '{ kind: partition, at: 1s, duration: 38s, isolate: [client-1], from: [redis-3, redis-4] }',
      '{ kind: partition, at: 1s, duration: 38s, isolate: [client-2], from: [redis-0, redis-1] }',
    ];
    const opts = { work: '8s' };
    const empty = runYaml(world([...split, '{ kind: redis-restart, node: redis-2, at: 12s, persistence: none }'], opts));
    const kept = runYaml(world([...split, '{ kind: redis-restart, node: redis-2, at: 12s, persistence: always }'], opts));
    expect(empty.metrics.doubleHolders).toBeGreaterThan(0);
    expect(kept.metrics.doubleHolders).toBe(0);
  });
});
