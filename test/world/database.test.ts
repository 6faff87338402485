/** The database model: row locks, transactions, guards' statements, fencing and unique order keys. */
import { describe, expect, it } from 'vitest';
import { constant } from '../../src/engine/distribution.js';
import type { ProcessGenerator } from '../../src/engine/process.js';
import { Simulation } from '../../src/engine/simulation.js';
import { Database, LOCK_WAIT_TIMEOUT_US, type DbResult, type DbStatement } from '../../src/world/database.js';

function world(statementUs = 1_000) {
  const sim = new Simulation(1);
  const db = new Database({ statementTime: constant(statementUs) }, sim.random.fork('db'));
  db.addStock(1, 10);
  /** Runs statements in order as `owner`, logging (time, result) of each. */
  const session = (owner: string, statements: DbStatement[], startUs = 0) => {
    const log: Array<{ at: number; r: DbResult }> = [];
    sim.spawn(owner, (function* (): ProcessGenerator<void> {
      if (startUs > 0) yield startUs;
      for (const s of statements) log.push({ r: yield* db.execute(s, owner), at: sim.nowUs });
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

  it('lets reads of a locked row through (no lock for a plain SELECT)', () => {
    const { sim, session } = world();
    session('a', [{ kind: 'begin' }, { kind: 'select-for-update', sku: 1 }, { kind: 'set-stock', sku: 1, available: 9 }]);
    const b = session('b', [{ kind: 'select-stock', sku: 1 }], 1_500);
    sim.run();
    expect(b[0]).toEqual({ at: 2_500, r: { kind: 'row', row: { available: 9, version: 1, maxFence: 0 } } });
  });

  it('holds a FOR UPDATE row lock until COMMIT, then hands it to the next waiter', () => {
    const { sim, db, session } = world();
    const a = session('a', [{ kind: 'begin' }, { kind: 'select-for-update', sku: 1 }, { kind: 'set-stock', sku: 1, available: 9 }, { kind: 'commit' }]);
    const b = session('b', [{ kind: 'begin' }, { kind: 'select-for-update', sku: 1 }], 500);
    sim.run();
    const commitAt = a[3].at;
    expect(b[1].at).toBe(commitAt + 1_000);
    expect(b[1].r).toEqual({ kind: 'row', row: { available: 9, version: 1, maxFence: 0 } });
    expect(db.stock.get(1)?.available).toBe(9);
  });

  it('fails a lock wait after innodb_lock_wait_timeout', () => {
    const { sim, session } = world();
    session('a', [{ kind: 'begin' }, { kind: 'select-for-update', sku: 1 }]); // never commits
    const b = session('b', [{ kind: 'decrement', sku: 1, qty: 1 }], 10);
    sim.run();
    expect(b[0].r).toEqual({ kind: 'error', message: 'Lock wait timeout exceeded; try restarting transaction' });
    expect(b[0].at).toBe(10 + LOCK_WAIT_TIMEOUT_US);
  });

  it('releases the row locks of a dead client', () => {
    const { sim, db, session } = world();
    session('client-1/w1', [{ kind: 'begin' }, { kind: 'select-for-update', sku: 1 }]);
    const b = session('client-2/w1', [{ kind: 'decrement', sku: 1, qty: 1 }], 10);
    sim.schedule(5_000, () => db.abortOwners('client-1/'));
    sim.run();
    expect(b[0]).toEqual({ at: 6_000, r: { kind: 'affected', rows: 1 } });
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
