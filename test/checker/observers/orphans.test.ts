/**
 * Orphaned holds on hand-written histories: a lock key held on the authoritative server while
 * none of its owner's requests works under it. Each orphan sits next to the history that must
 * not count one.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import type { NewOperation, Operation } from '../../../src/history/operation.js';
import { verdictOf } from '../../../src/report/verdict-paint.js';
import { history, type Entry } from '../histories.js';


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

describe('where an orphaned hold begins and ends', () => {
  /** r1 takes the lock at 20 (its key expires at 30_000) and its request fails at 3_000 without a release. */
  const kept = (more: Entry[] = []): Entry[] => [
    [0, setup()],
    [0, requestOp('invoke', 'r1')],
    [1, lockOp('acquire', 'invoke', 'r1')],
    [10, held('redis-0', 'r1', 30_000)],
    [20, lockOp('acquire', 'ok', 'r1')],
    [3_000, requestOp('fail', 'r1')],
    ...more,
    end,
  ];

  it('begins when the request ends without releasing, and ends with the key, though its owner comes back later', () => {
    const { metrics } = checkHistory(history(kept([
      // r1's thread comes back to the key with r2 at 40_000, after it expired.
      [40_000, requestOp('invoke', 'r2')],
      [40_001, lockOp('acquire', 'invoke', 'r2')],
      [40_010, held('redis-0', 'r2', 90_000)],
      [40_020, lockOp('acquire', 'ok', 'r2')],
      [40_500, lockOp('release', 'invoke', 'r2')],
      [40_505, gone('redis-0', 'r2')],
      [40_510, lockOp('release', 'ok', 'r2')],
      [40_511, requestOp('ok', 'r2')],
    ])));
    expect(metrics.orphanLockUs).toBe(30_000 - 3_000);
  });

  it('does not count a holder still working under its lock when the run ends', () => {
    const { metrics } = checkHistory(history([
      [0, setup()],
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', null)],
      [20, lockOp('acquire', 'ok', 'r1')],
      end,
    ]));
    expect(metrics.orphanLockUs).toBe(0);
  });

  it('ends a holder\'s work at its own client\'s crash, not at another client\'s crash or its own GC pause', () => {
    const at = (f: NewOperation) => checkHistory(history([
      [0, setup()],
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', 20_000)],
      [20, lockOp('acquire', 'ok', 'r1')],
      [2_000, f],
      [19_000, lockOp('release', 'invoke', 'r1')],
      [19_005, gone('redis-0', 'r1')],
      [19_010, lockOp('release', 'ok', 'r1')],
      [19_011, requestOp('ok', 'r1')],
      end,
    ])).metrics.orphanLockUs;
    const fault = (name: string, target: string): NewOperation => ({ process: 'nemesis', type: 'info', f: 'fault', fault: name, phase: 'start', target, detail: '' });
    expect(at(fault('crash', 'client-1'))).toBe(19_005 - 2_000);
    expect(at(fault('crash', 'client-2'))).toBe(0);
    expect(at(fault('pause', 'client-1'))).toBe(0);
  });
});

