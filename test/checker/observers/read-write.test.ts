/**
 * Read-write exclusion on hand-written critical sections: readers overlapping each other (no
 * violation, and no double holders either) next to a writer inside with a reader (one
 * episode, whichever came first), a hand-over at one instant (none), and two writers (double
 * holders, not a read-write overlap). A reader's section is an acquire recorded with mode read.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import { end, history, lockOp, requestOp, setup, type Entry } from '../histories.js';

const K = 'lock:stock:1';
type Side = 'read' | 'write';

/** The figures over sections [request, side, start, end] of key K (or `key`), each on a thread of its own. */
function judge(sections: Array<[string, Side, number, number, string?]>) {
  const entries: Entry[] = [[0, setup({ readWrite: true })]];
  for (const [request, side, startUs, endUs, key = K] of sections) {
    const o = { thread: `client-1/${request}`, key, ...(side === 'read' ? { mode: 'read' as const } : {}) };
    entries.push(
      [startUs, requestOp('invoke', request)],
      [startUs, lockOp('acquire', 'invoke', request, o)],
      [startUs, lockOp('acquire', 'ok', request, o)],
      [endUs, lockOp('release', 'invoke', request, o)],
    );
  }
  entries.push([10_000, end()]);
  const { metrics: m, violations } = checkHistory(history(entries));
  return { overlaps: m.readWriteOverlaps, overlapUs: m.readWriteOverlapUs, doubleHolders: m.doubleHolders, violations };
}

describe('read-write exclusion', () => {
  it('finds nothing when readers overlap each other: they share the lock (and are no double holders)', () => {
    const r = judge([['r1', 'read', 0, 1_000], ['r2', 'read', 100, 900], ['r3', 'read', 500, 2_000]]);
    expect(r).toEqual({ overlaps: 0, overlapUs: 0, doubleHolders: 0, violations: [] });
  });

  it('counts a writer that enters while a reader is inside, for as long as both are', () => {
    const r = judge([['r1', 'read', 0, 1_000], ['r2', 'read', 100, 1_500], ['r3', 'write', 800, 2_000]]);
    expect(r).toMatchObject({ overlaps: 1, overlapUs: 1_500 - 800, doubleHolders: 0 });
    expect(r.violations).toEqual([{
      kind: 'read-write-overlap',
      timeUs: 800,
      subject: K,
      requests: ['r1', 'r3'],
      summary: `client-1/r3 (r3) took the write lock of ${K} while the reader client-1/r1 (r1) was still in its critical section`,
    }]);
  });

  it('counts a reader that enters while the writer is inside', () => {
    const r = judge([['w1', 'write', 0, 1_000], ['r1', 'read', 400, 600]]);
    expect(r).toMatchObject({ overlaps: 1, overlapUs: 200 });
    expect(r.violations[0]).toMatchObject({ kind: 'read-write-overlap', timeUs: 400, requests: ['w1', 'r1'] });
    expect(r.violations[0].summary).toContain('took the read lock of lock:stock:1 while the writer client-1/w1 (w1) was still in its critical section');
  });

  it('finds nothing at a hand-over at one instant, in either direction, whatever the order written', () => {
    expect(judge([['w1', 'write', 1_000, 2_000], ['r1', 'read', 0, 1_000]]).overlaps).toBe(0);
    expect(judge([['r2', 'read', 2_000, 3_000], ['w1', 'write', 1_000, 2_000]]).overlaps).toBe(0);
    expect(judge([['w1', 'write', 999, 2_000], ['r1', 'read', 0, 1_000]]).overlaps).toBe(1);
  });

  it('keeps keys apart: a writer of another key beside a reader is no overlap', () => {
    expect(judge([['r1', 'read', 0, 1_000], ['w1', 'write', 100, 900, 'lock:stock:2']]).overlaps).toBe(0);
  });

  it('leaves two writers to the double holders', () => {
    const r = judge([['w1', 'write', 0, 1_000], ['w2', 'write', 500, 1_500], ['r1', 'read', 2_000, 2_500]]);
    expect(r).toMatchObject({ overlaps: 0, doubleHolders: 1 });
    expect(r.violations.map((v) => v.kind)).toEqual(['double-holder']);
  });

  it('reports no read-write figures for a history without readers', () => {
    expect(judge([['w1', 'write', 0, 1_000]])).toMatchObject({ overlaps: undefined, overlapUs: undefined });
  });
});
