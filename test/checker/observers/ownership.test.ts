/**
 * Who held each lock key on the authoritative server (the primary, following failovers; a
 * quorum of Redlock masters), and the verdicts drawn from it: lock lost, foreign unlock and
 * stuck time. Each failure sits next to the history that must not count one.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import { SegmentStream, type Segment } from '../../../src/checker/segments.js';
import type { SetupOp } from '../../../src/history/operation.js';
import { end, fault, history, K, keyState, lockOp, requestOp, section, setup, type Entry, type SetupOptions } from '../histories.js';

/** Every final segment of each key (segments.ts), in order, those of no length left out. */
const segmentsOf = (entries: Entry[], o: SetupOptions = {}) => {
  const ops = history([[0, setup(o)], ...entries]);
  const first = ops[0] as SetupOp;
  const judged = new Map<string, Segment[]>();
  const stream = new SegmentStream(first.primary, first.lockNodes, first.quorum, {
    judge: (k, seg) => void (seg.endUs > seg.startUs && judged.get(k.key)?.push({ ...seg })),
    created: (k) => void judged.set(k.key, []),
    pin() {},
    unpin() {},
    horizonUs: () => 0,
  });
  let endUs = 0;
  for (const op of ops) {
    endUs = Math.max(endUs, op.timeUs);
    if (op.f === 'key-state') stream.keyState(op);
    else if (op.f === 'fault' && op.fault === 'failover') stream.failover(op);
  }
  stream.finish(endUs);
  return Object.fromEntries([...judged].map(([key, list]) => [key, list.map((s) => [s.startUs, s.endUs, s.holder, s.hasTtl])]));
};
/** The ownership observer's figures and first violations (lock lost, foreign unlock, stuck lock) over the history. */
const ownership = (entries: Entry[], o: SetupOptions = {}) => {
  const { metrics: m, violations } = checkHistory(history([[0, setup(o)], ...entries]));
  const kinds = ['lock-lost', 'foreign-unlock', 'stuck-lock'];
  return { lockLost: m.lockLost, foreignUnlocks: m.foreignUnlocks, stuckUs: m.stuckLockUs, violations: violations.filter((v) => kinds.includes(v.kind)) };
};
const failover = (to: string): Entry[1] => fault('failover', 'event', to, 'promoted');

