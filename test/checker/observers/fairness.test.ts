/**
 * A fair lock's order on hand-written histories: each failure next to the case that must not
 * count (grants in arrival order, two arrivals within the slack, a waiter that gives up while
 * the lock stays held, a holder that died and left the lock held, a lock that is not fair).
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import { FIFO_SLACK_US } from '../../../src/checker/observers/fairness.js';
import { brokenInvariants, safetyOf } from '../../../src/checker/verdict.js';
import { end, fault, history, lockOp, requestOp, setup, type Entry } from '../histories.js';

const K = 'lock:stock:1';
const thread = (request: string, client = 'client-1') => `${client}/${request}`;

/** r arrives (asks for the lock) at `at`. */
const ask = (request: string, at: number, client = 'client-1'): Entry[] => [
  [at, requestOp('invoke', request, { client })],
  [at, lockOp('acquire', 'invoke', request, { thread: thread(request, client) })],
];
/** r gets the lock at `at`. */
const grant = (request: string, at: number, client = 'client-1'): Entry[] => [[at, lockOp('acquire', 'ok', request, { thread: thread(request, client), leaseMs: null })]];
/** r releases it at `at` (the release answered 1 ms later), and its request ends ordered. */
const release = (request: string, at: number, client = 'client-1', type: 'ok' | 'fail' = 'ok'): Entry[] => [
  [at, lockOp('release', 'invoke', request, { thread: thread(request, client) })],
  [at + 1_000, lockOp('release', type, request, { thread: thread(request, client), ...(type === 'fail' ? { detail: 'refused' } : {}) })],
  [at + 2_000, requestOp('ok', request, { client, outcome: 'ordered' })],
];
/** r gives up at `at` (its wait ran out). */
const busy = (request: string, at: number, client = 'client-1'): Entry[] => [
  [at, lockOp('acquire', 'fail', request, { thread: thread(request, client), detail: 'held by another' })],
  [at + 1_000, requestOp('ok', request, { client, outcome: 'lock-busy' })],
];

function judge(entries: Entry[], o: { fair?: boolean; endUs?: number } = {}) {
  const { metrics: m, violations } = checkHistory(history([[0, setup({ fair: o.fair ?? true })], ...entries, [o.endUs ?? 100_000_000, end()]]));
  return { m, overtakes: m.fifoOvertakes, starved: m.starvedWaiters, starvedUs: m.starvedWaitUs, kinds: violations.map((v) => v.kind), violations };
}

describe('fair order', () => {
  it('counts nothing when the lock goes to its waiters in arrival order', () => {
    const r = judge([
      ...ask('r1', 1_000_000), ...grant('r1', 1_001_000),
      ...ask('r2', 2_000_000), ...ask('r3', 3_000_000),
      ...release('r1', 5_000_000), ...grant('r2', 5_002_000),
      ...release('r2', 7_000_000), ...grant('r3', 7_002_000), ...release('r3', 9_000_000),
    ]);
    expect(r).toMatchObject({ overtakes: 0, starved: 0, starvedUs: 0, kinds: [] });
    expect(safetyOf(r.m)).toBe('SAFE');
  });

  it('counts a grant to a later arrival while an earlier one still waits', () => {
    const r = judge([
      ...ask('r1', 1_000_000), ...grant('r1', 1_001_000),
      ...ask('r2', 2_000_000), ...ask('r3', 3_000_000),
      ...release('r1', 5_000_000), ...grant('r3', 5_002_000),
      ...release('r3', 7_000_000), ...grant('r2', 7_002_000), ...release('r2', 9_000_000),
    ]);
    expect(r).toMatchObject({ overtakes: 1, starved: 0 });
    expect(r.violations).toEqual([{
      kind: 'fifo-overtaken',
      timeUs: 5_002_000,
      subject: K,
      requests: ['r2', 'r3'],
      summary: 'lock:stock:1 went to r3 (asked at 3s) while r2 of client-1/r2, which asked at 2s, still waited: a fair lock out of arrival order',
    }]);
    expect(safetyOf(r.m)).toBe('DEGRADED');
    expect(brokenInvariants(r.m)).toContain('fair order (grants out of arrival order)');
  });

  it('does not count two arrivals within the slack granted in either order', () => {
    const r = judge([
      ...ask('r1', 1_000_000), ...grant('r1', 1_001_000),
      ...ask('r2', 2_000_000), ...ask('r3', 2_000_000 + FIFO_SLACK_US),
      ...release('r1', 5_000_000), ...grant('r3', 5_002_000),
      ...release('r3', 7_000_000), ...grant('r2', 7_002_000), ...release('r2', 9_000_000),
    ]);
    expect(r).toMatchObject({ overtakes: 0, starved: 0, kinds: [] });
  });

  it('counts each overtaking grant once, however many it overtook', () => {
    const r = judge([
      ...ask('r1', 1_000_000), ...grant('r1', 1_001_000),
      ...ask('r2', 2_000_000), ...ask('r3', 3_000_000), ...ask('r4', 4_000_000),
      ...release('r1', 5_000_000), ...grant('r4', 5_002_000), ...release('r4', 6_000_000),
      ...grant('r2', 6_002_000), ...release('r2', 7_000_000), ...grant('r3', 7_002_000), ...release('r3', 8_000_000),
    ]);
    expect(r.overtakes).toBe(1);
  });

  it('judges nothing for a lock that is not fair', () => {
    const r = judge([
      ...ask('r1', 1_000_000), ...grant('r1', 1_001_000), ...ask('r2', 2_000_000), ...ask('r3', 3_000_000),
      ...release('r1', 5_000_000), ...grant('r3', 5_002_000), ...release('r3', 7_000_000), ...busy('r2', 60_000_000),
    ], { fair: false });
    expect(r).toMatchObject({ overtakes: undefined, starved: undefined, kinds: [] });
    expect(safetyOf(r.m)).toBe('SAFE');
  });
});

