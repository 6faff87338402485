/**
 * Partial holds on hand-written multi-lock histories: two carts that each hold one SKU and wait
 * for the other's (given back: DEGRADED), next to the ones that must not count as given back
 * (an acquisition that passes through a partial hold to the lock, carts taken in one order,
 * a run with no multi-lock at all, which has no partial-hold figures).
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import { multiLockDetail } from '../../../src/history/multi-lock.js';
import { brokenInvariants, safetyOf } from '../../../src/checker/verdict.js';
import { end, history, keyState, lockOp, requestOp, setup, type Entry } from '../histories.js';

const K1 = 'lock:stock:1';
const K2 = 'lock:stock:2';

const invoke = (request: string, at: number, keys: string[], client = 'client-1'): Entry[] => [
  [at, requestOp('invoke', request, { client })],
  [at, lockOp('acquire', 'invoke', request, { thread: `${client}/w1`, key: keys[0], detail: multiLockDetail(keys) })],
];
const takes = (request: string, at: number, key: string): Entry => [at, keyState('redis-0', request, { key })];
const frees = (request: string, at: number, key: string): Entry => [at, keyState('redis-0', null, { key, previousHolder: request, by: request })];
const acquired = (request: string, at: number, key: string, client = 'client-1'): Entry => [at, lockOp('acquire', 'ok', request, { thread: `${client}/w1`, key, leaseMs: 30_000 })];
const busy = (request: string, at: number, key: string, client = 'client-1'): Entry[] => [
  [at, lockOp('acquire', 'fail', request, { thread: `${client}/w1`, key, detail: 'wait spent' })],
  [at, requestOp('fail', request, { client, outcome: 'lock-busy' })],
];

function judge(entries: Entry[]) {
  const { metrics: m, violations } = checkHistory(history([[0, setup({ lockOwner: 'thread', multiLock: true })], ...entries, [10_000_000, end()]]));
  return { m, first: violations.find((v) => v.kind === 'partial-hold') ?? null };
}

describe('partial holds', () => {
  it('two carts in opposite orders: each holds one and waits for the other, both give back', () => {
    const r = judge([
      ...invoke('r1', 1_000, [K1, K2], 'client-1'),
      ...invoke('r2', 1_000, [K2, K1], 'client-2'),
      takes('r1', 1_100, K1),
      takes('r2', 1_200, K2),
      frees('r1', 3_001_100, K1),
      ...busy('r1', 3_001_200, K1, 'client-1'),
      frees('r2', 3_001_300, K2),
      ...busy('r2', 3_001_400, K2, 'client-2'),
    ]);
    expect(r.m).toMatchObject({ partialHolds: 2, partialHoldsGivenBack: 2, partialHoldUs: 3_000_000 + 3_000_100, givenBackHoldUs: 6_000_100, maxLocksHeldWhileWaiting: 1 });
    expect(r.first).toEqual({
      kind: 'partial-hold',
      timeUs: 1_100,
      subject: K1,
      requests: ['r1'],
      summary: 'r1 (client-1/w1) held lock:stock:1 of its 2 locks, waiting for lock:stock:2 (held by r2, which waits for lock:stock:1: each waits for the other), from 1.1ms and gave it back at 3.001s without the lock: 3s held for nothing',
    });
    expect(brokenInvariants(r.m)).toContain('partial holds given back');
    expect(safetyOf(r.m)).toBe('DEGRADED');
  });

  it('the same carts in one order: the second waits holding nothing, and nothing is given back', () => {
    const r = judge([
      ...invoke('r1', 1_000, [K1, K2], 'client-1'),
      ...invoke('r2', 1_000, [K1, K2], 'client-2'),
      takes('r1', 1_100, K1),
      takes('r1', 1_300, K2),
      acquired('r1', 1_400, K1),
      [199_900, lockOp('release', 'invoke', 'r1', { thread: 'client-1/w1', key: K1 })],
      frees('r1', 200_000, K1),
      takes('r2', 200_100, K1),
      frees('r1', 200_200, K2),
      [200_250, lockOp('release', 'ok', 'r1', { thread: 'client-1/w1', key: K1 })],
      [200_250, requestOp('ok', 'r1', { outcome: 'ordered' })],
      takes('r2', 200_300, K2),
      acquired('r2', 200_400, K1, 'client-2'),
      [300_000, lockOp('release', 'invoke', 'r2', { thread: 'client-2/w1', key: K1 })],
      frees('r2', 300_100, K1),
      frees('r2', 300_200, K2),
      [300_300, lockOp('release', 'ok', 'r2', { thread: 'client-2/w1', key: K1 })],
      [300_300, requestOp('ok', 'r2', { client: 'client-2', outcome: 'ordered' })],
    ]);
    // Each passed through a partial hold on its way to the lock (200 us each): counted, not given back.
    expect(r.m).toMatchObject({ partialHolds: 2, partialHoldUs: 400, partialHoldsGivenBack: 0, givenBackHoldUs: 0, maxLocksHeldWhileWaiting: 1 });
    expect(r.first).toBeNull();
    expect(safetyOf(r.m)).toBe('SAFE');
  });

  it('a cart that lets go of what it held and goes on waiting has given it back, though it gets the lock later', () => {
    const r = judge([
      ...invoke('r1', 1_000, [K1, K2]),
      takes('r1', 1_100, K1),
      frees('r1', 500_000, K1),
      takes('r1', 900_000, K1),
      takes('r1', 900_100, K2),
      acquired('r1', 900_200, K1),
    ]);
    expect(r.m).toMatchObject({ partialHolds: 2, partialHoldsGivenBack: 1, givenBackHoldUs: 498_900 });
    expect(r.first?.summary).toContain('held lock:stock:1 of its 2 locks, waiting for lock:stock:2, from 1.1ms and gave it back at 500ms');
  });

  it('a run with no multi-lock has no partial-hold figures, whatever its keys do', () => {
    const r = judge([
      [1_000, requestOp('invoke', 'r1')],
      [1_000, lockOp('acquire', 'invoke', 'r1')],
      takes('r1', 1_100, K1),
      ...busy('r1', 2_000, K1),
    ]);
    expect(r.m.partialHolds).toBeUndefined();
    expect(r.m.partialHoldsGivenBack).toBeUndefined();
    expect(r.first).toBeNull();
  });
});
