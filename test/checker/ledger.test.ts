/**
 * The request ledger the observers share: critical sections and where each ends, crashes,
 * which requests' facts it holds and drops, when the checker withholds its verdict because a
 * dropped request was named again, and what a re-run must keep.
 */
import { describe, expect, it } from 'vitest';
import { CheckerArena } from '../../src/checker/arena.js';
import { checkHistory, criticalSections } from '../../src/checker/check-history.js';
import { Checker } from '../../src/checker/checker.js';
import { clientOfThread } from '../../src/checker/ledger.js';
import type { Operation } from '../../src/history/operation.js';
import { formatMicros } from '../../src/engine/time.js';
import { end, fault, history, K, keyState, lockOp, requestOp, section, setup, type Entry } from './histories.js';

/** Request `id` on `thread`: arrives at `from`, holds the lock from `from` + 10. */
const entering = (id: string, from: number, thread = 'client-1/w1', leaseMs: number | null = 1000): Entry[] => [
  [from, requestOp('invoke', id, { client: clientOfThread(thread) })],
  [from + 1, lockOp('acquire', 'invoke', id, { thread })],
  [from + 10, lockOp('acquire', 'ok', id, { thread, leaseMs })],
];
const sectionsOf = (entries: Entry[]) => criticalSections(history(entries)).sections.map((s) => [s.request, s.startUs, s.endUs]);

describe('critical sections', () => {
  it('open at a successful acquire and end when the release is invoked; a failed acquire opens none', () => {
    const { sections, endUs } = criticalSections(history([
      [0, setup()],
      ...entering('r1', 0, 'client-1/w1', 30_000),
      [500, lockOp('release', 'invoke', 'r1')],
      [600, lockOp('release', 'ok', 'r1')],
      [700, requestOp('ok', 'r1', { outcome: 'ordered' })],
      [800, requestOp('invoke', 'r2')],
      [801, lockOp('acquire', 'invoke', 'r2')],
      [900, lockOp('acquire', 'fail', 'r2')],
      [901, requestOp('fail', 'r2', { outcome: 'lock-busy' })],
      [1_000, end()],
    ]));
    expect(sections).toEqual([{ request: 'r1', thread: 'client-1/w1', client: 'client-1', key: K, startUs: 10, endUs: 500, shared: false }]);
    expect(endUs).toBe(1_000);
  });

  it('end without a release at their request\'s end, and at the run\'s end when still open', () => {
    expect(sectionsOf([
      [0, setup()],
      ...entering('r1', 0, 'client-1/w1', null),
      [300, requestOp('fail', 'r1', { outcome: 'db-error' })],
      ...entering('r2', 400, 'client-1/w2'),
      [900, end()],
    ])).toEqual([['r1', 10, 300], ['r2', 410, 900]]);
  });

  it('of a client end at its crash, not those of another client nor at its restart', () => {
    expect(sectionsOf([
      [0, setup()],
      ...entering('r1', 0, 'client-1/w1'),
      ...entering('r2', 0, 'client-2/w1'),
      [100, fault('crash', 'start', 'client-1', 'kill -9')],
      [200, fault('crash', 'end', 'client-1', 'restarted')],
      ...entering('r3', 300, 'client-1/w1'),
      [400, fault('crash', 'end', 'client-2', 'restarted')],
      [500, fault('pause', 'start', 'client-2', 'GC')],
      [600, fault('crash', 'start', 'client-22', 'kill -9')],
      [700, fault('crash', 'start', 'client-1', 'kill -9')],
      [900, end()],
    ])).toEqual([['r1', 10, 100], ['r2', 10, 900], ['r3', 310, 700]]);
  });

  it('come in order of start, then of request', () => {
    expect(sectionsOf([
      [0, setup()],
      ...entering('r3', 100, 'client-1/w3'),
      ...entering('r1', 100, 'client-1/w1'),
      ...entering('r2', 95, 'client-1/w2'),
      [1_000, end()],
    ]).map(([r, from]) => [r, from])).toEqual([['r2', 105], ['r1', 110], ['r3', 110]]);
  });

  it('of a request that acquires again while its section is open: the first ends where the second begins', () => {
    expect(sectionsOf([[0, setup()], ...entering('r1', 0), [50, lockOp('acquire', 'ok', 'r1')], [900, end()]])).toEqual([['r1', 10, 50], ['r1', 50, 900]]);
  });

  it('name the client of a thread', () => {
    expect(clientOfThread('client-12/w3')).toBe('client-12');
    expect(clientOfThread('client-1')).toBe('client-1');
  });
});

