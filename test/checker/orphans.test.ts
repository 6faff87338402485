/**
 * Orphaned holds on hand-written histories: a lock key held on the authoritative server while
 * none of its owner's requests works under it. Each orphan sits next to the history that must
 * not count one.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../src/checker/check.js';
import type { NewOperation, Operation } from '../../src/history/operation.js';
import { verdictOf } from '../../src/report/verdict.js';

type Entry = [number, NewOperation];

function history(entries: Entry[]): Operation[] {
  return entries
    .map(([timeUs, op], i) => ({ timeUs, op, i }))
    .sort((a, b) => a.timeUs - b.timeUs || a.i - b.i)
    .map(({ timeUs, op }, index) => ({ ...op, index, timeUs }) as Operation);
}

const K = 'lock:stock:1';
const END = 100_000;

const setup = (lockOwner?: 'request' | 'thread'): NewOperation => ({
  process: 'setup', type: 'info', f: 'setup', stock: [{ sku: 1, available: 10 }], primary: 'redis-0', lockNodes: [], quorum: 1, durationUs: END, lockOwner,
});
const end: Entry = [END, { process: 'setup', type: 'info', f: 'end' }];

const held = (node: string, holder: string, expiresAtUs: number | null, cause = 'write'): NewOperation => ({
  process: node, type: 'info', f: 'key-state', node, key: K, holder, expiresAtUs, cause, by: holder, previousHolder: null,
});
const gone = (node: string, previousHolder: string, cause = 'delete'): NewOperation => ({
  process: node, type: 'info', f: 'key-state', node, key: K, holder: null, expiresAtUs: null, cause, by: cause === 'delete' ? previousHolder : '', previousHolder,
});
const lockOp = (f: 'acquire' | 'release', type: Operation['type'], request: string, thread = 'client-1/w1'): NewOperation =>
  ({ process: thread, request, type, f, key: K, ...(f === 'acquire' && type === 'ok' ? { leaseMs: 10 } : {}) }) as NewOperation;
const requestOp = (type: Operation['type'], request: string): NewOperation =>
  ({ process: 'client-1', type, f: 'request', request, sku: 1, qty: 1, ...(type === 'invoke' ? {} : { outcome: type === 'ok' ? 'ordered' : 'lock-error' }) }) as NewOperation;

/** A request that takes the lock at t+10 and releases it at t+500 (deleted at t+505, ok at t+510). */
function cleanRequest(id: string, t: number, thread = 'client-1/w1'): Entry[] {
  return [
    [t, requestOp('invoke', id)],
    [t + 1, lockOp('acquire', 'invoke', id, thread)],
    [t + 10, held('redis-0', id, t + 10_000)],
    [t + 20, lockOp('acquire', 'ok', id, thread)],
    [t + 500, lockOp('release', 'invoke', id, thread)],
    [t + 505, gone('redis-0', id)],
    [t + 510, lockOp('release', 'ok', id, thread)],
    [t + 511, requestOp('ok', id)],
  ];
}

