/**
 * The streaming checker on hand-written histories: what it keeps, when it declines to judge
 * alone (and the batch checker judges), and the instant's order of the double-holder sweep.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check.js';
import { StreamingChecker } from '../../../src/checker/stream.js';
import type { Operation } from '../../../src/history/operation.js';
import { formatMicros } from '../../../src/engine/time.js';
import { end, fault, history, keyState, lockOp, requestOp, section, setup, type Entry } from '../histories.js';

function stream(ops: readonly Operation[], graceUs: number, keep?: ReadonlySet<string>): StreamingChecker {
  const s = new StreamingChecker({ graceUs, keep });
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
  it('declines to judge alone when a server names a request whose facts it dropped', () => {
    const s = stream(lateReplica(10_000), 0);
    expect(s.finish()).toBeNull();
    expect(s.incompleteBecause).toContain('r1');
  });
  it('judges the same history when the late write comes within the grace, as the batch checker does', () => {
    const ops = lateReplica(10_000);
    const verdict = stream(ops, 60_000_000).finish();
    expect(verdict).toEqual(checkHistory(ops));
    expect(verdict?.metrics.stuckLockUs).toBeGreaterThan(0); // the promoted copy has no TTL
  });
  it('names the requests a re-run must keep, and a re-run keeping them judges the run as the batch checker does', () => {
    const ops = lateReplica(10_000);
    const s = stream(ops, 0);
    expect(s.finish()).toBeNull();
    expect([...(s.rerunKeeping ?? [])]).toEqual(['r1']);
    const again = stream(ops, 0, s.rerunKeeping ?? undefined);
    expect(again.finish()).toEqual(checkHistory(ops));
    expect(again.rerunKeeping).toBeNull();
  });
  it('names no request to keep for a run it judged', () => {
    const s = stream(lateReplica(10_000), 60_000_000);
    expect(s.finish()).not.toBeNull();
    expect(s.rerunKeeping).toBeNull();
  });
  it('finds every request named again in one pass, not only the first', () => {
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
    ].sort((a, b) => (a[0] as number) - (b[0] as number)) as Entry[]);
    const s = stream(ops, 0);
    expect(s.finish()).toBeNull();
    expect([...(s.rerunKeeping ?? [])].sort()).toEqual(['r1', 'r2']);
    expect(stream(ops, 0, s.rerunKeeping ?? undefined).finish()).toEqual(checkHistory(ops));
  });

  const sequential = (n: number): Operation[] => {
    const entries: Entry[] = [[0, setup({ available: n })]];
    for (let i = 1; i <= n; i++) {
      const t = i * 1_000;
      entries.push([t, keyState('redis-0', `r${i}`)], ...section(`r${i}`, t, t + 500), [t + 500, keyState('redis-0', null, { by: `r${i}`, previousHolder: `r${i}` })]);
    }
    entries.push([(n + 1) * 1_000, end()]);
    return history(entries);
  };
  it('keeps only requests still open when finished ones are dropped at once', () => {
    const ops = sequential(2_000);
    const s = stream(ops, 0);
    expect(s.heldRequests).toBeLessThanOrEqual(2);
    expect(s.finish()).toEqual(checkHistory(ops));
  });
  it('keeps every request finished within the grace', () => {
    const ops = sequential(2_000);
    const s = stream(ops, 3_600_000_000);
    expect(s.heldRequests).toBe(2_000);
    expect(s.finish()).toEqual(checkHistory(ops));
  });
  // The queue of finished requests is a ring (stream.ts RetireQueue): here it holds about
  // 1,500 while older ones leave, so it wraps around and doubles past its first 1,024 slots.
  it('keeps the requests finished within the last grace while older ones are dropped', () => {
    const ops = sequential(5_000);
    const s = stream(ops, 1_500_000);
    expect(s.heldRequests).toBeGreaterThan(1_024);
    expect(s.heldRequests).toBeLessThanOrEqual(1_502);
    expect(s.finish()).toEqual(checkHistory(ops));
  });
  // A judged checker gives its requests' objects to the next checker (stream.ts SPARE).
  it('gives the same verdict again after the next checker refilled its requests\' objects', () => {
    const first = sequential(300);
    const a = stream(first, 3_600_000_000);
    const verdict = a.finish();
    const second = lateReplica(500_000);
    const b = stream(second, 3_600_000_000);
    expect(b.finish()).toEqual(checkHistory(second));
    expect(a.finish()).toBe(verdict);
    expect(verdict).toEqual(checkHistory(first));
  });

  // A judged checker's request table, emptied, goes to the next checker (stream.ts TABLES).
  it('judges the same history again after the checker before it held or dropped every request of it', () => {
    const ops = sequential(300);
    for (const graceUs of [0, 3_600_000_000]) {
      expect(stream(ops, graceUs).finish()).toEqual(checkHistory(ops));
      const again = stream(ops, graceUs);
      expect([graceUs, again.finish(), again.incompleteBecause]).toEqual([graceUs, checkHistory(ops), null]);
    }
  });
});

describe('outcomes', () => {
  it('counts every outcome as the batch checker does', () => {
    const outcomes = ['ordered', 'sold-out', 'lock-busy', 'lock-error', 'conflict', 'fenced', 'duplicate', 'already-ordered', 'db-error', 'overloaded', 'unavailable'];
    const entries: Entry[] = [[0, setup()]];
    outcomes.forEach((outcome, i) => {
      entries.push([100 * i + 1, requestOp('invoke', `r${i + 1}`)], [100 * i + 50, requestOp('ok', `r${i + 1}`, { outcome })]);
    });
    entries.push([2_000, end()]);
    const ops = history(entries);
    const verdict = stream(ops, 0).finish();
    expect(verdict?.metrics.outcomes).toEqual({ ...Object.fromEntries(outcomes.map((o) => [o, 1])), unknown: 0 });
    expect(verdict).toEqual(checkHistory(ops));
  });
});

describe('order of the operations', () => {
  const ops = history([[0, setup()], ...section('r1', 100, 500), [600, end()]]);
  it('judges a history in time order', () => {
    expect(stream(ops, 0).finish()).toEqual(checkHistory(ops));
  });
  it('declines a history that goes back in time', () => {
    const shuffled = [ops[0], ops[2], ops[1], ...ops.slice(3)].map((op, index) => ({ ...op, index }));
    shuffled[1] = { ...shuffled[1], timeUs: 400 };
    const s = stream(shuffled, 0);
    expect(s.finish()).toBeNull();
    // Keeping requests would not help: only the whole history will do.
    expect(s.rerunKeeping).toBeNull();
  });
});

describe('hand-over at one instant', () => {
  // r2's acquire is recorded before r1's release at the same instant: ends still come first.
  const handOver = (r2StartUs: number): Operation[] =>
    history([[0, setup()], ...section('r2', r2StartUs, 900, 'client-1/w2'), ...section('r1', 100, 500, 'client-1/w1'), [1_000, end()]]);
  it('is no double holder when the new holder enters at the instant the old one leaves', () => {
    const ops = handOver(500);
    const verdict = stream(ops, 0).finish();
    expect(verdict?.metrics.doubleHolders).toBe(0);
    expect(verdict).toEqual(checkHistory(ops));
  });
  it('is a double holder when the new holder enters a microsecond earlier', () => {
    const ops = handOver(499);
    const verdict = stream(ops, 0).finish();
    expect(verdict?.metrics).toMatchObject({ doubleHolders: 1, doubleHolderUs: 1, firstDoubleHolderUs: 499 });
    expect(verdict).toEqual(checkHistory(ops));
  });
});

// The instants of the requests held live in a column store (stream-request.ts), a slot a request.
describe('instants past 2^31 us (35.8 simulated minutes)', () => {
  const T = 2 ** 32;
  it('judges requests that start and end past 2^31 us as the batch checker does', () => {
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
