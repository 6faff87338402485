/**
 * One open transaction of the database, as InnoDB keeps it (MySQL 8.0 Reference Manual,
 * "InnoDB Locking and Transaction Model",
 * https://dev.mysql.com/doc/refman/8.0/en/innodb-transaction-model.html): the rows it has
 * locked (held until COMMIT or ROLLBACK), the before-images of the rows it changed (its undo
 * log: what ROLLBACK restores and what other connections' consistent reads see meanwhile),
 * and the orders it inserted, which other connections see only once it commits.
 */
import { Signal } from '../engine/signal.js';

export interface StockRow {
  available: number;
  version: number;
  /** The highest fencing token a statement on this row has carried. */
  maxFence: number;
}

export interface OrderRow {
  sku: number;
  qty: number;
  requestTag: string;
  orderKey: string;
}

/**
 * Why a transaction ended: the application's COMMIT or ROLLBACK, or its connection dropped
 * (the client died) and the server rolled it back.
 */
export type TransactionEndCause = 'commit' | 'rollback' | 'disconnect';

/** What the database reports when a transaction ends (the history records it). */
export interface TransactionEnd {
  txn: number;
  /** The connection's user (a client thread, "client-1/w3"). */
  owner: string;
  requestTag: string;
  outcome: 'commit' | 'rollback';
  cause: TransactionEndCause;
}

export class Transaction {
  /** Rows whose lock this transaction holds. */
  readonly locked = new Set<number>();
  /** Before-images of the rows it changed, taken at its first change of each. */
  readonly undo = new Map<number, StockRow>();
  /** Orders it inserted, not yet visible to other connections. */
  readonly orders: OrderRow[] = [];
  /** One of its statements is executing in the server. */
  busy = false;
  /** Its connection dropped while a statement ran: it rolls back when that statement ends. */
  doomed = false;
  /** Fired when it commits or rolls back (an insert waiting on one of its order keys resumes). */
  readonly ended = new Signal<true>('transaction-end');

  constructor(
    readonly id: number,
    readonly owner: string,
    readonly requestTag: string,
  ) {}

  hasOrderKey(orderKey: string): boolean {
    return this.orders.some((o) => o.orderKey === orderKey);
  }
}
