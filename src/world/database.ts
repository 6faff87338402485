/**
 * The relational database behind the shop: one stock row per SKU (available, version, the
 * highest fencing token seen) and an orders table with an optional unique order key.
 * Statements take a service time and apply atomically when they complete. Like InnoDB,
 * a statement that writes a row, and SELECT ... FOR UPDATE, takes the row's exclusive lock
 * first: writes to one hot row queue behind each other, which is what makes "every request
 * goes to the database" slow. In autocommit the lock goes with the statement; inside a
 * transaction it is held until COMMIT. A lock wait longer than innodb_lock_wait_timeout
 * (50 s, the MySQL default) fails the statement.
 */
import { sample, type Distribution } from '../engine/distribution.js';
import type { ProcessGenerator } from '../engine/process.js';
import type { RandomStream } from '../engine/random.js';
import { Signal, SignalWait, TIMED_OUT } from '../engine/signal.js';

export interface StockRow {
  available: number;
  version: number;
  /** The highest fencing token a statement on this row has carried. */
  maxFence: number;
}

export type DbStatement =
  /** SELECT available, version FROM stock WHERE sku = ?  (with a token: rejected if stale) */
  | { kind: 'select-stock'; sku: number; fence?: number }
  /** SELECT ... FOR UPDATE: waits for the row lock and keeps it until COMMIT. */
  | { kind: 'select-for-update'; sku: number }
  /** UPDATE stock SET available = ? WHERE sku = ?  (read-modify-write; with a token: AND max_fence <= token) */
  | { kind: 'set-stock'; sku: number; available: number; fence?: number }
  /** UPDATE stock SET available = ? WHERE sku = ? AND version = ?  (optimistic CAS) */
  | { kind: 'set-stock-if-version'; sku: number; available: number; version: number }
  /** UPDATE stock SET available = available - ? WHERE sku = ?  (no check: can go negative) */
  | { kind: 'decrement'; sku: number; qty: number }
  /** UPDATE stock SET available = available - ? WHERE sku = ? AND available >= ? */
  | { kind: 'deduct-if-available'; sku: number; qty: number }
  /** INSERT INTO orders (sku, qty, request, order_key) VALUES (...) */
  | { kind: 'insert-order'; sku: number; qty: number; requestTag: string; orderKey: string; uniqueKey: boolean }
  /** SELECT COUNT(*) FROM orders WHERE order_key = ?  (the idempotency check) */
  | { kind: 'count-orders'; orderKey: string }
  | { kind: 'begin' }
  | { kind: 'commit' };

export type DbResult =
  | { kind: 'row'; row: StockRow }
  | { kind: 'affected'; rows: number }
  | { kind: 'error'; message: string };

export interface DatabaseParams {
  statementTime: Distribution;
}

/** MySQL innodb_lock_wait_timeout default: 50 s. */
export const LOCK_WAIT_TIMEOUT_US = 50_000_000;

interface RowLock {
  owner: string | null;
  waiters: Array<{ owner: string; turn: Signal<true> }>;
}

const WRITES = new Set<DbStatement['kind']>(['set-stock', 'set-stock-if-version', 'decrement', 'deduct-if-available', 'select-for-update']);

export class Database {
  readonly stock = new Map<number, StockRow>();
  readonly orders: Array<{ sku: number; qty: number; requestTag: string; orderKey: string }> = [];
  /** Order keys ever inserted (what the unique index and the idempotency check consult). */
  private readonly orderKeys = new Set<string>();
  private readonly rowLocks = new Map<number, RowLock>();
  /** Owners inside a transaction, with the rows they have locked. */
  private readonly transactions = new Map<string, Set<number>>();
  /** Multiplier on statement time (db-slow fault). */
  slowFactor = 1;

  constructor(
    private readonly params: DatabaseParams,
    private readonly rng: RandomStream,
  ) {}

  addStock(sku: number, available: number): void {
    this.stock.set(sku, { available, version: 0, maxFence: 0 });
    this.rowLocks.set(sku, { owner: null, waiters: [] });
  }