describe('starved waiters', () => {
  it('counts a waiter still waiting at the end while the lock went to later arrivals', () => {
    const r = judge([
      ...ask('r1', 1_000_000), ...grant('r1', 1_001_000), ...ask('r2', 2_000_000),
      ...release('r1', 5_000_000), ...ask('r3', 6_000_000), ...grant('r3', 6_001_000), ...release('r3', 8_000_000),
    ], { endUs: 20_000_000 });
    expect(r).toMatchObject({ overtakes: 1, starved: 1, starvedUs: 18_000_000 });
    const starved = r.violations.find((v) => v.kind === 'waiter-starved');
    expect(starved).toEqual({
      kind: 'waiter-starved',
      timeUs: 6_001_000,
      subject: K,
      requests: ['r2', 'r3'],
      summary: 'r2 of client-1/r2 asked for lock:stock:1 at 2s and never got it (still waited when the run ended at 20s), while the lock went to 1 later arrival (the first r3 at 6.001s) and it sat free for 12.999s',
    });
    expect(brokenInvariants(r.m)).toContain('starved waiters');
  });

  it('counts a waiter that gave up after the lock sat free for a second or more while it waited', () => {
    const r = judge([...ask('r1', 1_000_000), ...grant('r1', 1_001_000), ...ask('r2', 2_000_000), ...release('r1', 3_000_000), ...busy('r2', 5_000_000)]);
    expect(r).toMatchObject({ overtakes: 0, starved: 1, starvedUs: 3_000_000 });
    expect(r.violations[0].summary).toBe('r2 of client-1/r2 asked for lock:stock:1 at 2s and never got it (gave up at 5s), while it sat free for 1.999s');
  });

  it('does not count a waiter that gives up while the lock stays held', () => {
    const r = judge([...ask('r1', 1_000_000), ...grant('r1', 1_001_000), ...ask('r2', 2_000_000), ...busy('r2', 5_000_000), ...release('r1', 6_000_000)]);
    expect(r).toMatchObject({ overtakes: 0, starved: 0, kinds: [] });
  });

  it('does not count a lock free for less than a second before the waiter gave up', () => {
    const r = judge([...ask('r1', 1_000_000), ...grant('r1', 1_001_000), ...ask('r2', 2_000_000), ...release('r1', 4_500_000), ...busy('r2', 5_000_000)]);
    expect(r).toMatchObject({ starved: 0 });
  });

  it('does not count the time after a holder died or its release failed: its lock stays held on the server', () => {
    const died = judge([...ask('r1', 1_000_000, 'client-2'), ...grant('r1', 1_001_000, 'client-2'), ...ask('r2', 2_000_000), [3_000_000, fault('crash', 'start', 'client-2', 'kill -9')], ...busy('r2', 30_000_000)]);
    expect(died).toMatchObject({ starved: 0, kinds: [] });
    const refused = judge([...ask('r1', 1_000_000), ...grant('r1', 1_001_000), ...ask('r2', 2_000_000), ...release('r1', 3_000_000, 'client-1', 'fail'), ...busy('r2', 30_000_000)]);
    expect(refused).toMatchObject({ starved: 0, kinds: [] });
  });

  it('does not count a waiter whose own process died', () => {
    const r = judge([
      ...ask('r1', 1_000_000), ...grant('r1', 1_001_000), ...ask('r2', 2_000_000, 'client-2'),
      [3_000_000, fault('crash', 'start', 'client-2', 'kill -9')], ...release('r1', 5_000_000), ...ask('r3', 6_000_000), ...grant('r3', 6_001_000), ...release('r3', 7_000_000),
    ]);
    expect(r).toMatchObject({ overtakes: 0, starved: 0, kinds: [] });
  });
});