describe('what the orphan\'s story says', () => {
  /** r1's acquire (invoked at 1) leaves its key (expiring at 30_000, or without a TTL) behind after `after`. */
  const orphan = (after: Entry[], expiresAtUs: number | null = 30_000, extra: Entry[] = []) => checkHistory(history([
    [0, setup()],
    [0, requestOp('invoke', 'r1')],
    [1, lockOp('acquire', 'invoke', 'r1')],
    [10, held('redis-0', 'r1', expiresAtUs)],
    ...after,
    ...extra,
    end,
  ])).violations.find((v) => v.kind === 'orphaned-lock');
  const acquired: Entry = [20, lockOp('acquire', 'ok', 'r1')];
  const released = (type: Operation['type'], detail?: string): Entry[] => [
    acquired,
    [500, lockOp('release', 'invoke', 'r1')],
    [600, { ...lockOp('release', type, 'r1'), ...(detail ? { detail } : {}) } as NewOperation],
    [601, requestOp(type === 'ok' ? 'ok' : 'fail', 'r1')],
  ];

  it('tells who held what from when, and that the key has a TTL', () => {
    expect(orphan([[3_000, lockOp('acquire', 'info', 'r1')], [3_001, requestOp('fail', 'r1')]])).toEqual({
      kind: 'orphaned-lock',
      timeUs: 3_000,
      subject: K,
      requests: ['r1'],
      summary: `${K} stayed held by r1 with no request of its owner working under it (its acquire got no reply at 3ms but took the lock), until its TTL ran out or someone deleted it`,
    });
  });

  it('says when the key has no TTL', () => {
    expect(orphan([[3_000, lockOp('acquire', 'info', 'r1')], [3_001, requestOp('fail', 'r1')]], null)?.summary)
      .toBe(`${K} stayed held by r1 with no request of its owner working under it (its acquire got no reply at 3ms but took the lock), and it has no TTL`);
  });

  const why = (v: ReturnType<typeof orphan>): string | undefined => v?.summary.match(/working under it \((.*)\), (until|and it)/)?.[1];

  it('tells a refused acquire that left the lock, with the reason or without one', () => {
    const failed = (detail?: string) => orphan([[3_000, { ...lockOp('acquire', 'fail', 'r1'), ...(detail ? { detail } : {}) } as NewOperation], [3_001, requestOp('fail', 'r1')]]);
    expect(why(failed('quorum not reached'))).toBe('its acquire failed at 3ms (quorum not reached) but left the lock');
    expect(why(failed())).toBe('its acquire failed at 3ms (refused) but left the lock');
  });

  it('tells an acquire that succeeded and a request that ended without releasing', () => {
    expect(why(orphan([acquired, [3_000, requestOp('fail', 'r1')]]))).toBe('it never released it');
  });

  it('tells a holder whose process died, not one whose request was lost after its unlock got no reply', () => {
    const crash: Entry = [2_000, { process: 'nemesis', type: 'info', f: 'fault', fault: 'crash', phase: 'start', target: 'client-1', detail: 'kill -9' }];
    expect(why(orphan([acquired, crash, [2_000, requestOp('info', 'r1')]]))).toBe('its process died at 2ms');
    expect(why(orphan([acquired, [500, lockOp('release', 'invoke', 'r1')], [1_500, lockOp('release', 'info', 'r1')], crash, [2_000, requestOp('info', 'r1')]])))
      .toBe('its unlock got no reply at 1.5ms');
  });

  it('tells a holder whose process died while its acquire was in flight (the SET executed)', () => {
    const crash: Entry = [200, { process: 'nemesis', type: 'info', f: 'fault', fault: 'crash', phase: 'start', target: 'client-1', detail: 'kill -9' }];
    // The workload records the request the crash cut short as lost at the crash.
    expect(why(orphan([crash, [200, requestOp('info', 'r1')]]))).toBe('its process died at 200us');
    expect(why(orphan([crash]))).toBe('its acquire at 1us never got a reply');
  });

  it('tells a holder whose process died while its unlock was in flight (it never reached the server)', () => {
    const crash: Entry = [700, { process: 'nemesis', type: 'info', f: 'fault', fault: 'crash', phase: 'start', target: 'client-1', detail: 'kill -9' }];
    expect(why(orphan([acquired, [500, lockOp('release', 'invoke', 'r1')], crash, [700, requestOp('info', 'r1')]]))).toBe('its process died at 700us');
  });

  it('does not take a watchdog renewal without a reply, or a transaction\'s end, for its process dying', () => {
    const renewal: Entry = [1_000, { process: 'client-1/w1', request: 'r1', type: 'info', f: 'renew', detail: 'no reply' }];
    const txn: Entry = [2_000, { process: 'database', type: 'info', f: 'txn', request: 'r1', owner: 'client-1/w1', txn: 3, outcome: 'rollback', cause: 'rollback' }];
    expect(why(orphan([acquired, renewal, txn, [3_000, requestOp('fail', 'r1')]]))).toBe('it never released it');
  });

  it('tells an unlock refused, with the reason or without one, and one that got no reply', () => {
    expect(why(orphan(released('fail', 'not the owner')))).toBe('its unlock failed at 600us (not the owner)');
    expect(why(orphan(released('fail')))).toBe('its unlock failed at 600us (refused)');
    expect(why(orphan(released('info')))).toBe('its unlock got no reply at 600us');
  });

  it('tells a holder the history never saw ask for the lock', () => {
    const { violations, metrics } = checkHistory(history([[0, setup()], [10, held('redis-0', 'r9', 30_000)], end]));
    expect(metrics.orphanLockUs).toBe(30_000 - 10);
    expect(why(violations.find((v) => v.kind === 'orphaned-lock'))).toBe('it never asked for it');
  });

  it('adds the promoted replica when the orphan begins at a failover, and only then', () => {
    const failover: NewOperation = { process: 'nemesis', type: 'info', f: 'fault', fault: 'failover', phase: 'event', target: 'redis-1', detail: 'promoted' };
    const fault = (name: string, atUs: number): Entry => [atUs, { ...failover, fault: name }];
    // r1's acquire times out at 3_000; its key went from redis-0 at 2_000 (a clock jump there) but
    // stayed on the replica redis-1, which is promoted at 5_000.
    const entries = (f: Entry): Entry[] => [
      [0, setup()],
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', 30_000)],
      [12, held('redis-1', 'r1', 30_000, 'sync')],
      [3_000, lockOp('acquire', 'info', 'r1')],
      [3_001, requestOp('fail', 'r1')],
      [2_000, gone('redis-0', 'r1', 'expire')],
      f,
      end,
    ];
    expect(why(checkHistory(history(entries(fault('failover', 5_000)))).violations[0]))
      .toBe('its acquire got no reply at 3ms but took the lock; redis-1 was promoted with a copy of the lock');
    // A fault at that instant that is no failover: nothing holds the key, nothing is orphaned.
    expect(checkHistory(history(entries(fault('partition', 5_000)))).metrics.orphanLockUs).toBe(0);
    // An orphan that begins at another fault's instant is told without a promotion.
    const crashAtTimeout: Entry = [3_000, { process: 'nemesis', type: 'info', f: 'fault', fault: 'crash', phase: 'start', target: 'client-9', detail: '' }];
    expect(why(checkHistory(history([...entries(fault('failover', 5_000)).filter(([, op]) => !(op.f === 'key-state' && op.holder === null)), crashAtTimeout])).violations[0]))
      .toBe('its acquire got no reply at 3ms but took the lock');
  });

  it('tells an acquire that knew it failed but left its lock (Redisson 3.25-3.46 unsynced) apart from one that timed out', () => {
    const ended = (detail: string): string => {
      const { violations } = checkHistory(history([
        [0, setup()],
        [0, requestOp('invoke', 'r1')],
        [1, lockOp('acquire', 'invoke', 'r1')],
        [10, held('redis-0', 'r1', 30_000)],
        [3_000, { process: 'client-1/w1', request: 'r1', type: 'info', f: 'acquire', key: K, detail }],
        [3_001, requestOp('fail', 'r1')],
        end,
      ]));
      return violations[0].summary;
    };
    expect(ended('None of slaves were synced; the lock taken stays held')).toContain(
      '(its acquire ended at 3ms without the lock as far as it knew (None of slaves were synced; the lock taken stays held) but took it)',
    );
    expect(ended('command timed out')).toContain('(its acquire got no reply at 3ms but took the lock)');
  });

  it('tells the earliest orphan whichever key comes first', () => {
    const other = 'lock:stock:2';
    const on = (key: string, request: string, thread: string, timeoutUs: number): Entry[] => [
      [0, { process: 'client-1', type: 'invoke', f: 'request', request, sku: 1, qty: 1 }],
      [1, { process: thread, request, type: 'invoke', f: 'acquire', key }],
      [key === K ? 10 : 11, { process: 'redis-0', type: 'info', f: 'key-state', node: 'redis-0', key, holder: request, expiresAtUs: 30_000, cause: 'write', by: request, previousHolder: null }],
      [timeoutUs, { process: thread, request, type: 'info', f: 'acquire', key }],
    ];
    const first = (kTimeoutUs: number, otherTimeoutUs: number) => checkHistory(history([
      [0, setup()],
      ...on(K, 'r1', 'client-1/w1', kTimeoutUs),
      ...on(other, 'r2', 'client-1/w2', otherTimeoutUs),
      end,
    ])).violations.map((v) => [v.kind, v.subject, v.timeUs]);
    expect(first(5_000, 8_000)).toEqual([['orphaned-lock', K, 5_000]]);
    expect(first(8_000, 5_000)).toEqual([['orphaned-lock', other, 5_000]]);
  });

  // The streaming checker reuses a dropped request's object for a later request unless it
  // still refers to it (stream.ts spare, stream-ownership.ts refersTo): the first orphan keeps
  // its holder's lock work until the end, and so does, with Redisson's thread owners, the
  // key's list of work. Later requests must not rewrite it (the handmade stream test judges
  // these histories with every finished request dropped at once, too).
  for (const lockOwner of ['request', 'thread'] as const) {
    it(`tells the first orphan's own acquire after later requests came and went (owner: ${lockOwner})`, () => {
      const { metrics, violations } = checkHistory(history([
        [0, setup(lockOwner)],
        [0, requestOp('invoke', 'r1')],
        [1, lockOp('acquire', 'invoke', 'r1')],
        [10, held('redis-0', 'r1', 30_000)],
        [3_001, lockOp('acquire', 'info', 'r1')],
        [3_002, requestOp('fail', 'r1')],
        [30_000, gone('redis-0', 'r1', 'expire')],
        ...cleanRequest('r2', 40_000, 'client-1/w2'),
        ...cleanRequest('r3', 50_000, 'client-1/w3'),
        end,
      ]));
      expect(metrics.orphanLockUs).toBe(30_000 - 3_001);
      expect(violations.map((v) => [v.kind, v.requests])).toEqual([['orphaned-lock', ['r1']]]);
      expect(violations[0].summary).toContain('its acquire got no reply');
    });
  }
  describe('a hold on a node that is down', () => {
    const fault = (name: string, phase: 'start' | 'end', atUs: number, target = 'redis-0'): Entry =>
      [atUs, { process: 'nemesis', type: 'info', f: 'fault', fault: name, phase, target, detail: name }];
    // r1 holds the key on redis-0 (expires 40 ms); its unlock fails at 2 ms (the connection
    // reset by a killed primary, or refused); redis-1 is promoted at 5 ms without the key.
    const unlockFails = (faults: Entry[]): Operation[] => history([
      [0, setup()],
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, held('redis-0', 'r1', 40_000)],
      [20, lockOp('acquire', 'ok', 'r1')],
      [1_990, lockOp('release', 'invoke', 'r1')],
      [2_000, lockOp('release', 'fail', 'r1')],
      [2_001, requestOp('ok', 'r1')],
      ...faults,
      end,
    ]);
    const judged = (ops: Operation[]): { orphanUs: number; first: number | undefined } => {
      const r = checkHistory(ops);
      return { orphanUs: r.metrics.orphanLockUs, first: r.violations.find((v) => v.kind === 'orphaned-lock')?.timeUs };
    };
    const promoted: Entry = [5_000, { process: 'nemesis', type: 'info', f: 'fault', fault: 'failover', phase: 'event', target: 'redis-1', detail: 'promoted' }];

    it('is no orphan time while the node is killed (primary-crash), before the promotion ends the hold', () => {
      expect(judged(unlockFails([fault('primary-crash', 'start', 1_500), promoted]))).toEqual({ orphanUs: 0, first: undefined });
    });

    it('counts the same failed unlock on a live primary until the key expires', () => {
      expect(judged(unlockFails([]))).toEqual({ orphanUs: 40_000 - 2_000, first: 2_000 });
    });

    it('counts again from the restart when the node comes back with its data (redis-restart, AOF)', () => {
      const ops = unlockFails([fault('redis-restart', 'start', 1_500), fault('redis-restart', 'end', 9_000)]);
      expect(judged(ops)).toEqual({ orphanUs: 40_000 - 9_000, first: 9_000 });
    });

    it('does not spare a hold on another node that was down', () => {
      const ops = unlockFails([fault('redis-restart', 'start', 1_500, 'redis-1'), fault('redis-restart', 'end', 9_000, 'redis-1')]);
      expect(judged(ops)).toEqual({ orphanUs: 40_000 - 2_000, first: 2_000 });
    });
  });
});
