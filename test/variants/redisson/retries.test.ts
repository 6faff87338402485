/**
 * Redisson's command re-sends in a running world: a renewal is given up only after every
 * re-send went unanswered, and a re-sent acquire may run twice on the server.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../src/history/operation.js';
import { runYaml } from '../../helpers.js';

/** One request at 1 s holding the lock for 60 s, on a single server. */
const longHold = (version: string, faults: string, extra = '') => `
name: t
duration: 50s
drain: 150s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, users: 1, think: 1s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 60s }
faults:
${faults}
variants:
  v: { lock: redisson, redisson-version: "${version}"${extra} }
`;

const at = (op: Operation | undefined): number => {
  if (!op) throw new Error('no such operation');
  return op.timeUs;
};
const acquiredAt = (ops: readonly Operation[]): number => at(ops.find((o) => o.f === 'acquire' && o.type === 'ok'));
const renewals = (ops: readonly Operation[]) => ops.filter((o) => o.f === 'renew');

describe('renewal against a silent primary (per-lock watchdog, first renewal 10 s after acquiring)', () => {
  // client-1 cannot reach redis-0 from 11 s (just before the first renewal) for `cut`.
  const cut = (d: string) => `  - { kind: partition, at: 11s, duration: ${d}, isolate: [client-1], from: [redis-0] }`;

  it('3.15.2-3.47: fails after 4 x 3 s + 3 x 1.5 s = 16.5 s, not after the first 3 s timeout', () => {
    const r = runYaml(longHold('3.43.0', cut('30s')));
    const fail = renewals(r.history).find((o) => o.type === 'fail');
    expect(at(fail) - acquiredAt(r.history)).toBe(10_000_000 + 16_500_000);
    expect(fail && 'detail' in fail ? fail.detail : '').toBe('renewal timed out (4 sends); watchdog stops');
  });

  it('3.15.2-3.47: succeeds on the second send when the first one was lost (a 4 s cut)', () => {
    const r = runYaml(longHold('3.43.0', cut('4s')));
    const first = renewals(r.history)[0];
    expect(first.type).toBe('ok');
    // Sent at +10 s into the cut, re-sent 3 s + 1.5 s later, answered within a round trip.
    const after = at(first) - acquiredAt(r.history) - 14_500_000;
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(3_000);
    expect(r.metrics.lockLost).toBe(0);
  });

  it('before 3.15.2 the re-sends go out at each timeout: given up after 4 x 3 s = 12 s', () => {
    const r = runYaml(longHold('3.15.1', cut('30s')));
    expect(at(renewals(r.history).find((o) => o.type === 'fail')) - acquiredAt(r.history)).toBe(10_000_000 + 12_000_000);
  });

  it('with command-retries 0 one 3 s timeout is final', () => {
    const r = runYaml(longHold('3.43.0', cut('30s'), ', command-retries: 0'));
    expect(at(renewals(r.history).find((o) => o.type === 'fail')) - acquiredAt(r.history)).toBe(10_000_000 + 3_000_000);
  });

  it('3.48.0+ (4.7.0): 5 sends with 0.5-1 s, then 1-2 s between them: given up 18.5-22 s after sending', () => {
    const r = runYaml(longHold('4.7.0', cut('30s')));
    const fail = renewals(r.history).find((o) => o.type === 'fail');
    // The shared timer of 3.44+ fires 10 s after the first lock of the client was taken.
    const afterSend = at(fail) - acquiredAt(r.history) - 10_000_000;
    expect(afterSend).toBeGreaterThanOrEqual(18_500_000);
    expect(afterSend).toBeLessThanOrEqual(22_000_000);
  });
});

describe('a re-sent acquire that runs twice re-enters its own lock', () => {
  /** Two clients with one worker each, hammering one SKU from 1 s. */
  const world = (version: string, fault: string) => `
name: t
duration: 40s
drain: 60s
stock: { sku: 1, available: 100 }
workload: { clients: 2, workers: 1, users: 2, think: 1s, steps: [lock, read, deduct, order, unlock] }
faults:
  - ${fault}
variants:
  v: { lock: redisson, redisson-version: "${version}", wait: 100s }
`;
  /** While the load runs (the last lock left behind expires in the drain). */
  const LOAD_US = 40_000_000;
  const acquiredBy = (ops: readonly Operation[], client: string) =>
    ops.filter((o) => o.f === 'acquire' && o.type === 'ok' && o.process.startsWith(`${client}/`) && o.timeUs < LOAD_US).length;
  const deletes = (ops: readonly Operation[]) => ops.filter((o) => o.f === 'key-state' && o.node === 'redis-0' && o.cause === 'delete' && o.timeUs < LOAD_US).length;
  const SLEEP = '{ kind: redis-pause, node: redis-0, at: 900ms, duration: 5s }';

  it('slow, not lost (3.36.0, the server slept 5 s): both copies run, the unlock leaves count 1, and that thread re-enters with every later request', () => {
    const r = runYaml(world('3.36.0', SLEEP));
    // The winner is client-2 (its copies reach the server first); its thread never brings the
    // count back to 0, so the key is never deleted and client-1 never gets the lock.
    expect(acquiredBy(r.history, 'client-2')).toBeGreaterThan(10);
    expect(acquiredBy(r.history, 'client-1')).toBe(0);
    expect(deletes(r.history)).toBe(0);
  });

  it('lost, not slow (3.36.0, cut off for 4 s): the re-send runs once, unlocks delete the key, and both clients take turns', () => {
    const r = runYaml(world('3.36.0', '{ kind: partition, at: 900ms, duration: 4s, isolate: [redis-0] }'));
    expect(acquiredBy(r.history, 'client-1')).toBeGreaterThan(10);
    expect(acquiredBy(r.history, 'client-2')).toBeGreaterThan(10);
    expect(deletes(r.history)).toBeGreaterThan(20);
  });

  it('3.37.0 on a single server: the acquire is not re-sent; it times out (unknown), and its one copy\'s lock is re-entered by the thread\'s next request', () => {
    const r = runYaml(world('3.37.0', SLEEP));
    const unknown = r.history.filter((o) => o.f === 'acquire' && o.type === 'info');
    expect(unknown.map((o) => ('detail' in o ? o.detail : ''))).toEqual(['no reply after 1 sends (RedisResponseTimeoutException)', 'no reply after 1 sends (RedisResponseTimeoutException)']);
    const firstWrite = r.history.find((o) => o.f === 'key-state' && o.node === 'redis-0');
    // Taken when the server woke, by a request that had already given up on it.
    expect(firstWrite && 'holder' in firstWrite ? firstWrite.holder : '').toBe('r2');
    expect(acquiredBy(r.history, 'client-1')).toBe(0);
    expect(deletes(r.history)).toBe(0);
  });
});
