/** Request counts, outcomes, timeouts, throughput and latency percentiles on hand-written histories. */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import { percentile } from '../../../src/checker/observers/outcomes.js';
import { end, history, lockOp, requestOp, setup, type Entry } from '../histories.js';

/** A request arriving at `from` and answered `latencyUs` later with `outcome`. */
const answered = (id: string, from: number, latencyUs: number, outcome: string, type: 'ok' | 'fail' = outcome === 'ordered' ? 'ok' : 'fail'): Entry[] => [
  [from, requestOp('invoke', id)],
  [from + latencyUs, requestOp(type, id, { outcome })],
];

describe('percentile (nearest rank)', () => {
  it('takes the value at rank ceil(p * n)', () => {
    expect(percentile([10, 20, 30], 0.5)).toBe(20);
    expect(percentile([10, 20, 30, 40], 0.5)).toBe(20);
    expect(percentile([10, 20, 30, 40], 0.51)).toBe(30);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 0.99)).toBe(99);
    expect(percentile([...hundred, 101], 0.99)).toBe(100);
  });
  it('takes the smallest value at p = 0, and 0 for no values', () => {
    expect(percentile([7, 8, 9], 0)).toBe(7);
    expect(percentile([], 0.5)).toBe(0);
  });
});

describe('request statistics', () => {
  it('counts outcomes, orders per second, answers per second and latency percentiles', () => {
    const { metrics } = checkHistory(history([
      [0, setup({ durationUs: 3_000_000 })],
      ...answered('r1', 0, 100, 'ordered'),
      ...answered('r2', 10, 300, 'ordered'),
      ...answered('r3', 20, 200, 'sold-out'),
      ...answered('r4', 30, 400, 'lock-busy'),
      [40, requestOp('invoke', 'r5')], // never answered
      [50, requestOp('invoke', 'r6')],
      [60_000, requestOp('info', 'r6')], // lost: its process died
      ...answered('r7', 70, 500, 'db-error'),
      [90, requestOp('invoke', 'r8')],
      [95, requestOp('fail', 'r8')], // answered without an outcome
      [100_000, end()],
    ]));
    expect(metrics.requests).toBe(8);
    expect(metrics.orders).toBe(2);
    expect(metrics.outcomes).toEqual({
      ordered: 2, 'sold-out': 1, 'lock-busy': 1, 'lock-error': 0, conflict: 0, fenced: 0, duplicate: 0, 'already-ordered': 0, 'db-error': 1,
      overloaded: 0, unavailable: 0, unknown: 3,
    });
    expect(metrics.throughputPerS).toBe(0.67); // 2 orders in 3 s, rounded to 2 decimals
    expect(metrics.requestsPerS).toBe(1.67); // 5 answers with an outcome in 3 s
    // Latencies of the answers with an outcome: 100, 200, 300, 400, 500.
    expect(metrics.latencyP50Us).toBe(300);
    expect(metrics.latencyP99Us).toBe(500);
  });

  it('reports no rates for a run of no duration', () => {
    const { metrics } = checkHistory(history([[0, setup({ durationUs: 0 })], ...answered('r1', 0, 100, 'ordered'), [200, end()]]));
    expect(metrics).toMatchObject({ orders: 1, throughputPerS: 0, requestsPerS: 0, latencyP50Us: 100 });
  });

  it('counts lock operations with an unknown outcome as timeouts, not failed or refused ones', () => {
    const { metrics } = checkHistory(history([
      [0, setup()],
      [1, lockOp('acquire', 'info', 'r1')],
      [2, lockOp('release', 'info', 'r2')],
      [3, lockOp('acquire', 'fail', 'r3')],
      [4, lockOp('release', 'fail', 'r4')],
      [5, lockOp('acquire', 'ok', 'r5')],
      [6, requestOp('info', 'r6')],
      [7, { process: 'client-1/w1', request: 'r7', type: 'info', f: 'renew', detail: 'no reply' }],
      [8, end()],
    ]));
    expect(metrics.timeouts).toBe(2);
  });
});

describe('every outcome', () => {
  it('is counted under its own name', () => {
    const outcomes = ['ordered', 'sold-out', 'lock-busy', 'lock-error', 'conflict', 'fenced', 'duplicate', 'already-ordered', 'db-error', 'overloaded', 'unavailable'];
    const entries: Entry[] = [[0, setup()]];
    outcomes.forEach((outcome, i) => {
      entries.push([100 * i + 1, requestOp('invoke', `r${i + 1}`)], [100 * i + 50, requestOp('ok', `r${i + 1}`, { outcome })]);
    });
    entries.push([1_900, requestOp('invoke', 'r99')], [2_000, end()]);
    expect(checkHistory(history(entries)).metrics.outcomes).toEqual({ ...Object.fromEntries(outcomes.map((o) => [o, 1])), unknown: 1 });
  });
});