describe('authoritative segments on a primary', () => {
  it('holds a key from its write until it expires, is deleted or is overwritten', () => {
    expect(segmentsOf([
      [100, keyState('redis-0', 'r1', { expiresAtUs: 1_000 })],
      [2_000, keyState('redis-0', 'r2', { expiresAtUs: 9_000 })],
      [3_000, keyState('redis-0', 'r3', { expiresAtUs: 9_000, previousHolder: 'r2' })],
      [4_000, keyState('redis-0', null, { previousHolder: 'r3', by: 'r3' })],
      [10_000, end()],
    ])).toEqual({ [K]: [[100, 1_000, 'r1', true], [2_000, 3_000, 'r2', true], [3_000, 4_000, 'r3', true]] });
  });

  it('gives no segment to a hold overwritten at the instant it was written', () => {
    expect(segmentsOf([
      [100, keyState('redis-0', 'r1', { expiresAtUs: 9_000 })],
      [100, keyState('redis-0', 'r2', { expiresAtUs: 9_000, previousHolder: 'r1' })],
      [10_000, end()],
    ])).toEqual({ [K]: [[100, 9_000, 'r2', true]] });
  });

  it('holds a key without a TTL until the run\'s end', () => {
    expect(segmentsOf([[100, keyState('redis-0', 'r1', { expiresAtUs: null })], [5_000, end()]])).toEqual({ [K]: [[100, 5_000, 'r1', false]] });
  });

  it('gives no segment to a key written already expired (a clock ahead)', () => {
    expect(segmentsOf([[100, keyState('redis-0', 'r1', { expiresAtUs: 100 })], [5_000, end()]])).toEqual({ [K]: [] });
    expect(segmentsOf([[100, keyState('redis-0', 'r1', { expiresAtUs: 101 })], [5_000, end()]])).toEqual({ [K]: [[100, 101, 'r1', true]] });
  });

  it('ignores replicas until a failover, then follows the promoted one\'s copy', () => {
    expect(segmentsOf([
      [100, keyState('redis-0', 'r1', { expiresAtUs: 50_000 })],
      [150, keyState('redis-1', 'r1', { expiresAtUs: 50_000, cause: 'sync' })],
      [500, keyState('redis-1', null, { cause: 'sync', by: '', previousHolder: 'r1' })], // a replica's change: not the lock's
      [600, keyState('redis-1', 'r0', { expiresAtUs: 40_000, cause: 'sync' })],
      [1_000, failover('redis-1')],
      [2_000, keyState('redis-0', null, { previousHolder: 'r1', by: 'r1' })], // the old primary no longer counts
      [30_000, keyState('redis-1', 'r2', { expiresAtUs: 60_000 })],
      [70_000, end()],
    ])).toEqual({ [K]: [[100, 1_000, 'r1', true], [1_000, 30_000, 'r0', true], [30_000, 60_000, 'r2', true]] });
  });

  it('holds nothing after a failover to a replica whose copy expires at that very instant', () => {
    const at = (expiresAtUs: number) => segmentsOf([
      [100, keyState('redis-0', 'r1', { expiresAtUs: 50_000 })],
      [150, keyState('redis-1', 'r1', { expiresAtUs, cause: 'sync' })],
      [1_000, failover('redis-1')],
      [60_000, end()],
    ]);
    expect(at(1_000)).toEqual({ [K]: [[100, 1_000, 'r1', true]] });
    expect(at(1_001)).toEqual({ [K]: [[100, 1_000, 'r1', true], [1_000, 1_001, 'r1', true]] });
  });

  it('switches every key at a failover, and a key the promoted replica lacks is gone', () => {
    const K2 = 'lock:stock:2';
    expect(segmentsOf([
      [100, keyState('redis-0', 'r1', { expiresAtUs: 50_000 })],
      [110, keyState('redis-0', 'r2', { expiresAtUs: 50_000, key: K2 })],
      [150, keyState('redis-1', 'r2', { expiresAtUs: 45_000, key: K2, cause: 'sync' })],
      [1_000, failover('redis-1')],
      [60_000, end()],
    ])).toEqual({ [K]: [[100, 1_000, 'r1', true]], [K2]: [[110, 1_000, 'r2', true], [1_000, 45_000, 'r2', true]] });
  });

  it('starts from the setup\'s primary', () => {
    const entries: Entry[] = [[100, keyState('redis-1', 'r1', { expiresAtUs: null })], [500, end()]];
    expect(segmentsOf(entries, { primary: 'redis-1' })).toEqual({ [K]: [[100, 500, 'r1', false]] });
    expect(segmentsOf(entries)).toEqual({});
  });
});