  /**
   * Runs one statement for `owner` (a connection's current user) on a connection the
   * caller already holds: row lock if it writes, a service time, then the effect.
   */
  *execute(statement: DbStatement, owner: string): ProcessGenerator<DbResult> {
    if (statement.kind === 'begin') {
      this.transactions.set(owner, new Set());
      return { kind: 'affected', rows: 0 };
    }
    if (statement.kind === 'commit') {
      yield this.serviceTimeUs();
      this.endTransaction(owner);
      return { kind: 'affected', rows: 0 };
    }
    const sku = 'sku' in statement && WRITES.has(statement.kind) ? statement.sku : null;
    const locks = sku === null ? undefined : this.rowLocks.get(sku);
    if (locks && locks.owner !== owner) {
      if (locks.owner !== null) {
        const turn = new Signal<true>('row-lock');
        const waiter = { owner, turn };
        locks.waiters.push(waiter);
        const r = yield new SignalWait(turn, LOCK_WAIT_TIMEOUT_US);
        if (r === TIMED_OUT) {
          locks.waiters = locks.waiters.filter((w) => w !== waiter);
          return { kind: 'error', message: 'Lock wait timeout exceeded; try restarting transaction' };
        }
      } else locks.owner = owner;
      this.transactions.get(owner)?.add(sku as number);
    }
    yield this.serviceTimeUs();
    const result = this.apply(statement);
    if (locks && !this.transactions.has(owner)) this.unlockRow(sku as number);
    return result;
  }

  /** A client died: the database notices the dropped connections and rolls back their locks. */
  abortOwners(prefix: string): void {
    for (const owner of [...this.transactions.keys()]) if (owner.startsWith(prefix)) this.endTransaction(owner);
    for (const [sku, lock] of this.rowLocks) {
      lock.waiters = lock.waiters.filter((w) => !w.owner.startsWith(prefix));
      if (lock.owner !== null && lock.owner.startsWith(prefix)) this.unlockRow(sku);
    }
  }

  private endTransaction(owner: string): void {
    const rows = this.transactions.get(owner);
    this.transactions.delete(owner);
    if (rows) for (const sku of rows) if (this.rowLocks.get(sku)?.owner === owner) this.unlockRow(sku);
  }

  private unlockRow(sku: number): void {
    const lock = this.rowLocks.get(sku);
    if (!lock) return;
    const next = lock.waiters.shift();
    lock.owner = next ? next.owner : null;
    if (next) {
      this.transactions.get(next.owner)?.add(sku);
      next.turn.fire(true);
    }
  }

  private serviceTimeUs(): number {
    return Math.round(sample(this.params.statementTime, this.rng) * this.slowFactor);
  }

  apply(s: DbStatement): DbResult {
    if (s.kind === 'begin' || s.kind === 'commit') return { kind: 'affected', rows: 0 };
    if (s.kind === 'count-orders') return { kind: 'affected', rows: this.orderKeys.has(s.orderKey) ? 1 : 0 };
    if (s.kind === 'insert-order') {
      if (s.uniqueKey && this.orderKeys.has(s.orderKey)) {
        return { kind: 'error', message: `Duplicate entry '${s.orderKey}' for key 'uk_order_key'` };
      }
      this.orderKeys.add(s.orderKey);
      this.orders.push({ sku: s.sku, qty: s.qty, requestTag: s.requestTag, orderKey: s.orderKey });
      return { kind: 'affected', rows: 1 };
    }
    const row = this.stock.get(s.sku);
    if (!row) return { kind: 'error', message: `no stock row for sku ${s.sku}` };
    switch (s.kind) {
      case 'select-stock':
        if (s.fence !== undefined) {
          if (s.fence < row.maxFence) return { kind: 'error', message: `stale fencing token ${s.fence} < ${row.maxFence}` };
          row.maxFence = s.fence;
        }
        return { kind: 'row', row: { ...row } };
      case 'select-for-update':
        return { kind: 'row', row: { ...row } };
      case 'set-stock':
        if (s.fence !== undefined) {
          if (s.fence < row.maxFence) return { kind: 'affected', rows: 0 };
          row.maxFence = s.fence;
        }
        row.available = s.available;
        row.version++;
        return { kind: 'affected', rows: 1 };
      case 'set-stock-if-version':
        if (row.version !== s.version) return { kind: 'affected', rows: 0 };
        row.available = s.available;
        row.version++;
        return { kind: 'affected', rows: 1 };
      case 'decrement':
        row.available -= s.qty;
        row.version++;
        return { kind: 'affected', rows: 1 };
      case 'deduct-if-available':
        if (row.available < s.qty) return { kind: 'affected', rows: 0 };
        row.available -= s.qty;
        row.version++;
        return { kind: 'affected', rows: 1 };
    }
  }
}
