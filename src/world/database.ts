/**
 * The relational database behind the shop: one stock row per SKU (available, version) and
 * an orders table. Each statement takes a service time drawn from a distribution and takes
 * effect atomically when it completes; clients reach it through their own connection pools
 * (ConnectionPool), so contention and throughput are outcomes of the model, not inputs.
 */
import { sample, type Distribution } from '../engine/distribution.js';
import type { RandomStream } from '../engine/random.js';
import type { ProcessGenerator } from '../engine/process.js';

export interface StockRow {
  available: number;
  version: number;
}

export type DbStatement =
  /** SELECT available, version FROM stock WHERE sku = ? */
  | { kind: 'select-stock'; sku: number }
  /** UPDATE stock SET available = ?, version = version + 1 WHERE sku = ?  (read-modify-write) */
  | { kind: 'set-stock'; sku: number; available: number }
  /** UPDATE stock SET available = available - ?, version = version + 1 WHERE sku = ? AND available >= ? */
  | { kind: 'deduct-if-available'; sku: number; qty: number }
  /** INSERT INTO orders (sku, qty, request) VALUES (?, ?, ?) */
  | { kind: 'insert-order'; sku: number; qty: number; requestTag: string };

export type DbResult =
  | { kind: 'row'; row: StockRow }
  | { kind: 'affected'; rows: number }
  | { kind: 'error'; message: string };

export interface DatabaseParams {
  statementTime: Distribution;
}

export class Database {
  readonly stock = new Map<number, StockRow>();
  readonly orders: Array<{ sku: number; qty: number; requestTag: string }> = [];
  /** Multiplier on statement time (db-slow fault). */
  slowFactor = 1;

  constructor(
    private readonly params: DatabaseParams,
    private readonly rng: RandomStream,
  ) {}

  addStock(sku: number, available: number): void {
    this.stock.set(sku, { available, version: 0 });
  }

  /**
   * Runs one statement on a connection the caller already holds: it takes a service time
   * and then applies atomically.
   */
  *execute(statement: DbStatement): ProcessGenerator<DbResult> {
    yield Math.round(sample(this.params.statementTime, this.rng) * this.slowFactor);
    return this.apply(statement);
  }

  apply(s: DbStatement): DbResult {
    const row = this.stock.get(s.sku);
    if (s.kind === 'insert-order') {
      this.orders.push({ sku: s.sku, qty: s.qty, requestTag: s.requestTag });
      return { kind: 'affected', rows: 1 };
    }
    if (!row) return { kind: 'error', message: `no stock row for sku ${s.sku}` };
    switch (s.kind) {
      case 'select-stock':
        return { kind: 'row', row: { ...row } };
      case 'set-stock':
        row.available = s.available;
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