describe('authoritative segments of Redlock (a quorum of independent masters)', () => {
  const nodes = ['redis-0', 'redis-1', 'redis-2', 'redis-3', 'redis-4'];
  const redlock: SetupOptions = { lockNodes: nodes, quorum: 3 };

  it('holds the key from the quorum-th write until the quorum-th latest deadline, re-judged at each change', () => {
    // At 30: deadlines 4000, 3000, 1000 -> until 1000; at 40 a fourth (2000) makes it 2000.
    expect(segmentsOf([
      [10, keyState('redis-0', 'r1', { expiresAtUs: 4_000 })],
      [20, keyState('redis-1', 'r1', { expiresAtUs: 1_000 })],
      [30, keyState('redis-2', 'r1', { expiresAtUs: 3_000 })],
      [40, keyState('redis-3', 'r1', { expiresAtUs: 2_000 })],
      [10_000, end()],
    ], redlock)).toEqual({ [K]: [[30, 40, 'r1', true], [40, 2_000, 'r1', true]] });
  });

  it('ends the holder\'s hold when it drops below the quorum, while a competitor holds a minority', () => {
    expect(segmentsOf([
      [10, keyState('redis-0', 'r1', { expiresAtUs: 9_000 })],
      [20, keyState('redis-1', 'r1', { expiresAtUs: 9_000 })],
      [30, keyState('redis-2', 'r1', { expiresAtUs: 9_000 })],
      [40, keyState('redis-3', 'r2', { expiresAtUs: 9_000 })],
      [50, keyState('redis-4', 'r2', { expiresAtUs: 9_000 })],
      [200, keyState('redis-0', null, { previousHolder: 'r1', by: 'r1' })],
      [10_000, end()],
    ], redlock)).toEqual({ [K]: [[30, 40, 'r1', true], [40, 50, 'r1', true], [50, 200, 'r1', true]] });
  });

  it('gives no segment to a hold re-judged at the instant it began', () => {
    expect(segmentsOf([
      [10, keyState('redis-0', 'r1', { expiresAtUs: 9_000 })],
      [20, keyState('redis-1', 'r1', { expiresAtUs: 9_000 })],
      [30, keyState('redis-2', 'r1', { expiresAtUs: 9_000 })],
      [30, keyState('redis-3', 'r1', { expiresAtUs: 9_000 })],
      [10_000, end()],
    ], redlock)).toEqual({ [K]: [[30, 9_000, 'r1', true]] });
  });

  it('does not count a master whose copy had expired, to the microsecond', () => {
    const at = (expiresAtUs: number) => segmentsOf([
      [10, keyState('redis-0', 'r1', { expiresAtUs })],
      [20, keyState('redis-1', 'r1', { expiresAtUs: 5_000 })],
      [500, keyState('redis-2', 'r1', { expiresAtUs: 5_000 })],
      [10_000, end()],
    ], redlock);
    expect(at(500)).toEqual({ [K]: [] });
    expect(at(501)).toEqual({ [K]: [[500, 501, 'r1', true]] });
  });

  it('ends the hold when a master drops out of the quorum, and keeps it without TTLs until the run\'s end', () => {
    expect(segmentsOf([
      [10, keyState('redis-0', 'r1', { expiresAtUs: null })],
      [20, keyState('redis-1', 'r1', { expiresAtUs: null })],
      [30, keyState('redis-2', 'r1', { expiresAtUs: null })],
      [40, keyState('redis-3', 'r1', { expiresAtUs: null })],
      [100, keyState('redis-3', null, { previousHolder: 'r1' })], // 3 left: still a quorum
      [200, keyState('redis-2', null, { previousHolder: 'r1' })], // 2 left: none
      [300, keyState('redis-2', 'r2', { expiresAtUs: null })],
      [400, keyState('redis-2', 'r1', { expiresAtUs: null, previousHolder: 'r2' })], // back to 3
      [500, keyState('redis-0', null, { previousHolder: 'r1' })],
      [600, keyState('redis-1', null, { previousHolder: 'r1' })], // gone on 3 of 5 masters: nobody holds it
      [1_000, end()],
    ], redlock)).toEqual({ [K]: [[30, 40, 'r1', false], [40, 100, 'r1', false], [100, 200, 'r1', false], [400, 500, 'r1', false]] });
  });

  it('ignores nodes that are not lock masters', () => {
    expect(segmentsOf([
      [10, keyState('redis-0', 'r1', { expiresAtUs: 9_000 })],
      [20, keyState('redis-1', 'r1', { expiresAtUs: 9_000 })],
      [30, keyState('redis-9', 'r1', { expiresAtUs: 9_000 })],
      [10_000, end()],
    ], redlock)).toEqual({ [K]: [] });
  });

  it('judges quorums per key', () => {
    const K2 = 'lock:stock:2';
    expect(segmentsOf([
      [10, keyState('redis-0', 'r1', { expiresAtUs: 9_000 })],
      [20, keyState('redis-1', 'r1', { expiresAtUs: 9_000 })],
      [30, keyState('redis-2', 'r1', { expiresAtUs: 9_000, key: K2 })],
      [10_000, end()],
    ], redlock)).toEqual({ [K]: [], [K2]: [] });
  });
});

