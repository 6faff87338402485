/**
 * Double holders on hand-written critical sections: each overlap next to the hand-over that
 * must not count as one. Each section is a request that acquires at its start and invokes
 * its release at its end, in the order written (the observer orders one instant's points).
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import { end, history, lockOp, requestOp, setup, type Entry } from '../histories.js';

const K = 'lock:stock:1';
interface Cs {
  request: string;
  thread: string;
  key: string;
  startUs: number;
  endUs: number;
}
const cs = (request: string, startUs: number, endUs: number, o: { key?: string; thread?: string } = {}): Cs => ({
  request, thread: o.thread ?? `client-1/${request}`, key: o.key ?? K, startUs, endUs,
});

/** The holders observer's figures and first violation over a history of these sections. */
function findDoubleHolders(sections: Cs[]) {
  const entries: Entry[] = [[0, setup()]];
  for (const s of sections) {
    const client = s.thread.split('/')[0];
    entries.push(
      [s.startUs, requestOp('invoke', s.request, { client })],
      [s.startUs, lockOp('acquire', 'invoke', s.request, { thread: s.thread, key: s.key })],
      [s.startUs, lockOp('acquire', 'ok', s.request, { thread: s.thread, key: s.key })],
      [s.endUs, lockOp('release', 'invoke', s.request, { thread: s.thread, key: s.key })],
    );
  }
  entries.push([10_000, end()]);
  const { metrics: m, violations } = checkHistory(history(entries));
  const first = violations.find((v) => v.kind === 'double-holder') ?? null;
  return { episodes: m.doubleHolders, totalUs: m.doubleHolderUs, maxHolders: m.maxHolders, first, firstStartUs: m.firstDoubleHolderUs, lastStartUs: m.lastDoubleHolderUs };
}

describe('double holders', () => {
  it('finds nothing in serial sections, one entering exactly when the other leaves', () => {
    const stats = findDoubleHolders([cs('r1', 0, 1_000), cs('r2', 1_000, 2_000), cs('r3', 2_000, 2_500)]);
    expect(stats).toEqual({ episodes: 0, totalUs: 0, maxHolders: 1, first: null, firstStartUs: -1, lastStartUs: -1 });
  });

  it('finds nothing at a hand-over whatever order the sections are listed in', () => {
    expect(findDoubleHolders([cs('r2', 1_000, 2_000), cs('r1', 0, 1_000)]).episodes).toBe(0);
    expect(findDoubleHolders([cs('r2', 999, 2_000), cs('r1', 0, 1_000)]).episodes).toBe(1);
  });

  it('tells an episode that begins at the very start of the run as the first', () => {
    const stats = findDoubleHolders([cs('r1', 0, 100), cs('r2', 0, 100), cs('r3', 500, 700), cs('r4', 600, 700)]);
    expect(stats).toMatchObject({ episodes: 2, totalUs: 100 + 100, firstStartUs: 0, lastStartUs: 600 });
  });

  it('finds a 1 us episode when the second enters 1 us before the first leaves', () => {
    const stats = findDoubleHolders([cs('r1', 0, 1_000), cs('r2', 999, 2_000)]);
    expect(stats).toMatchObject({ episodes: 1, totalUs: 1, maxHolders: 2, firstStartUs: 999, lastStartUs: 999 });
    expect(stats.first).toEqual({
      kind: 'double-holder',
      timeUs: 999,
      subject: K,
      requests: ['r1', 'r2'],
      summary: `client-1/r2 (r2) entered the critical section of ${K} while client-1/r1 (r1) was still in it`,
    });
  });

  it('counts three holders at once as one episode, from the second entry until one is left', () => {
    // r1 [0, 1000), r2 [200, 800), r3 [300, 900): two or more inside from 200 to 800 and 800 to 900.
    const stats = findDoubleHolders([cs('r1', 0, 1_000), cs('r2', 200, 800), cs('r3', 300, 900)]);
    expect(stats).toMatchObject({ episodes: 1, totalUs: 900 - 200, maxHolders: 3, firstStartUs: 200, lastStartUs: 200 });
    expect(stats.first?.requests).toEqual(['r1', 'r2']);
  });

  it('counts separate episodes and their total time, the first and the last start', () => {
    const stats = findDoubleHolders([cs('r1', 0, 1_000), cs('r2', 900, 2_000), cs('r3', 1_500, 3_000), cs('r4', 5_000, 6_000)]);
    // r1+r2 from 900 to 1000, r2+r3 from 1500 to 2000; r4 alone.
    expect(stats).toMatchObject({ episodes: 2, totalUs: 100 + 500, maxHolders: 2, firstStartUs: 900, lastStartUs: 1_500 });
    expect(stats.first?.timeUs).toBe(900);
    expect(stats.first?.requests).toEqual(['r1', 'r2']);
  });

  it('judges each key apart, and tells the earliest episode whichever key it is on', () => {
    const A = 'lock:stock:1';
    const B = 'lock:stock:2';
    // Key A's sections start first, but its overlap begins at 1000; key B's at 20.
    const stats = findDoubleHolders([
      cs('a1', 0, 2_000, { key: A }),
      cs('b1', 10, 30, { key: B }),
      cs('b2', 20, 40, { key: B }),
      cs('a2', 1_000, 3_000, { key: A }),
      cs('c1', 500, 600, { key: 'lock:stock:3' }),
    ]);
    expect(stats).toMatchObject({ episodes: 2, totalUs: 10 + 1_000, firstStartUs: 20, lastStartUs: 1_000 });
    expect(stats.first).toMatchObject({ timeUs: 20, subject: B, requests: ['b1', 'b2'] });
  });

  it('does not count sections on different keys at the same time', () => {
    const stats = findDoubleHolders([cs('r1', 0, 1_000, { key: 'lock:stock:1' }), cs('r2', 0, 1_000, { key: 'lock:stock:2' })]);
    expect(stats).toMatchObject({ episodes: 0, totalUs: 0, maxHolders: 1 });
  });

  it('ignores a section of no length (acquired and left at one instant), which holds nothing', () => {
    const empty = findDoubleHolders([cs('r1', 500, 500), cs('r2', 400, 600), cs('r3', 700, 800)]);
    expect(empty).toMatchObject({ episodes: 0, totalUs: 0, maxHolders: 1 });
    // Its neighbour: 1 us long, it is inside r2's section.
    const short = findDoubleHolders([cs('r1', 500, 501), cs('r2', 400, 600), cs('r3', 700, 800)]);
    expect(short).toMatchObject({ episodes: 1, totalUs: 1, maxHolders: 2, firstStartUs: 500 });
  });

  it('finds nothing and a zero maximum without sections', () => {
    expect(findDoubleHolders([])).toEqual({ episodes: 0, totalUs: 0, maxHolders: 0, first: null, firstStartUs: -1, lastStartUs: -1 });
  });
});