describe('orphaned holds', () => {
  it('counts nothing while the holder works under its lock, its acquire and release in flight included', () => {
    const { metrics, violations } = checkHistory(history([[0, setup()], ...cleanRequest('r1', 0), ...cleanRequest('r2', 1_000), end]));
    expect(metrics.orphanLockUs).toBe(0);
    expect(violations).toEqual([]);
    expect(verdictOf(metrics)).toBe('SAFE');
  });

  it('counts an acquire that timed out but took the lock, from its timeout to the expiry', () => {
    const { metrics, violations } = checkHistory(history([
      [0, setup()],
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', 30_000)],
      [3_001, lockOp('acquire', 'info', 'r1')],
      [3_002, requestOp('fail', 'r1')],
      [30_000, gone('redis-0', 'r1', 'expire')],
      end,
    ]));
    expect(metrics.orphanLockUs).toBe(30_000 - 3_001);
    expect(violations.map((v) => v.kind)).toEqual(['orphaned-lock']);
    expect(violations[0].summary).toContain('its acquire got no reply');
    expect(verdictOf(metrics)).toBe('DEGRADED');
  });

  it('counts an unlock that got no reply while the key stayed (the clean history above deletes it)', () => {
    const lost = checkHistory(history([
      [0, setup()],
      ...cleanRequest('r1', 0).filter(([, op]) => op.f !== 'request' || op.type === 'invoke').filter(([, op]) => !(op.f === 'release' && op.type === 'ok') && !(op.f === 'key-state' && op.holder === null)),
      [3_500, lockOp('release', 'info', 'r1')],
      [3_501, requestOp('ok', 'r1')],
      [10_000, gone('redis-0', 'r1', 'expire')],
      end,
    ]));
    expect(lost.metrics.orphanLockUs).toBe(10_000 - 3_500);
    expect(lost.violations[0].summary).toContain('its unlock got no reply');
  });

  it('counts the copy of a released lock on a promoted replica until it expires', () => {
    const ops = history([
      [0, setup()],
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', 40_000)],
      [12, held('redis-1', 'r1', 40_000, 'sync')],
      [20, lockOp('acquire', 'ok', 'r1')],
      [500, lockOp('release', 'invoke', 'r1')],
      [505, gone('redis-0', 'r1')], // the delete never reaches redis-1
      [510, lockOp('release', 'ok', 'r1')],
      [511, requestOp('ok', 'r1')],
      [5_000, { process: 'nemesis', type: 'info', f: 'fault', fault: 'failover', phase: 'event', target: 'redis-1', detail: 'promoted' }],
      [40_000, gone('redis-1', 'r1', 'expire')],
      end,
    ]);
    const { metrics, violations } = checkHistory(ops);
    expect(metrics.orphanLockUs).toBe(40_000 - 5_000);
    expect(violations[0].summary).toContain('redis-1 was promoted with a copy from before');
  });

  it('counts a holder whose process died, as it counts stuck time', () => {
    const { metrics } = checkHistory(history([
      [0, setup()],
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', 20_000)],
      [20, lockOp('acquire', 'ok', 'r1')],
      [2_000, { process: 'nemesis', type: 'info', f: 'fault', fault: 'crash', phase: 'start', target: 'client-1', detail: 'kill -9' }],
      [2_000, requestOp('info', 'r1')],
      [20_000, gone('redis-0', 'r1', 'expire')],
      end,
    ]));
    expect(metrics.orphanLockUs).toBe(18_000);
    expect(metrics.stuckLockUs).toBe(18_000);
  });

  it('ends a holder\'s work at its client\'s crash even when the lost request is recorded later', () => {
    const { metrics } = checkHistory(history([
      [0, setup()],
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', 20_000)],
      [20, lockOp('acquire', 'ok', 'r1')],
      [2_000, { process: 'nemesis', type: 'info', f: 'fault', fault: 'crash', phase: 'start', target: 'client-1', detail: 'kill -9' }],
      [20_000, gone('redis-0', 'r1', 'expire')],
      end,
    ]));
    expect(metrics.orphanLockUs).toBe(18_000);
  });

  it('tells the earliest orphan, whichever key it is on', () => {
    const other = 'lock:stock:2';
    const { violations } = checkHistory(history([
      [0, setup()],
      // r1 on lock:stock:1 is orphaned from 5_000 (its acquire timed out) ...
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', 30_000)],
      [5_000, lockOp('acquire', 'info', 'r1')],
      [5_001, requestOp('fail', 'r1')],
      // ... r2 on lock:stock:2, whose key appears first in the history, only from 8_000.
      [2, { process: 'client-1', type: 'invoke', f: 'request', request: 'r2', sku: 2, qty: 1 }],
      [3, { process: 'client-1/w2', request: 'r2', type: 'invoke', f: 'acquire', key: other }],
      [4, { process: 'redis-0', type: 'info', f: 'key-state', node: 'redis-0', key: other, holder: 'r2', expiresAtUs: 30_000, cause: 'write', by: 'r2', previousHolder: null }],
      [8_000, { process: 'client-1/w2', request: 'r2', type: 'info', f: 'acquire', key: other }],
      [8_001, { process: 'client-1', type: 'fail', f: 'request', request: 'r2', sku: 2, qty: 1, outcome: 'lock-error' }],
      end,
    ]));
    expect(violations.map((v) => [v.kind, v.subject, v.timeUs])).toEqual([['orphaned-lock', K, 5_000]]);
  });

  describe('a lock the server knows by thread (Redisson reentrancy)', () => {
    // r1 (thread w1) left a hold behind: its unlock brought the count down to 1, not 0. r2 on
    // the same thread re-enters it at 2_000 (the holder becomes r2 on its HINCRBY) and
    // unlocks back to 1 at 2_500. r3 runs on another thread and is turned away.
    const entries = (lockOwner: 'request' | 'thread'): Entry[] => [
      [0, setup(lockOwner)],
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', 50_000)],
      [20, lockOp('acquire', 'ok', 'r1')],
      [500, lockOp('release', 'invoke', 'r1')],
      [505, held('redis-0', 'r1', 50_000)],
      [510, lockOp('release', 'ok', 'r1')],
      [511, requestOp('ok', 'r1')],
      [1_990, requestOp('invoke', 'r2')],
      [2_000, lockOp('acquire', 'invoke', 'r2')],
      [2_005, held('redis-0', 'r2', 50_000)],
      [2_010, lockOp('acquire', 'ok', 'r2')],
      [2_500, lockOp('release', 'invoke', 'r2')],
      [2_505, held('redis-0', 'r2', 50_000)],
      [2_510, lockOp('release', 'ok', 'r2')],
      [2_511, requestOp('ok', 'r2')],
      [50_000, gone('redis-0', 'r2', 'expire')],
      end,
    ];

    it('is orphaned outside the thread\'s requests, and says the count stayed above zero', () => {
      const { metrics, violations } = checkHistory(history(entries('thread')));
      expect(metrics.orphanLockUs).toBe(2_000 - 510 + (50_000 - 2_510));
      expect(violations[0].summary).toContain('a reentrant count above zero');
      expect(verdictOf(metrics)).toBe('DEGRADED');
    });

    it('counts the re-entering request as working under the hold from its acquire on', () => {
      // Judged by request instead of thread, the 5 us before r2's HINCRBY would count too.
      const byThread = checkHistory(history(entries('thread'))).metrics.orphanLockUs;
      const byRequest = checkHistory(history(entries('request'))).metrics.orphanLockUs;
      expect(byRequest - byThread).toBe(5);
    });
  });

  it('a run with orphan time and a broken lock is LEAKY, not DEGRADED', () => {
    const { metrics } = checkHistory(history([
      [0, setup()],
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', 20_000)],
      [20, lockOp('acquire', 'ok', 'r1')],
      [2_000, { process: 'nemesis', type: 'info', f: 'fault', fault: 'crash', phase: 'start', target: 'client-1', detail: 'kill -9' }],
      [2_000, requestOp('info', 'r1')],
      [20_000, gone('redis-0', 'r1', 'expire')],
      end,
    ]));
    expect(metrics.orphanLockUs).toBeGreaterThan(0);
    expect(verdictOf(metrics)).toBe('LEAKY');
  });
});