describe('histories the workload never records', () => {
  it('judge a request\'s first invocation and completion, ignoring repeats', () => {
    const once = history([[0, setup()], [10, requestOp('invoke', 'r1')], [20, requestOp('ok', 'r1', { outcome: 'ordered' })], [30, end()]]);
    const twice = history([[0, setup()], [10, requestOp('invoke', 'r1')], [15, requestOp('invoke', 'r1')], [20, requestOp('ok', 'r1', { outcome: 'ordered' })], [25, requestOp('fail', 'r1', { outcome: 'db-error' })], [30, end()]]);
    expect(checkHistory(twice).metrics).toEqual(checkHistory(once).metrics);
    expect(checkHistory(once).metrics).toMatchObject({ requests: 1, orders: 1, latencyP50Us: 10 });
  });
  it('refuse a history that does not begin with its setup, or goes back in time', () => {
    const judge = (ops: Operation[]) => {
      const c = new Checker();
      for (const op of ops) c.observe(op);
      return c.finish();
    };
    expect(() => judge(history([[0, requestOp('invoke', 'r1')], [10, setup()], [20, end()]]))).toThrow(/begins with its setup/);
    const ops = history([[0, setup()], ...section('r1', 100, 500), [600, end()]]);
    const backwards = [ops[0], { ...ops[2], timeUs: 400 }, ops[1], ...ops.slice(3)].map((op, index) => ({ ...op, index }));
    expect(() => judge(backwards)).toThrow(/back in time/);
    // Judged as a recorded history, the same operations are put in time order first.
    expect(checkHistory(backwards).metrics.requests).toBe(1);
  });
});

function stream(ops: readonly Operation[], graceUs: number, keep?: ReadonlySet<string>, arena?: CheckerArena): Checker {
  const s = new Checker({ graceUs, keep, arena });
  for (const op of ops) s.observe(op);
  return s;
}

/** r1 takes and releases the lock on the primary; a replica applies r1's SET at `lateUs` and is promoted. */
function lateReplica(lateUs: number): Operation[] {
  return history([
    [0, setup()],
    [100, keyState('redis-0', 'r1')],
    ...section('r1', 100, 200),
    [200, keyState('redis-0', null, { by: 'r1', previousHolder: 'r1' })],
    [lateUs, keyState('redis-1', 'r1', { expiresAtUs: null })],
    [lateUs + 10, fault('failover', 'event', 'redis-1')],
    [lateUs + 1_000, end()],
  ]);
}

describe('facts of finished requests', () => {
  it('are dropped after the grace; a server naming one again withholds the verdict', () => {
    const s = stream(lateReplica(10_000), 0);
    expect(s.finish()).toBeNull();
    expect(s.incompleteBecause).toContain('r1');
  });
  it('are held within the grace, and the run is judged as its replay judges it', () => {
    const ops = lateReplica(10_000);
    const verdict = stream(ops, 60_000_000).finish();
    expect(verdict).toEqual(checkHistory(ops));
    expect(verdict?.metrics.stuckLockUs).toBeGreaterThan(0); // the promoted copy has no TTL
  });
  it('of the requests named again are what a re-run keeps, and it judges the run', () => {
    const ops = lateReplica(10_000);
    const s = stream(ops, 0);
    expect(s.finish()).toBeNull();
    expect([...(s.rerunKeeping ?? [])]).toEqual(['r1']);
    const again = stream(ops, 0, s.rerunKeeping ?? undefined);
    expect(again.finish()).toEqual(checkHistory(ops));
    expect(again.rerunKeeping).toBeNull();
  });
  it('need no keeping in a run that was judged', () => {
    const s = stream(lateReplica(10_000), 60_000_000);
    expect(s.finish()).not.toBeNull();
    expect(s.rerunKeeping).toBeNull();
  });
  it('named again are all found in one pass, not only the first', () => {
    const ops = history([
      [0, setup()],
      ...section('r1', 100, 200),
      [100, keyState('redis-0', 'r1')],
      [200, keyState('redis-0', null, { by: 'r1', previousHolder: 'r1' })],
      ...section('r2', 300, 400),
      [300, keyState('redis-0', 'r2')],
      [400, keyState('redis-0', null, { by: 'r2', previousHolder: 'r2' })],
      [10_000, keyState('redis-1', 'r1', { expiresAtUs: null })],
      [20_000, keyState('redis-1', 'r2', { expiresAtUs: null })],
      [20_010, fault('failover', 'event', 'redis-1')],
      [21_000, end()],
    ]);
    const s = stream(ops, 0);
    expect(s.finish()).toBeNull();
    expect([...(s.rerunKeeping ?? [])].sort()).toEqual(['r1', 'r2']);
    expect(stream(ops, 0, s.rerunKeeping ?? undefined).finish()).toEqual(checkHistory(ops));
  });

  it('of requests still open are the only ones held when finished ones are dropped at once', () => {
    const ops = sequential(2_000);
    const s = stream(ops, 0);
    expect(s.heldRequests).toBeLessThanOrEqual(2);
    expect(s.finish()).toEqual(checkHistory(ops));
  });
  it('of every request finished within the grace are held', () => {
    const ops = sequential(2_000);
    const s = stream(ops, 3_600_000_000);
    expect(s.heldRequests).toBe(2_000);
    expect(s.finish()).toEqual(checkHistory(ops));
  });
  // The queue of finished requests is a ring (retire-queue.ts): here it holds about 1,500
  // while older ones leave, so it wraps around and doubles past its first 1,024 slots.
  it('finished within the last grace are held while older ones are dropped', () => {
    const ops = sequential(5_000);
    const s = stream(ops, 1_500_000);
    expect(s.heldRequests).toBeGreaterThan(1_024);
    expect(s.heldRequests).toBeLessThanOrEqual(1_502);
    expect(s.finish()).toEqual(checkHistory(ops));
  });
});

