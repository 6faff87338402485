/** The database model: row locks, transactions, guards' statements, fencing and unique order keys. */
import { describe, expect, it } from 'vitest';
import { constant } from '../../src/engine/distribution.js';
import type { ProcessGenerator } from '../../src/engine/process.js';
import { Simulation } from '../../src/engine/simulation.js';
import { Database, LOCK_WAIT_TIMEOUT_US, type DbResult, type DbStatement, type TransactionEnd } from '../../src/world/database.js';

function world(statementUs = 1_000) {
  const sim = new Simulation(1);
  const db = new Database({ statementTime: constant(statementUs) }, sim.random.fork('db'));
  db.addStock(1, 10);
  /** Runs statements in order as `owner`, logging (time, result) of each. */
  const session = (owner: string, statements: DbStatement[], startUs = 0) => {
    const log: Array<{ at: number; r: DbResult }> = [];
    sim.spawn(owner, (function* (): ProcessGenerator<void> {
      if (startUs > 0) yield startUs;
      for (const s of statements) log.push({ r: (yield db.statement(sim, s, owner)) as DbResult, at: sim.nowUs });
    })());
    return log;
  };
  return { sim, db, session };
}

describe('Database', () => {
  it('serialises writes to one row: the second UPDATE waits for the first', () => {
    const { sim, session } = world();
    const a = session('a', [{ kind: 'decrement', sku: 1, qty: 1 }]);
    const b = session('b', [{ kind: 'decrement', sku: 1, qty: 1 }]);
    sim.run();
    expect(a[0].at).toBe(1_000);
    expect(b[0].at).toBe(2_000);
  });

  it('lets a plain SELECT read a locked row without waiting, and see the last committed value', () => {
    const { sim, session } = world();
    session('a', [{ kind: 'begin', requestTag: 'r' }, { kind: 'select-for-update', sku: 1 }, { kind: 'set-stock', sku: 1, available: 9 }]);
    const b = session('b', [{ kind: 'select-stock', sku: 1 }], 2_500);
    sim.run();
    // a's UPDATE applied at 2 ms but a never commits: b reads 10 (read committed), at once.
    expect(b[0]).toEqual({ at: 3_500, r: { kind: 'row', row: { available: 10, version: 0, maxFence: 0 } } });
  });

  it('shows a transaction\'s write to other connections once it commits', () => {
    const { sim, session } = world();
    session('a', [{ kind: 'begin', requestTag: 'r' }, { kind: 'select-for-update', sku: 1 }, { kind: 'set-stock', sku: 1, available: 9 }, { kind: 'commit' }]);
    const b = session('b', [{ kind: 'select-stock', sku: 1 }], 3_500);
    sim.run();
    expect(b[0]).toEqual({ at: 4_500, r: { kind: 'row', row: { available: 9, version: 1, maxFence: 0 } } });
  });

  it('lets a transaction read its own uncommitted writes', () => {
    const { sim, session } = world();
    const a = session('a', [{ kind: 'begin', requestTag: 'r' }, { kind: 'decrement', sku: 1, qty: 3 }, { kind: 'select-stock', sku: 1 }]);
    sim.run();
    expect(a[2].r).toEqual({ kind: 'row', row: { available: 7, version: 1, maxFence: 0 } });
  });

  it('holds a FOR UPDATE row lock until COMMIT, then hands it to the next waiter', () => {
    const { sim, db, session } = world();
    const a = session('a', [{ kind: 'begin', requestTag: 'r' }, { kind: 'select-for-update', sku: 1 }, { kind: 'set-stock', sku: 1, available: 9 }, { kind: 'commit' }]);
    const b = session('b', [{ kind: 'begin', requestTag: 'r' }, { kind: 'select-for-update', sku: 1 }], 500);
    sim.run();
    const commitAt = a[3].at;
    expect(b[1].at).toBe(commitAt + 1_000);
    expect(b[1].r).toEqual({ kind: 'row', row: { available: 9, version: 1, maxFence: 0 } });
    expect(db.stock.get(1)?.available).toBe(9);
  });

  it('fails a lock wait after innodb_lock_wait_timeout', () => {
    const { sim, session } = world();
    session('a', [{ kind: 'begin', requestTag: 'r' }, { kind: 'select-for-update', sku: 1 }]); // never commits
    const b = session('b', [{ kind: 'decrement', sku: 1, qty: 1 }], 10);
    sim.run();
    expect(b[0].r).toEqual({ kind: 'error', message: 'Lock wait timeout exceeded; try restarting transaction' });
    expect(b[0].at).toBe(10 + LOCK_WAIT_TIMEOUT_US);
  });

  it('rolls back the open transaction of a dead client: its write is undone and its row lock freed', () => {
    const { sim, db, session } = world();
    const ends: TransactionEnd[] = [];
    db.onTransactionEnd = (e) => ends.push(e);
    session('client-1/w1', [{ kind: 'begin', requestTag: 'r1' }, { kind: 'select-for-update', sku: 1 }, { kind: 'set-stock', sku: 1, available: 9 }]);
    const b = session('client-2/w1', [{ kind: 'decrement', sku: 1, qty: 1 }], 10);
    sim.schedule(5_000, () => db.abortOwners('client-1/'));
    sim.run();
    expect(b[0]).toEqual({ at: 6_000, r: { kind: 'affected', rows: 1 } });
    // 10 - 1, not 9 - 1: the dead client's UPDATE was rolled back.
    expect(db.stock.get(1)).toMatchObject({ available: 9, version: 1 });
    expect(ends).toEqual([{ txn: 1, owner: 'client-1/w1', requestTag: 'r1', outcome: 'rollback', cause: 'disconnect' }]);
  });

  it('keeps what a dead client committed before it died', () => {
    const { sim, db, session } = world();
    session('client-1/w1', [{ kind: 'begin', requestTag: 'r1' }, { kind: 'select-for-update', sku: 1 }, { kind: 'set-stock', sku: 1, available: 9 }, { kind: 'commit' }]);
    sim.schedule(5_000, () => db.abortOwners('client-1/'));
    sim.run();
    expect(db.stock.get(1)?.available).toBe(9);
  });

  it('lets a statement running when its client dies finish, then rolls its transaction back', () => {
    const { sim, db, session } = world();
    session('client-1/w1', [{ kind: 'begin', requestTag: 'r1' }, { kind: 'decrement', sku: 1, qty: 2 }]);
    const b = session('client-2/w1', [{ kind: 'select-stock', sku: 1 }], 100);
    const c = session('client-2/w2', [{ kind: 'decrement', sku: 1, qty: 1 }], 200);
    sim.schedule(500, () => db.abortOwners('client-1/'));
    sim.run();
    // The decrement held the row lock until it ended at 1 ms; the rollback restored 10.
    expect(b[0].r).toMatchObject({ row: { available: 10 } });
    expect(c[0]).toEqual({ at: 2_000, r: { kind: 'affected', rows: 1 } });
    expect(db.stock.get(1)?.available).toBe(9);
  });

  it('ends the lock wait of a dead client at once, and rolls back what its transaction wrote', () => {
    const { sim, db, session } = world();
    db.addStock(2, 5);
    session('client-2/w1', [{ kind: 'begin', requestTag: 'r2' }, { kind: 'select-for-update', sku: 1 }]); // holds sku 1, never ends
    const a = session('client-1/w1', [{ kind: 'begin', requestTag: 'r1' }, { kind: 'decrement', sku: 2, qty: 1 }, { kind: 'decrement', sku: 1, qty: 1 }], 10);
    const c = session('client-3/w1', [{ kind: 'decrement', sku: 2, qty: 1 }], 3_000);
    sim.schedule(5_000, () => db.abortOwners('client-1/'));
    sim.run();
    expect(a[2]).toEqual({ at: 5_000, r: { kind: 'error', message: 'connection closed' } });
    // sku 2 was locked by client-1's transaction until the rollback at 5 ms.
    expect(c[0]).toEqual({ at: 6_000, r: { kind: 'affected', rows: 1 } });
    expect(db.stock.get(2)?.available).toBe(4);
  });

  it('ROLLBACK restores the rows and drops the orders of the transaction', () => {
    const { sim, db, session } = world();
    const order: DbStatement = { kind: 'insert-order', sku: 1, qty: 1, requestTag: 'r1', orderKey: 'o1', uniqueKey: true };
    session('a', [{ kind: 'begin', requestTag: 'r1' }, { kind: 'select-for-update', sku: 1 }, { kind: 'set-stock', sku: 1, available: 9 }, order, { kind: 'rollback' }]);
    const b = session('b', [{ kind: 'decrement', sku: 1, qty: 1 }], 100);
    sim.run();
    expect(b[0].at).toBe(5_000); // waited for the row lock until the ROLLBACK at 4 ms
    expect(db.stock.get(1)).toEqual({ available: 9, version: 1, maxFence: 0 });
    expect(db.committedOrders).toBe(0);
    expect(db.apply({ kind: 'count-orders', orderKey: 'o1' })).toEqual({ kind: 'affected', rows: 0 });
  });

  it('COMMIT keeps the rows and publishes the orders of the transaction', () => {
    const { sim, db, session } = world();
    const order: DbStatement = { kind: 'insert-order', sku: 1, qty: 1, requestTag: 'r1', orderKey: 'o1', uniqueKey: true };
    const a = session('a', [{ kind: 'begin', requestTag: 'r1' }, { kind: 'select-for-update', sku: 1 }, { kind: 'set-stock', sku: 1, available: 9 }, order, { kind: 'count-orders', orderKey: 'o1' }, { kind: 'commit' }]);
    const b = session('b', [{ kind: 'count-orders', orderKey: 'o1' }], 3_500);
    sim.run();
    expect(a[4].r).toEqual({ kind: 'affected', rows: 1 }); // its own insert
    expect(b[0].r).toEqual({ kind: 'affected', rows: 0 }); // not yet committed at 4.5 ms
    expect(db.stock.get(1)?.available).toBe(9);
    expect(db.committedOrders).toBe(1);
    expect(db.apply({ kind: 'count-orders', orderKey: 'o1' })).toEqual({ kind: 'affected', rows: 1 });
  });

  it('fails only the statement on a lock wait timeout: the transaction keeps its locks and writes', () => {
    const { sim, db, session } = world();
    db.addStock(2, 5);
    session('a', [{ kind: 'begin', requestTag: 'ra' }, { kind: 'select-for-update', sku: 1 }]); // holds sku 1, never ends
    const b = session('b', [{ kind: 'begin', requestTag: 'rb' }, { kind: 'decrement', sku: 2, qty: 1 }, { kind: 'decrement', sku: 1, qty: 1 }, { kind: 'select-stock', sku: 2 }], 10);
    const c = session('c', [{ kind: 'select-stock', sku: 2 }, { kind: 'decrement', sku: 2, qty: 1 }], 60_000_000);
    sim.run();
    expect(b[2].r).toEqual({ kind: 'error', message: 'Lock wait timeout exceeded; try restarting transaction' });
    expect(b[3].r).toMatchObject({ row: { available: 4 } });
    // c still sees 5 (b never committed) and waits for b's row lock until the run ends.
    expect(c[0].r).toMatchObject({ row: { available: 5 } });
    expect(c[1]).toEqual({ at: 60_001_000 + LOCK_WAIT_TIMEOUT_US, r: { kind: 'error', message: 'Lock wait timeout exceeded; try restarting transaction' } });
  });

  it('makes an insert wait for an open transaction that inserted the same unique key: a duplicate if it commits', () => {
    const { sim, session } = world();
    const order = (tag: string): DbStatement => ({ kind: 'insert-order', sku: 1, qty: 1, requestTag: tag, orderKey: 'o1', uniqueKey: true });
    session('a', [{ kind: 'begin', requestTag: 'r1' }, order('r1'), { kind: 'commit' }]);
    const b = session('b', [order('r2')], 100);
    sim.run();
    // b's insert ran from 0.1 to 1.1 ms, then waited for a's COMMIT at 2 ms.
    expect(b[0]).toEqual({ at: 2_000, r: { kind: 'error', message: "Duplicate entry 'o1' for key 'uk_order_key'" } });
  });

  it('... and inserted if that transaction rolls back', () => {
    const { sim, db, session } = world();
    const order = (tag: string): DbStatement => ({ kind: 'insert-order', sku: 1, qty: 1, requestTag: tag, orderKey: 'o1', uniqueKey: true });
    session('a', [{ kind: 'begin', requestTag: 'r1' }, order('r1'), { kind: 'rollback' }]);
    const b = session('b', [order('r2')], 100);
    sim.run();
    expect(b[0]).toEqual({ at: 2_000, r: { kind: 'affected', rows: 1 } });
    expect(db.committedOrders).toBe(1); // b's: a's insert rolled back
  });

  it('applies each guard statement with its own condition', () => {
    const db = new Database({ statementTime: constant(1) }, new Simulation(1).random.fork('x'));
    db.addStock(1, 1);
    expect(db.apply({ kind: 'deduct-if-available', sku: 1, qty: 2 })).toEqual({ kind: 'affected', rows: 0 });
    expect(db.apply({ kind: 'set-stock-if-version', sku: 1, available: 0, version: 5 })).toEqual({ kind: 'affected', rows: 0 });
    expect(db.apply({ kind: 'set-stock-if-version', sku: 1, available: 0, version: 0 })).toEqual({ kind: 'affected', rows: 1 });
    expect(db.apply({ kind: 'decrement', sku: 1, qty: 1 })).toEqual({ kind: 'affected', rows: 1 });
    expect(db.stock.get(1)).toEqual({ available: -1, version: 2, maxFence: 0 });
  });

  it('refuses reads and writes with a fencing token below the highest seen', () => {
    const db = new Database({ statementTime: constant(1) }, new Simulation(1).random.fork('x'));
    db.addStock(1, 10);
    expect(db.apply({ kind: 'select-stock', sku: 1, fence: 33 }).kind).toBe('row');
    expect(db.apply({ kind: 'select-stock', sku: 1, fence: 34 }).kind).toBe('row');
    expect(db.apply({ kind: 'set-stock', sku: 1, available: 9, fence: 33 })).toEqual({ kind: 'affected', rows: 0 });
    expect(db.apply({ kind: 'select-stock', sku: 1, fence: 33 })).toEqual({ kind: 'error', message: 'stale fencing token 33 < 34' });
    // Equal tokens pass: the storage cannot tell two holders of one token apart.
    expect(db.apply({ kind: 'set-stock', sku: 1, available: 9, fence: 34 })).toEqual({ kind: 'affected', rows: 1 });
  });

  it('refuses a second order with the same key only when the key is unique', () => {
    const db = new Database({ statementTime: constant(1) }, new Simulation(1).random.fork('x'));
    const order = (uniqueKey: boolean): DbStatement => ({ kind: 'insert-order', sku: 1, qty: 1, requestTag: 'r', orderKey: 'o1', uniqueKey });
    expect(db.apply(order(false))).toEqual({ kind: 'affected', rows: 1 });
    expect(db.apply(order(false))).toEqual({ kind: 'affected', rows: 1 });
    expect(db.apply(order(true)).kind).toBe('error');
    expect(db.apply({ kind: 'count-orders', orderKey: 'o1' })).toEqual({ kind: 'affected', rows: 1 });
    expect(db.apply({ kind: 'count-orders', orderKey: 'o2' })).toEqual({ kind: 'affected', rows: 0 });
  });
});