/** The same sweep for a semaphore of `permits`: its figures and first permits-exceeded violation. */
function findPermitsExceeded(sections: Cs[], permits: number) {
  const entries: Entry[] = [[0, setup({ permits })]];
  for (const s of sections) {
    entries.push(
      [s.startUs, requestOp('invoke', s.request)],
      [s.startUs, lockOp('acquire', 'invoke', s.request, { thread: s.thread, key: s.key })],
      [s.startUs, lockOp('acquire', 'ok', s.request, { thread: s.thread, key: s.key })],
      [s.endUs, lockOp('release', 'invoke', s.request, { thread: s.thread, key: s.key })],
    );
  }
  entries.push([10_000, end()]);
  const { metrics: m, violations } = checkHistory(history(entries));
  return { m, first: violations.find((v) => v.kind === 'permits-exceeded' || v.kind === 'double-holder') ?? null };
}

describe('a semaphore of N permits', () => {
  it('admits N holders at once: three inside a three-permit semaphore are no violation', () => {
    const { m, first } = findPermitsExceeded([cs('r1', 0, 1_000), cs('r2', 100, 1_000), cs('r3', 200, 1_000), cs('r4', 1_000, 2_000)], 3);
    expect(m).toMatchObject({ permitsExceeded: 0, permitsExceededUs: 0, doubleHolders: 0, maxHolders: 3 });
    expect(first).toBeNull();
  });

  it('counts a fourth inside a three-permit semaphore as permits exceeded, not as double holders', () => {
    const { m, first } = findPermitsExceeded([cs('r1', 0, 1_000), cs('r2', 100, 1_000), cs('r3', 200, 1_000), cs('r4', 900, 2_000)], 3);
    expect(m).toMatchObject({ permitsExceeded: 1, permitsExceededUs: 100, doubleHolders: 0, doubleHolderUs: 0, maxHolders: 4 });
    expect(first).toEqual({
      kind: 'permits-exceeded',
      timeUs: 900,
      subject: K,
      requests: ['r1', 'r4'],
      summary: 'client-1/r4 (r4) entered the critical section of lock:stock:1 while its 3 permits were all held (client-1/r1 (r1) among them): 4 holders',
    });
  });

  it('judges a one-permit semaphore as a mutex: double holders, no permits-exceeded figure', () => {
    const { m, first } = findPermitsExceeded([cs('r1', 0, 1_000), cs('r2', 999, 2_000)], 1);
    expect(m).toMatchObject({ doubleHolders: 1, doubleHolderUs: 1 });
    expect(m.permitsExceeded).toBeUndefined();
    expect(first?.kind).toBe('double-holder');
    // Its neighbour: a hand-over at one instant is none.
    expect(findPermitsExceeded([cs('r1', 0, 1_000), cs('r2', 1_000, 2_000)], 1).m.doubleHolders).toBe(0);
  });
});