describe('lock lost', () => {
  /** r1's section [1_000, 5_000); its key written at 900, expiring at `expiresAtUs`; r2 may take it at 5_000. */
  const expiring = (expiresAtUs: number, handOver = false): Entry[] => [
    [900, keyState('redis-0', 'r1', { expiresAtUs })],
    ...section('r1', 1_000, 5_000),
    ...(handOver ? [[5_000, keyState('redis-0', 'r2', { expiresAtUs: 9_000 })] as Entry] : []),
    [10_000, end()],
  ];

  it('is lost when the key expires 1 us before the section ends', () => {
    const stats = ownership(expiring(4_999));
    expect(stats.lockLost).toBe(1);
    expect(stats.violations).toContainEqual({
      kind: 'lock-lost',
      timeUs: 4_999,
      subject: K,
      requests: ['r1'],
      summary: `client-1/w1 (r1) was inside its critical section but ${K} on the primary was no longer its lock`,
    });
  });

  it('is kept when the key expires exactly as the section ends, and the next holder takes it then', () => {
    expect(ownership(expiring(5_000)).lockLost).toBe(0);
    expect(ownership(expiring(5_000, true)).lockLost).toBe(0);
    expect(ownership(expiring(4_999, true)).violations.find((v) => v.kind === 'lock-lost')?.timeUs).toBe(4_999);
  });

  it('is kept by a section entered at the instant the previous holder\'s key goes and its own is written', () => {
    const entering = (writtenAtUs: number) => ownership([
      [500, keyState('redis-0', 'r0', { expiresAtUs: 1_000 })],
      [writtenAtUs, keyState('redis-0', 'r1', { expiresAtUs: 9_000 })],
      ...section('r1', 1_000, 5_000),
      [10_000, end()],
    ]);
    expect(entering(1_000).lockLost).toBe(0);
    // Its neighbour: its key lands 1 us after it entered.
    expect(entering(1_001).violations.find((v) => v.kind === 'lock-lost')?.timeUs).toBe(1_000);
  });

  it('is not lost by a section of no length (acquired and left at one instant)', () => {
    const at = (leftAtUs: number) => ownership([
      ...section('r1', 1_000, leftAtUs),
      [2_000, keyState('redis-0', 'r1', { expiresAtUs: 9_000 })], // its key lands later
      [10_000, end()],
    ]).lockLost;
    expect(at(1_000)).toBe(0);
    expect(at(1_001)).toBe(1);
  });

  it('is lost from the start of a section entered while the key was someone else\'s', () => {
    const stats = ownership([
      [500, keyState('redis-0', 'r0', { expiresAtUs: 9_000 })],
      ...section('r1', 1_000, 5_000),
      [10_000, end()],
    ]);
    expect(stats.lockLost).toBe(1);
    expect(stats.violations.find((v) => v.kind === 'lock-lost')?.timeUs).toBe(1_000);
  });

  it('is lost in a gap between two holds of the same request (a lock re-taken after it expired)', () => {
    const stats = ownership([
      [900, keyState('redis-0', 'r1', { expiresAtUs: 2_000 })],
      [2_500, keyState('redis-0', 'r1', { expiresAtUs: 9_000 })],
      ...section('r1', 1_000, 5_000),
      [10_000, end()],
    ]);
    expect(stats.violations.find((v) => v.kind === 'lock-lost')?.timeUs).toBe(2_000);
    // Its neighbour: renewed before it ran out (a watchdog), the hold has no gap.
    expect(ownership([
      [900, keyState('redis-0', 'r1', { expiresAtUs: 2_000 })],
      [1_999, keyState('redis-0', 'r1', { expiresAtUs: 9_000, cause: 'renew' })],
      ...section('r1', 1_000, 5_000),
      [10_000, end()],
    ]).lockLost).toBe(0);
  });

  it('is lost when the key is gone before the section starts and never returns', () => {
    const stats = ownership([
      [500, keyState('redis-0', 'r0', { expiresAtUs: 800 })],
      ...section('r1', 1_000, 5_000),
      [10_000, end()],
    ]);
    expect(stats.violations.find((v) => v.kind === 'lock-lost')?.timeUs).toBe(1_000);
  });

  it('is not judged on a key no server ever held (no lock in use)', () => {
    const stats = ownership([...section('r1', 1_000, 5_000), [10_000, end()]]);
    expect(stats).toEqual({ lockLost: 0, foreignUnlocks: 0, stuckUs: 0, violations: [] });
  });

  it('tells the lock lost earliest, not the one in the earliest section', () => {
    const stats = ownership([
      [900, keyState('redis-0', 'r1', { expiresAtUs: 8_000 })],
      [900, keyState('redis-0', 'r2', { expiresAtUs: 1_500, key: 'lock:stock:2' })],
      ...section('r1', 1_000, 9_000),
      ...section('r2', 1_100, 2_000, 'client-1/w2', 'lock:stock:2'),
      [10_000, end()],
    ]);
    expect(stats.lockLost).toBe(2);
    expect(stats.violations.filter((v) => v.kind === 'lock-lost').map((v) => [v.timeUs, v.requests])).toEqual([[1_500, ['r2']]]);
  });

  it('is lost when a failover promotes a replica without the key', () => {
    const lost = (syncedAtUs: number) => ownership([
      [900, keyState('redis-0', 'r1', { expiresAtUs: 30_000 })],
      [syncedAtUs, keyState('redis-1', 'r1', { expiresAtUs: 30_000, cause: 'sync' })],
      ...section('r1', 1_000, 5_000),
      [3_000, failover('redis-1')],
      [30_000, end()],
    ]);
    expect(lost(3_001).violations.find((v) => v.kind === 'lock-lost')?.timeUs).toBe(3_000);
    expect(lost(2_999).lockLost).toBe(0);
  });
});