describe('the arena', () => {
  // A judged checker gives its requests' objects, table and store to the next (arena.ts).
  it('gives the next checker objects that judge as new ones do', () => {
    const arena = new CheckerArena();
    const first = sequential(300);
    const a = stream(first, 3_600_000_000, undefined, arena);
    const verdict = a.finish();
    expect(arena.spareEntries).toBe(300);
    const second = lateReplica(500_000);
    const b = stream(second, 3_600_000_000, undefined, arena);
    expect(b.finish()).toEqual(checkHistory(second));
    expect(a.finish()).toBe(verdict);
    expect(verdict).toEqual(checkHistory(first));
  });
  it('gives nothing back for a checker that withheld its verdict', () => {
    const arena = new CheckerArena();
    expect(stream(lateReplica(10_000), 0, undefined, arena).finish()).toBeNull();
    expect(arena.spareEntries).toBe(0);
  });
  it('judges the same history again after the checker before it held or dropped every request of it', () => {
    const arena = new CheckerArena();
    const ops = sequential(300);
    for (const graceUs of [0, 3_600_000_000]) {
      expect(stream(ops, graceUs, undefined, arena).finish()).toEqual(checkHistory(ops));
      const again = stream(ops, graceUs, undefined, arena);
      expect([graceUs, again.finish(), again.incompleteBecause]).toEqual([graceUs, checkHistory(ops), null]);
    }
  });
});

function sequential(n: number): Operation[] {
  const entries: Entry[] = [[0, setup({ available: n })]];
  for (let i = 1; i <= n; i++) {
    const t = i * 1_000;
    entries.push([t, keyState('redis-0', `r${i}`)], ...section(`r${i}`, t, t + 500), [t + 500, keyState('redis-0', null, { by: `r${i}`, previousHolder: `r${i}` })]);
  }
  entries.push([(n + 1) * 1_000, end()]);
  return history(entries);
}

// The instants of the requests held live in a column store (ledger-entry.ts), a slot a request.
describe('instants past 2^31 us (35.8 simulated minutes)', () => {
  const T = 2 ** 32;
  it('judges requests that start and end past 2^31 us as their replay does', () => {
    const entries: Entry[] = [[0, setup({ available: 50, durationUs: T + 100_000 })]];
    for (let i = 1; i <= 40; i++) {
      const t = T + i * 1_000;
      entries.push([t, keyState('redis-0', `r${i}`, { expiresAtUs: t + 10_000 })], ...section(`r${i}`, t, t + 500), [t + 500, keyState('redis-0', null, { by: `r${i}`, previousHolder: `r${i}` })]);
    }
    entries.push([T + 100_000, end()]);
    const ops = history(entries);
    for (const graceUs of [0, 5_000, 60_000_000]) {
      const verdict = stream(ops, graceUs).finish();
      expect([graceUs, verdict]).toEqual([graceUs, checkHistory(ops)]);
      expect(verdict?.metrics.latencyP50Us).toBe(502);
    }
  });
  // r1 dies holding the lock and is the first orphan; dropped at once (grace 0), it keeps its
  // instants in a store of its own while r2-r4 take its slot, and the orphan's story tells when it died.
  it('tells when the first orphan\'s holder died after its request was dropped and its slot given to later requests', () => {
    const entries: Entry[] = [
      [0, setup({ durationUs: T + 100_000 })],
      [T, requestOp('invoke', 'r1')],
      [T + 1, lockOp('acquire', 'invoke', 'r1')],
      [T + 10, keyState('redis-0', 'r1', { expiresAtUs: T + 20_000 })],
      [T + 20, lockOp('acquire', 'ok', 'r1', { leaseMs: 20 })],
      [T + 2_000, requestOp('info', 'r1')],
      [T + 20_000, keyState('redis-0', null, { cause: 'expire', by: '', previousHolder: 'r1' })],
    ];
    for (let i = 2; i <= 4; i++) {
      const t = T + i * 10_000 + 20_000;
      entries.push([t, keyState('redis-0', `r${i}`, { expiresAtUs: t + 10_000 })], ...section(`r${i}`, t, t + 500), [t + 500, keyState('redis-0', null, { by: `r${i}`, previousHolder: `r${i}` })]);
    }
    entries.push([T + 100_000, end()]);
    const ops = history(entries);
    const batch = checkHistory(ops);
    expect(batch.violations.find((v) => v.kind === 'orphaned-lock')?.summary).toContain(`its process died at ${formatMicros(T + 2_000)}`);
    for (const graceUs of [0, 60_000_000]) expect([graceUs, stream(ops, graceUs).finish()]).toEqual([graceUs, batch]);
  });
});
