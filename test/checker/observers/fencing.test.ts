/** Fencing tokens as clients received them, per key; and which violation a run's story zooms on. */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import { focusViolation, type Violation } from '../../../src/checker/violations.js';
import type { NewOperation } from '../../../src/history/operation.js';
import { end, history, lockOp, setup } from '../histories.js';

const token = (request: string, fence: number, key = 'lock:stock:1', type: 'ok' | 'fail' | 'info' = 'ok') =>
  lockOp('acquire', type, request, { key, fence, leaseMs: 1000 });

describe('stale fencing tokens', () => {
  it('tells the first stale token: who got it, after whom, at what instant', () => {
    const { metrics, violations } = checkHistory(history([
      [0, setup()],
      [10, token('r1', 5)],
      [20, token('r2', 5)],
      [30, token('r3', 4)],
      [40, end()],
    ]));
    expect(metrics.staleTokens).toBe(2);
    // (The sections never end, so they also overlap: a double holder.)
    expect(violations.filter((x) => x.kind !== 'double-holder')).toEqual([{
      kind: 'stale-token',
      timeUs: 20,
      subject: 'lock:stock:1',
      requests: ['r1', 'r2'],
      summary: 'r2 got fencing token 5 for lock:stock:1, but r1 had already got 5: the counter went backwards',
    }]);
  });

  it('compares a stale token with the highest one, not with the stale one before it', () => {
    // r2's 3 is stale; r3's 4 is above r2's but still below r1's 5.
    const { metrics } = checkHistory(history([[0, setup()], [10, token('r1', 5)], [20, token('r2', 3)], [30, token('r3', 4)], [40, token('r4', 6)], [50, end()]]));
    expect(metrics.staleTokens).toBe(2);
  });

  it('judges each key\'s tokens apart', () => {
    const { metrics } = checkHistory(history([
      [0, setup()],
      [10, token('r1', 5, 'lock:stock:1')],
      [20, token('r2', 3, 'lock:stock:2')],
      [30, token('r3', 6, 'lock:stock:1')],
      [40, end()],
    ]));
    expect(metrics.staleTokens).toBe(0);
  });

  it('ignores acquisitions that did not succeed and ones without a token', () => {
    const { metrics } = checkHistory(history([
      [0, setup()],
      [10, token('r1', 5)],
      [20, token('r2', 9, 'lock:stock:1', 'fail')],
      [25, token('r3', 9, 'lock:stock:1', 'info')],
      [30, lockOp('acquire', 'ok', 'r4', { leaseMs: 1000 })],
      [40, token('r5', 4)], // stale against r1's 5: r4's lack of a token changed nothing
      [50, token('r6', 6)], // not stale: r2's and r3's 9 never counted
      [60, end()],
    ]));
    expect(metrics.staleTokens).toBe(1);
  });

  it('judges the tokens clients received, not the ones their reads and writes carried to the storage', () => {
    const write = (request: string, fence: number): NewOperation => ({
      process: 'client-1/w1', request, type: 'ok', f: 'write-stock', sku: 1, qty: 1, mode: 'decrement', affected: 1, fence,
    });
    const read = (request: string, fence: number): NewOperation => ({ process: 'client-1/w1', request, type: 'ok', f: 'read-stock', sku: 1, available: 5, fence });
    const { metrics } = checkHistory(history([[0, setup()], [10, token('r1', 5)], [20, write('r1', 5)], [30, read('r0', 3)], [40, write('r0', 3)], [50, end()]]));
    expect(metrics.staleTokens).toBe(0);
  });
});

describe('focusViolation', () => {
  const v = (kind: Violation['kind'], timeUs: number): Violation => ({ kind, timeUs, subject: 'lock:stock:1', requests: ['r1'], summary: kind });
  it('zooms on the double holder, even after an earlier violation', () => {
    expect(focusViolation([v('lock-lost', 1), v('oversell', 2), v('double-holder', 3)])?.kind).toBe('double-holder');
  });
  it('otherwise zooms on the first violation, and on nothing without one', () => {
    expect(focusViolation([v('lock-lost', 1), v('oversell', 2)])?.kind).toBe('lock-lost');
    expect(focusViolation([])).toBeUndefined();
  });
});
