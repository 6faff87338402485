/**
 * The stock replay on hand-written histories: lost updates and the units they erase, and
 * transactions (only committed effects count).
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import type { NewOperation, Operation, StockWriteOp } from '../../../src/history/operation.js';
import { StockObserver } from '../../../src/checker/observers/stock.js';
import { RecordBuilder } from '../../../src/history/records.js';
import type { SetupOp } from '../../../src/history/operation.js';
import { spaced } from '../histories.js';

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
    const { metrics, violations } = checkHistory(spaced([setup(10), decrement('r2'), decrement('r3'), decrement('r4'), set('r1', 10, 9), end]));
    expect(metrics.lostUpdates).toBe(1);
    expect(metrics.lostUnits).toBe(3);
    expect(violations.find((v) => v.kind === 'lost-update')?.summary).toContain('(3 units erased)');
  });

  it('counts nothing for a write computed from the current value', () => {
    const { metrics, violations } = checkHistory(spaced([setup(10), decrement('r2'), decrement('r3'), set('r1', 8, 7), end]));
    expect(metrics.lostUpdates).toBe(0);
    expect(metrics.lostUnits).toBe(0);
    expect(violations).toEqual([]);
  });

  it('adds the units of every lost update', () => {
    const ops = spaced([setup(10), set('r1', 10, 9), set('r2', 10, 9), decrement('r3'), decrement('r4'), set('r5', 9, 8), end]);
    // r2 erased r1's unit; r5 erased r3's and r4's.
    expect(checkHistory(ops).metrics).toMatchObject({ lostUpdates: 2, lostUnits: 3 });
  });
});

describe('transactions', () => {
  it('counts a committed transaction\'s deduction and order', () => {
    const { metrics } = checkHistory(spaced([setup(1), set('r1', 1, 0, 7), order('r1', 7), txnEnd('r1', 7, 'commit'), end]));
    expect(metrics).toMatchObject({ unitsSold: 1, oversold: 0, lostUpdates: 0, negativeStock: 0 });
  });

  it('ignores a rolled-back transaction: no unit sold, and the stock stays what it was', () => {
    // r1's transaction deducts and orders, then rolls back; r2 reads the restored 1 and sells it.
    const ops = spaced([setup(1), set('r1', 1, 0, 7), order('r1', 7), txnEnd('r1', 7, 'rollback'), set('r2', 1, 0), order('r2'), end]);
    const { metrics, violations } = checkHistory(ops);
    expect(metrics).toMatchObject({ unitsSold: 1, oversold: 0, lostUpdates: 0 });
    expect(violations).toEqual([]);
  });

  it('judges the same writes as a lost update and an oversell when the first transaction commits', () => {
    const ops = spaced([setup(1), set('r1', 1, 0, 7), order('r1', 7), txnEnd('r1', 7, 'commit'), set('r2', 1, 0), order('r2'), end]);
    expect(checkHistory(ops).metrics).toMatchObject({ unitsSold: 2, oversold: 1, lostUpdates: 1, lostUnits: 1 });
  });

  it('ignores a transaction rolled back because its client died, and one still open at the end', () => {
    const ops = spaced([setup(5), decrement('r1', 2, 3), order('r1', 3), txnEnd('r1', 3, 'rollback', 'disconnect'), decrement('r2', 1, 4), order('r2', 4), end]);
    expect(checkHistory(ops).metrics).toMatchObject({ unitsSold: 0, negativeStock: 0 });
  });

  it('applies a transaction at its commit: a duplicate order committed later is the duplicate', () => {
    // r1 inserts o-x in a transaction that commits after r2's autocommit insert of o-x.
    const ops = spaced([setup(5), order('r1', 9, 'o-x'), order('r2', undefined, 'o-x'), txnEnd('r1', 9, 'commit'), end]);
    const { metrics, violations } = checkHistory(ops);
    expect(metrics.duplicateOrders).toBe(1);
    expect(violations.find((v) => v.kind === 'duplicate-order')?.requests).toEqual(['r2', 'r1']);
  });
});

describe('what the stock violations say', () => {
  it('tells the first oversell: the running total, who committed it and the initial stock', () => {
    const { metrics, violations } = checkHistory(spaced([setup(1), order('r1'), order('r2'), order('r3'), end]));
    expect(metrics).toMatchObject({ unitsSold: 3, oversold: 2 });
    expect(violations).toEqual([{
      kind: 'oversell',
      timeUs: 2_000,
      subject: 'sku 1',
      requests: ['r2'],
      summary: 'order 2 of sku 1 committed by client-1/r2 (r2) with only 1 in stock',
    }]);
  });

  it('tells the first duplicate order: the order key, the first and the second committer', () => {
    const { violations } = checkHistory(spaced([setup(5), order('r1', undefined, 'o-x'), order('r2', undefined, 'o-x'), end]));
    expect(violations).toEqual([{
      kind: 'duplicate-order',
      timeUs: 2_000,
      subject: 'order o-x',
      requests: ['r1', 'r2'],
      summary: 'order o-x was committed twice: by r1 and again by r2',
    }]);
  });

  it('tells the first lost update: the write, what it was computed from, what the row held and the units erased', () => {
    const { violations } = checkHistory(spaced([setup(10), decrement('r2'), set('r1', 10, 9), end]));
    expect(violations).toEqual([{
      kind: 'lost-update',
      timeUs: 2_000,
      subject: 'sku 1',
      requests: ['r1'],
      summary: 'client-1/r1 (r1) wrote available = 9 computed from 10, but the row held 9: an update was lost (1 unit erased)',
    }]);
  });

  it('tells a lost update that erased nothing (computed from less than the row held) without units', () => {
    // r2 put 2 units back; r1 writes 4 computed from the 5 it read before: nothing deducted is erased, but r2's units are.
    const restock = { ...set('r2', 5, 7), qty: -2 } as NewOperation;
    const { metrics, violations } = checkHistory(spaced([setup(5), restock, set('r1', 5, 4), end]));
    expect(metrics).toMatchObject({ lostUpdates: 1, lostUnits: 0 });
    expect(violations.find((v) => v.kind === 'lost-update')?.summary).toBe('client-1/r1 (r1) wrote available = 4 computed from 5, but the row held 7: an update was lost');
  });

  it('judges a CAS write like any read-modify-write: computed from a stale value, it is a lost update', () => {
    const cas = (request: string, basedOn: number, value: number) => ({ ...set(request, basedOn, value), mode: 'cas', version: 1 }) as NewOperation;
    const { metrics } = checkHistory(spaced([setup(10), decrement('r2'), cas('r1', 10, 8), end]));
    expect(metrics).toMatchObject({ lostUpdates: 1, lostUnits: 1 });
    // It writes the value it computed (8), not the row minus its quantity (9 - 2 = 7).
    const after = checkHistory(spaced([setup(10), decrement('r2'), cas('r1', 10, 8), set('r3', 8, 7), end]));
    expect(after.metrics).toMatchObject({ lostUpdates: 1, lostUnits: 1 });
  });

  it('counts negative stock as the lowest value a write left, and tells the first write below zero', () => {
    const { metrics, violations } = checkHistory(spaced([setup(1), decrement('r1'), decrement('r2', 2), decrement('r3'), decrement('r4'), end]));
    expect(metrics.negativeStock).toBe(4); // 1 -> 0 -> -2 -> -3 -> -4
    expect(violations.find((v) => v.kind === 'negative-stock')).toEqual({
      kind: 'negative-stock', timeUs: 2_000, subject: 'sku 1', requests: ['r2'], summary: 'client-1/r2 (r2) left sku 1 at -2',
    });
    // Its neighbour: down to exactly zero is not negative.
    expect(checkHistory(spaced([setup(3), decrement('r1'), decrement('r2', 2), end])).metrics.negativeStock).toBe(0);
  });

  it('keeps the lowest value when the stock comes back up', () => {
    const { metrics } = checkHistory(spaced([setup(1), decrement('r1', 4), decrement('r2', -5), decrement('r3', 2), end]));
    expect(metrics.negativeStock).toBe(3); // 1 -> -3 -> 2 -> 0
  });
});

describe('refused reads and writes', () => {
  const write = (request: string, extra: Partial<Extract<NewOperation, { f: 'write-stock' }>>): NewOperation => ({
    process: 'client-1/w1', request, type: 'ok', f: 'write-stock', sku: 1, qty: 1, mode: 'deduct', affected: 0, ...extra,
  });
  const read = (request: string, type: 'ok' | 'fail', fence?: number): NewOperation => ({
    process: 'client-1/w1', request, type, f: 'read-stock', sku: 1, ...(type === 'ok' ? { available: 5 } : {}), fence,
  });

  it('counts writes refused for a stale token apart from sold-out refusals', () => {
    const { metrics } = checkHistory(spaced([
      setup(5),
      write('r1', { fence: 3 }),
      write('r2', { mode: 'set', value: 4, basedOn: 5, fence: 2 }),
      write('r3', {}),
      end,
    ]));
    expect(metrics).toMatchObject({ fenceRejections: 2, refusedWrites: 1, casConflicts: 0, unitsSold: 0 });
  });

  it('counts reads refused for a stale token, not failed reads without one, reads that carried one, or failed writes', () => {
    const failedWrite = write('r5', { type: 'fail', fence: 4, affected: undefined, detail: 'Lock wait timeout exceeded' });
    const { metrics } = checkHistory(spaced([setup(5), read('r1', 'fail', 3), read('r0', 'fail', 2), read('r2', 'fail'), read('r3', 'ok', 4), failedWrite, end]));
    expect(metrics.fenceRejections).toBe(2);
  });

  it('changes nothing with a refused write, whatever its mode', () => {
    const { metrics } = checkHistory(spaced([setup(1), write('r1', { mode: 'set', value: 0, basedOn: 7, fence: 1 }), decrement('r2'), end]));
    expect(metrics).toMatchObject({ lostUpdates: 0, negativeStock: 0 });
  });
});

describe('statements waiting for their transaction to end', () => {
  // The observer hears each statement once; a run that keeps no history refills one record
  // per kind (history/records.ts RecordBuilder.recycling), so what waits for the commit must be a copy.
  const write = (records: RecordBuilder, request: string, basedOn: number, value: number, txn: number): StockWriteOp =>
    records.stockWrite({ process: `client-1/${request}`, request, sku: 1, mode: 'set', value, qty: basedOn - value, basedOn, version: undefined, fence: undefined, txn }, 'ok', 1, undefined);
  const commit = (request: string, txn: number): Operation => ({ index: 0, timeUs: 0, process: 'database', type: 'info', f: 'txn', request, owner: `client-1/${request}`, txn, outcome: 'commit', cause: 'commit' });
  function replay(recycle: boolean): { lostUpdates: number; unitsOrdered: number } {
    const stock = new StockObserver();
    stock.setup({ ...(setup(10) as SetupOp), index: 0, timeUs: 0 });
    const records = recycle ? RecordBuilder.recycling() : RecordBuilder.fresh();
    // r1 writes 7 computed from 10 in transaction 1 (current: no lost update); r2's write,
    // computed from 5 in transaction 2 (refilling the same record), never commits.
    stock.observe(write(records, 'r1', 10, 7, 1));
    stock.observe(write(records, 'r2', 5, 1, 2));
    stock.observe(commit('r1', 1));
    stock.runEnded();
    return { lostUpdates: stock.result().lostUpdates, unitsOrdered: stock.stats.unitsOrdered };
  }
  it('applies a committed statement as it was heard, with fresh records', () => {
    expect(replay(false)).toEqual({ lostUpdates: 0, unitsOrdered: 0 });
  });
  it('applies a committed statement as it was heard when the record was refilled since', () => {
    expect(replay(true)).toEqual({ lostUpdates: 0, unitsOrdered: 0 });
  });
});
