/** The checker on hand-written histories: what it must find, and a clean one where it must find nothing. */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../src/checker/check-history.js';
import type { NewOperation } from '../../src/history/operation.js';
import { history } from './histories.js';


const setup = (available: number): NewOperation => ({
  process: 'setup', type: 'info', f: 'setup', stock: [{ sku: 1, available }], primary: 'redis-0', lockNodes: [], quorum: 1, durationUs: 10_000_000,
});
const K = 'lock:stock:1';

function request(id: string, thread: string, t0: number, read: number, write: number, lease = 1000): Array<[number, NewOperation]> {
  const base = { process: thread, request: id };
  return [
    [t0, { process: 'client-1', type: 'invoke', f: 'request', request: id, sku: 1, qty: 1 }],
    [t0 + 1, { ...base, type: 'invoke', f: 'acquire', key: K }],
    [t0 + 2, { ...base, type: 'ok', f: 'acquire', key: K, leaseMs: lease }],
    [t0 + 3, { ...base, type: 'ok', f: 'read-stock', sku: 1, available: read }],
    [t0 + 500, { ...base, type: 'ok', f: 'write-stock', sku: 1, qty: 1, mode: 'set', value: write, basedOn: read, affected: 1 }],
    [t0 + 501, { ...base, type: 'ok', f: 'order', sku: 1, qty: 1, orderKey: `o-${id}` }],
    [t0 + 502, { ...base, type: 'invoke', f: 'release', key: K }],
    [t0 + 503, { ...base, type: 'ok', f: 'release', key: K }],
    [t0 + 504, { process: 'client-1', type: 'ok', f: 'request', request: id, sku: 1, qty: 1, outcome: 'ordered' }],
  ];
}

const keyState = (holder: string | null, by: string, prev: string | null, cause = 'write', expiresAtUs: number | null = 5_000_000): NewOperation => ({
  process: 'redis-0', type: 'info', f: 'key-state', node: 'redis-0', key: K, holder, expiresAtUs: holder ? expiresAtUs : null, cause, by, previousHolder: prev,
});

describe('checkHistory', () => {
  it('finds nothing in a clean, serial history', () => {
    const ops = history([
      [0, setup(2)],
      [1, keyState('r1', 'r1', null)],
      ...request('r1', 'client-1/w1', 0, 2, 1),
      [503, keyState(null, 'r1', 'r1', 'delete')],
      [1000, keyState('r2', 'r2', null)],
      ...request('r2', 'client-1/w2', 999, 1, 0),
      [1502, keyState(null, 'r2', 'r2', 'delete')],
      [2000, { process: 'setup', type: 'info', f: 'end' }],
    ]);
    const { metrics, violations } = checkHistory(ops);
    expect(violations).toEqual([]);
    expect(metrics).toMatchObject({
      requests: 2, orders: 2, unitsSold: 2, oversold: 0, lostUpdates: 0, doubleHolders: 0, lockLost: 0, foreignUnlocks: 0, stuckLockUs: 0,
    });
  });

  it('finds the double holder, the lost update, the oversell and the foreign unlock of an overlap', () => {
    // r1 holds the lock; its lease expires at 300us; r2 takes it at 310 and both read 1.
    const ops = history([
      [0, setup(1)],
      [1, keyState('r1', 'r1', null, 'write', 300)],
      ...request('r1', 'client-1/w1', 0, 1, 0),
      [300, keyState(null, '', 'r1', 'expire')],
      [310, keyState('r2', 'r2', null, 'write', 10_000)],
      ...request('r2', 'client-2/w1', 308, 1, 0),
      [503, keyState(null, 'r1', 'r2', 'delete')],
      [2000, { process: 'setup', type: 'info', f: 'end' }],
    ]);
    const { metrics, violations } = checkHistory(ops);
    expect(metrics.doubleHolders).toBe(1);
    // r2 entered at 310 (acquire ok), r1 left at 502 (release invoke).
    expect(metrics.doubleHolderUs).toBe(502 - 310);
    expect(metrics.lostUpdates).toBe(1);
    expect(metrics.oversold).toBe(1);
    expect(metrics.foreignUnlocks).toBe(1);
    expect(metrics.lockLost).toBe(2); // r1 after 300us; r2 after r1's DEL at 503us
    expect(violations.map((v) => v.kind)).toEqual(['lock-lost', 'double-holder', 'foreign-unlock', 'lost-update', 'oversell']);
  });

  it('counts a lock held by a crashed holder as stuck until its TTL', () => {
    const ops = history([
      [0, setup(5)],
      [0, { process: 'client-1', type: 'invoke', f: 'request', request: 'r1', sku: 1, qty: 1 }],
      [1, keyState('r1', 'r1', null, 'write', 30_000_000)],
      [2, { process: 'client-1/w1', type: 'ok', f: 'acquire', request: 'r1', key: K, leaseMs: 30_000 }],
      [1_000_000, { process: 'nemesis', type: 'info', f: 'fault', fault: 'crash', phase: 'start', target: 'client-1', detail: 'kill -9' }],
      [1_000_000, { process: 'client-1', type: 'info', f: 'request', request: 'r1', sku: 1, qty: 1 }],
      [30_000_000, keyState(null, '', 'r1', 'expire')],
      [40_000_000, { process: 'setup', type: 'info', f: 'end' }],
    ]);
    const { metrics } = checkHistory(ops);
    expect(metrics.stuckLockUs).toBe(29_000_000);
    expect(metrics.doubleHolders).toBe(0);
  });
});

