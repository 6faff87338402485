/**
 * The stock replay on hand-written histories: lost updates and the units they erase, and
 * transactions (only committed effects count).
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../src/checker/check.js';
import type { NewOperation, Operation } from '../../src/history/operation.js';

function history(entries: NewOperation[]): Operation[] {
  return entries.map((op, index) => ({ ...op, index, timeUs: index * 1000 }) as Operation);
}

const setup = (available: number): NewOperation => ({
  process: 'setup', type: 'info', f: 'setup', stock: [{ sku: 1, available }], primary: 'redis-0', lockNodes: [], quorum: 1, durationUs: 10_000_000,
});
const end: NewOperation = { process: 'setup', type: 'info', f: 'end' };

/** A read-modify-write write of `request`: available := value, computed from `basedOn`. */
const set = (request: string, basedOn: number, value: number, txn?: number): NewOperation => ({
  process: `client-1/${request}`, request, type: 'ok', f: 'write-stock', sku: 1, qty: basedOn - value, mode: 'set', value, basedOn, affected: 1, txn,
});
const decrement = (request: string, qty = 1, txn?: number): NewOperation => ({
  process: `client-1/${request}`, request, type: 'ok', f: 'write-stock', sku: 1, qty, mode: 'decrement', affected: 1, txn,
});
const order = (request: string, txn?: number, orderKey = `o-${request}`): NewOperation => ({
  process: `client-1/${request}`, request, type: 'ok', f: 'order', sku: 1, qty: 1, orderKey, txn,
});
const txnEnd = (request: string, txn: number, outcome: 'commit' | 'rollback', cause: 'commit' | 'rollback' | 'disconnect' = outcome): NewOperation => ({
  process: 'database', type: 'info', f: 'txn', request, owner: `client-1/${request}`, txn, outcome, cause,
});

describe('lost updates and lost units', () => {
  it('counts one lost update and three lost units for a stale write that erases three decrements', () => {
    // r1 read 10; three requests sold one unit each (10 -> 7); r1 writes 9 computed from 10.
    const { metrics, violations } = checkHistory(history([setup(10), decrement('r2'), decrement('r3'), decrement('r4'), set('r1', 10, 9), end]));
    expect(metrics.lostUpdates).toBe(1);
    expect(metrics.lostUnits).toBe(3);
    expect(violations.find((v) => v.kind === 'lost-update')?.summary).toContain('(3 units erased)');
  });

  it('counts nothing for a write computed from the current value', () => {
    const { metrics, violations } = checkHistory(history([setup(10), decrement('r2'), decrement('r3'), set('r1', 8, 7), end]));
    expect(metrics.lostUpdates).toBe(0);
    expect(metrics.lostUnits).toBe(0);
    expect(violations).toEqual([]);
  });

  it('adds the units of every lost update', () => {
    const ops = history([setup(10), set('r1', 10, 9), set('r2', 10, 9), decrement('r3'), decrement('r4'), set('r5', 9, 8), end]);
    // r2 erased r1's unit; r5 erased r3's and r4's.
    expect(checkHistory(ops).metrics).toMatchObject({ lostUpdates: 2, lostUnits: 3 });
  });
});

describe('transactions', () => {
  it('counts a committed transaction\'s deduction and order', () => {
    const { metrics } = checkHistory(history([setup(1), set('r1', 1, 0, 7), order('r1', 7), txnEnd('r1', 7, 'commit'), end]));
    expect(metrics).toMatchObject({ unitsSold: 1, oversold: 0, lostUpdates: 0, negativeStock: 0 });
  });

  it('ignores a rolled-back transaction: no unit sold, and the stock stays what it was', () => {
    // r1's transaction deducts and orders, then rolls back; r2 reads the restored 1 and sells it.
    const ops = history([setup(1), set('r1', 1, 0, 7), order('r1', 7), txnEnd('r1', 7, 'rollback'), set('r2', 1, 0), order('r2'), end]);
    const { metrics, violations } = checkHistory(ops);
    expect(metrics).toMatchObject({ unitsSold: 1, oversold: 0, lostUpdates: 0 });
    expect(violations).toEqual([]);
  });

  it('judges the same writes as a lost update and an oversell when the first transaction commits', () => {
    const ops = history([setup(1), set('r1', 1, 0, 7), order('r1', 7), txnEnd('r1', 7, 'commit'), set('r2', 1, 0), order('r2'), end]);
    expect(checkHistory(ops).metrics).toMatchObject({ unitsSold: 2, oversold: 1, lostUpdates: 1, lostUnits: 1 });
  });

  it('ignores a transaction rolled back because its client died, and one still open at the end', () => {
    const ops = history([setup(5), decrement('r1', 2, 3), order('r1', 3), txnEnd('r1', 3, 'rollback', 'disconnect'), decrement('r2', 1, 4), order('r2', 4), end]);
    expect(checkHistory(ops).metrics).toMatchObject({ unitsSold: 0, negativeStock: 0 });
  });

  it('applies a transaction at its commit: a duplicate order committed later is the duplicate', () => {
    // r1 inserts o-x in a transaction that commits after r2's autocommit insert of o-x.
    const ops = history([setup(5), order('r1', 9, 'o-x'), order('r2', undefined, 'o-x'), txnEnd('r1', 9, 'commit'), end]);
    const { metrics, violations } = checkHistory(ops);
    expect(metrics.duplicateOrders).toBe(1);
    expect(violations.find((v) => v.kind === 'duplicate-order')?.requests).toEqual(['r2', 'r1']);
  });
});