describe('foreign unlock', () => {
  it('counts every delete of a key held by another request, and tells the first', () => {
    const stats = ownership([
      [100, keyState('redis-0', 'r1')],
      [200, keyState('redis-0', null, { by: 'r2', previousHolder: 'r1' })],
      [300, keyState('redis-0', 'r3')],
      [400, keyState('redis-0', null, { by: 'r4', previousHolder: 'r3' })],
      [1_000, end()],
    ]);
    expect(stats.foreignUnlocks).toBe(2);
    expect(stats.violations.filter((v) => v.kind === 'foreign-unlock')).toEqual([{
      kind: 'foreign-unlock',
      timeUs: 200,
      subject: K,
      requests: ['r1', 'r2'],
      summary: `r2's unlock deleted ${K} on redis-0, which belonged to r1`,
    }]);
  });

  it('does not count a holder\'s own delete, the server\'s, a delete of nothing, or an expiry or overwrite', () => {
    const stats = ownership([
      [100, keyState('redis-0', 'r1')],
      [200, keyState('redis-0', null, { by: 'r1', previousHolder: 'r1' })],
      [300, keyState('redis-0', null, { by: 'r2', previousHolder: null })],
      [400, keyState('redis-0', 'r3')],
      [500, keyState('redis-0', null, { by: '', previousHolder: 'r3' })],
      [600, keyState('redis-0', 'r4')],
      [700, keyState('redis-0', null, { cause: 'expire', by: 'r5', previousHolder: 'r4' })],
      [800, keyState('redis-0', 'r6')],
      [900, keyState('redis-0', 'r7', { previousHolder: 'r6' })],
      [1_000, end()],
    ]);
    expect(stats.foreignUnlocks).toBe(0);
  });
});