describe('checkHistory: watchdog renewals and the order of violations', () => {
  const renew = (type: 'ok' | 'fail' | 'info', detail: string): NewOperation => ({ process: 'client-1/w1', request: 'r1', type, f: 'renew', detail });

  it('counts successful renewals apart from failed or unanswered ones', () => {
    const ops = history([
      [0, setup(5)],
      [10, renew('ok', 'extended')],
      [20, renew('ok', 'extended')],
      [25, renew('ok', 'extended')],
      [30, renew('fail', 'key gone')],
      [40, renew('info', 'no reply')],
      [50, { process: 'client-1/w1', type: 'ok', f: 'acquire', request: 'r2', key: K, leaseMs: 10 }],
      [60, { process: 'setup', type: 'info', f: 'end' }],
    ]);
    expect(checkHistory(ops).metrics).toMatchObject({ renewals: 3, renewalFailures: 2 });
  });

  it('lists violations by time, and those at one instant by kind', () => {
    // r1 sells the only unit at 100. At 1000 r2 writes -1 computed from the 1 it read (a lost
    // update leaving negative stock) and commits r1's order key again (a duplicate and an oversell).
    const { violations } = checkHistory(history([
      [0, setup(1)],
      [100, { process: 'client-1/w1', request: 'r1', type: 'ok', f: 'write-stock', sku: 1, qty: 1, mode: 'decrement', affected: 1 }],
      [100, { process: 'client-1/w1', request: 'r1', type: 'ok', f: 'order', sku: 1, qty: 1, orderKey: 'o-1' }],
      [1_000, { process: 'client-1/w2', request: 'r2', type: 'ok', f: 'write-stock', sku: 1, qty: 2, mode: 'set', value: -1, basedOn: 1, affected: 1 }],
      [1_000, { process: 'client-1/w2', request: 'r2', type: 'ok', f: 'order', sku: 1, qty: 1, orderKey: 'o-1' }],
      [1_500, { process: 'client-1/w1', request: 'r3', type: 'ok', f: 'acquire', key: K, leaseMs: 10, fence: 1 }],
      [1_500, { process: 'client-1/w1', request: 'r4', type: 'ok', f: 'acquire', key: K, leaseMs: 10, fence: 1 }],
      [2_000, { process: 'setup', type: 'info', f: 'end' }],
    ]));
    expect(violations.map((v) => [v.timeUs, v.kind])).toEqual([
      [1_000, 'duplicate-order'], [1_000, 'lost-update'], [1_000, 'negative-stock'], [1_000, 'oversell'], [1_500, 'double-holder'], [1_500, 'stale-token'],
    ]);
  });

  // Many sections entering one key at one instant: the streaming checker orders the points of
  // an instant by insertion up to 16 of them and by a sort beyond (stream-holders.ts), each
  // must give the batch sweep's order (starts by request name), which names the first pair.
  for (const n of [16, 20]) {
    it(`names the first two requests by name when ${n} sections enter one key at one instant`, () => {
      const ids = Array.from({ length: n }, (_, i) => `r${n - i}`);
      const ops = history([
        [0, setup(n)],
        ...ids.map((id): [number, NewOperation] => [10, { process: 'client-1', type: 'invoke', f: 'request', request: id, sku: 1, qty: 1 }]),
        ...ids.map((id): [number, NewOperation] => [20, { process: `client-1/${id}`, request: id, type: 'invoke', f: 'acquire', key: K }]),
        ...ids.map((id): [number, NewOperation] => [30, { process: `client-1/${id}`, request: id, type: 'ok', f: 'acquire', key: K, leaseMs: 1000 }]),
        ...ids.map((id): [number, NewOperation] => [40, { process: `client-1/${id}`, request: id, type: 'invoke', f: 'release', key: K }]),
        ...ids.map((id): [number, NewOperation] => [50, { process: `client-1/${id}`, request: id, type: 'ok', f: 'release', key: K }]),
        ...ids.map((id): [number, NewOperation] => [60, { process: 'client-1', type: 'fail', f: 'request', request: id, sku: 1, qty: 1, outcome: 'sold-out' }]),
        [100, { process: 'setup', type: 'info', f: 'end' }],
      ]);
      const { metrics, violations } = checkHistory(ops);
      expect({ doubleHolders: metrics.doubleHolders, doubleHolderUs: metrics.doubleHolderUs, maxHolders: metrics.maxHolders }).toEqual({ doubleHolders: 1, doubleHolderUs: 10, maxHolders: n });
      expect(violations.find((v) => v.kind === 'double-holder')?.requests).toEqual(['r1', 'r10']);
    });
  }
});
