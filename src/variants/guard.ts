/**
 * A database write guard: the statement that deducts stock, given what the request read.
 * `none` writes back what it computed from its read (read-modify-write: lost updates when
 * two requests overlap); `conditional` lets the database check (`WHERE available >= qty`,
 * seed 000's final SQL: 0 oversell whatever the lock does).
 */
import type { DbStatement } from '../world/database.js';

export interface Guard {
  readonly name: string;
  readonly summary: string;
  /** Whether the request must read the stock before deducting. */
  readonly needsRead: boolean;
  deductStatement(sku: number, qty: number, readAvailable: number | null): DbStatement;
}

export const noGuard: Guard = {
  name: 'none',
  summary: 'read, then UPDATE stock SET available = <read - qty> (read-modify-write)',
  needsRead: true,
  deductStatement(sku, qty, readAvailable) {
    if (readAvailable === null) throw new Error('guard none needs a read before deduct');
    return { kind: 'set-stock', sku, available: readAvailable - qty };
  },
};

export const conditionalGuard: Guard = {
  name: 'conditional',
  summary: 'UPDATE stock SET available = available - qty WHERE available >= qty',
  needsRead: false,
  deductStatement(sku, qty) {
    return { kind: 'deduct-if-available', sku, qty };
  },
};