describe('stuck time', () => {
  const crash = (client = 'client-1'): Entry[1] => fault('crash', 'start', client, 'kill -9');

  it('counts a key whose holder crashed inside its section, from the crash until the TTL', () => {
    const stats = ownership([
      [0, requestOp('invoke', 'r1')],
      [10, keyState('redis-0', 'r1', { expiresAtUs: 30_000 })],
      [20, lockOp('acquire', 'ok', 'r1', { leaseMs: 30 })],
      [1_000, crash()],
      [50_000, end()],
    ]);
    expect(stats.stuckUs).toBe(29_000);
    expect(stats.violations).toEqual([{
      kind: 'stuck-lock', timeUs: 1_000, subject: K, requests: ['r1'], summary: `${K} stayed held by r1, which could never release it (until its TTL ran out)`,
    }]);
  });

  it('does not count the crash of another client, or one before the request arrived', () => {
    const stats = ownership([
      [0, crash('client-1')],
      [5, requestOp('invoke', 'r1')],
      [10, keyState('redis-0', 'r1', { expiresAtUs: 30_000 })],
      [20, lockOp('acquire', 'ok', 'r1', { leaseMs: 30 })],
      [1_000, crash('client-2')],
      [50_000, end()],
    ]);
    expect(stats.stuckUs).toBe(0);
  });

  it('counts a crash while the acquire is in flight: the key was set but the client never knew', () => {
    const stats = ownership([
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, keyState('redis-0', 'r1', { expiresAtUs: 30_000 })],
      [1_000, crash()],
      [50_000, end()],
    ]);
    expect(stats.stuckUs).toBe(29_000);
  });

  it('counts a SET that lands after its client died from when it lands, even one sent in the microsecond the request arrived', () => {
    const stuck = (crashAtUs: number) => ownership([
      [100, requestOp('invoke', 'r1')],
      [100, lockOp('acquire', 'invoke', 'r1')],
      [crashAtUs, crash()],
      [110, keyState('redis-0', 'r1', { expiresAtUs: 30_000 })],
      [50_000, end()],
    ]).stuckUs;
    expect(stuck(105)).toBe(30_000 - 110);
    expect(stuck(100)).toBe(30_000 - 110);
  });

  it('does not count a crash that came after the request had given up on an acquire that took the lock', () => {
    const stuck = (crashAtUs: number) => ownership([
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, keyState('redis-0', 'r1', { expiresAtUs: 30_000 })],
      [3_000, lockOp('acquire', 'info', 'r1')],
      [3_001, requestOp('fail', 'r1', { outcome: 'lock-error' })],
      [crashAtUs, crash()],
      [50_000, end()],
    ]).stuckUs;
    expect(stuck(5_000)).toBe(0); // an orphan (it gave up at 3_000), not stuck
    expect(stuck(2_000)).toBe(28_000);
  });

  it('counts a crash while the unlock is in flight (it never reached the server), not one after the request ended', () => {
    const stuck = (requestEnd: Entry | null) => ownership([
      [0, requestOp('invoke', 'r1')],
      [10, keyState('redis-0', 'r1', { expiresAtUs: 30_000 })],
      [20, lockOp('acquire', 'ok', 'r1', { leaseMs: 30 })],
      [500, lockOp('release', 'invoke', 'r1')],
      ...(requestEnd ? [requestEnd] : []),
      [1_000, crash()],
      [50_000, end()],
    ]).stuckUs;
    // The workload records the request the crash cut short as lost (info) at the crash.
    expect(stuck([1_000, requestOp('info', 'r1')])).toBe(29_000);
    expect(stuck(null)).toBe(29_000);
    // The request ended at 900 (say its unlock timed out): the crash at 1000 comes after it.
    expect(stuck([900, requestOp('fail', 'r1', { outcome: 'lock-error' })])).toBe(0);
  });

  it('counts a key without a TTL from when its holder left the section, for ever', () => {
    const stats = ownership([
      [10, keyState('redis-0', 'r1', { expiresAtUs: null })],
      ...section('r1', 20, 500),
      [50_000, end()],
    ]);
    expect(stats.stuckUs).toBe(50_000 - 500);
    expect(stats.violations).toContainEqual({
      kind: 'stuck-lock', timeUs: 500, subject: K, requests: ['r1'], summary: `${K} stayed held by r1, which could never release it (no TTL)`,
    });
    // Its neighbour: a TTL, and no crash: not stuck (an orphan until it expires).
    expect(ownership([[10, keyState('redis-0', 'r1', { expiresAtUs: 20_000 })], ...section('r1', 20, 500), [50_000, end()]]).stuckUs).toBe(0);
  });

  it('counts a key without a TTL held by a request that never entered a section from its end; never while it runs', () => {
    const stuck = (entries: Entry[]) => ownership([
      [0, requestOp('invoke', 'r1')],
      [1, lockOp('acquire', 'invoke', 'r1')],
      [10, keyState('redis-0', 'r1', { expiresAtUs: null })],
      ...entries,
      [50_000, end()],
    ]).stuckUs;
    expect(stuck([[3_000, lockOp('acquire', 'info', 'r1')], [4_000, requestOp('fail', 'r1', { outcome: 'lock-error' })]])).toBe(46_000);
    expect(stuck([])).toBe(0);
  });

  it('counts a key without a TTL from when a replica holding it was promoted, if its holder had already left', () => {
    const stats = ownership([
      [10, keyState('redis-0', 'r1', { expiresAtUs: null })],
      [12, keyState('redis-1', 'r1', { expiresAtUs: null, cause: 'sync' })],
      ...section('r1', 20, 500),
      [500, keyState('redis-0', null, { previousHolder: 'r1' })], // its unlock; redis-1 never hears of it
      [8_000, failover('redis-1')],
      [50_000, end()],
    ]);
    expect(stats.stuckUs).toBe(42_000);
    expect(stats.violations.find((v) => v.kind === 'stuck-lock')?.timeUs).toBe(8_000);
  });

  it('tells the stuck lock that began first, whichever key it is on, and adds up all', () => {
    const K2 = 'lock:stock:2';
    const stuck = (crash1Us: number, crash2Us: number) => ownership([
      [0, requestOp('invoke', 'r1')],
      [1, requestOp('invoke', 'r2', { client: 'client-2' })],
      [10, keyState('redis-0', 'r1', { expiresAtUs: 30_000 })],
      [11, keyState('redis-0', 'r2', { expiresAtUs: 30_000, key: K2 })],
      [20, lockOp('acquire', 'ok', 'r1', { leaseMs: 30 })],
      [21, lockOp('acquire', 'ok', 'r2', { leaseMs: 30, key: K2, thread: 'client-2/w1' })],
      [crash1Us, crash('client-1')],
      [crash2Us, crash('client-2')],
      [50_000, end()],
    ]);
    const later = stuck(5_000, 2_000);
    expect(later.stuckUs).toBe(25_000 + 28_000);
    expect(later.violations.map((v) => [v.kind, v.subject, v.timeUs])).toEqual([['stuck-lock', K2, 2_000]]);
    expect(stuck(2_000, 5_000).violations.map((v) => [v.kind, v.subject, v.timeUs])).toEqual([['stuck-lock', K, 2_000]]);
  });
});
