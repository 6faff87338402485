/**
 * The inventory invariants, judged from database operations in the history:
 * - oversold: units ordered beyond the initial stock of a SKU;
 * - negative stock: the lowest value a write left behind, when below zero;
 * - lost updates: read-modify-write writes computed from a value that was no longer current,
 *   and the units they erased: a write computed from `basedOn` while the row held `before`
 *   (< basedOn) wipes out the basedOn - before units deducted since its read;
 * - duplicate orders: orders committed with an order key that was already ordered;
 * - refused writes by kind: conditional deductions that found too little stock, version
 *   conflicts of optimistic CAS, and writes or reads refused for a stale fencing token.
 * Only committed effects count: a statement recorded with a transaction id takes effect when
 * the database's `txn` fact says that transaction committed, and never if it rolled back or
 * never ended. Row locks keep every other write to a row out until the commit, so replaying
 * a transaction's writes at its commit sees the same row values as at the writes.
 */
import type { Operation, OrderOp, SetupOp, StockWriteOp } from '../../history/operation.js';
import { OrderKeyMap } from '../whole-run-stores.js';
import type { Observer } from '../observer.js';
import type { Violation } from '../violations.js';

/** The stock figures of RunMetrics (check-history.ts). */
export interface StockFigures {
  oversold: number;
  negativeStock: number;
  lostUpdates: number;
  refusedWrites: number;
  casConflicts: number;
  fenceRejections: number;
  duplicateOrders: number;
}

interface StockStats {
  unitsOrdered: number;
  oversold: number;
  negativeStock: number;
  lostUpdates: number;
  /** Units deducted by others that lost updates wrote over. */
  lostUnits: number;
  /** Conditional deductions that found too little stock (rows affected = 0). */
  refusedWrites: number;
  /** Optimistic CAS writes that found another version (rows affected = 0). */
  casConflicts: number;
  /** Reads and writes the storage refused for carrying a stale fencing token. */
  fenceRejections: number;
  duplicateOrders: number;
  violations: Violation[];
}

type Effect = StockWriteOp | OrderOp;

/** A violation of one SKU's stock by the request of `op`. */
const skuViolation = (kind: Violation['kind'], timeUs: number, op: Effect, summary: string): Violation => ({
  kind,
  timeUs,
  subject: `sku ${op.sku}`,
  requests: [op.request],
  summary,
});

class StockReplay {
  readonly ordered = new Map<number, number>();
  readonly current: Map<number, number>;
  readonly orderKeys = new OrderKeyMap();
  firstDuplicate: Violation | null = null;
  firstOversell: Violation | null = null;
  firstLost: Violation | null = null;
  firstNegative: Violation | null = null;

  constructor(
    private readonly initial: ReadonlyMap<number, number>,
    readonly stats: StockStats,
  ) {
    this.current = new Map(initial);
  }

  /** A committed effect of `op`, at `timeUs` (the statement's, or its transaction's commit). */
  apply(op: Effect, timeUs: number): void {
    if (op.f === 'order') this.order(op, timeUs);
    else this.write(op, timeUs);
  }

  private order(op: OrderOp, timeUs: number): void {
    const { stats } = this;
    const first = this.orderKeys.get(op.orderKey);
    if (first !== undefined) {
      stats.duplicateOrders++;
      this.firstDuplicate ??= {
        kind: 'duplicate-order',
        timeUs,
        subject: `order ${op.orderKey}`,
        requests: [first, op.request],
        summary: `order ${op.orderKey} was committed twice: by ${first} and again by ${op.request}`,
      };
    } else this.orderKeys.set(op.orderKey, op.request);
    const total = (this.ordered.get(op.sku) ?? 0) + op.qty;
    this.ordered.set(op.sku, total);
    stats.unitsOrdered += op.qty;
    const initial = this.initial.get(op.sku) ?? 0;
    if (total > initial) {
      this.firstOversell ??= skuViolation('oversell', timeUs, op, `order ${total} of sku ${op.sku} committed by ${op.process} (${op.request}) with only ${initial} in stock`);
    }
  }

  private write(op: StockWriteOp, timeUs: number): void {
    const { stats } = this;
    const before = this.current.get(op.sku) ?? 0;
    let after = before;
    if (op.mode === 'set' || op.mode === 'cas') {
      if (op.basedOn !== before) {
        stats.lostUpdates++;
        const erased = Math.max(0, (op.basedOn ?? before) - before);
        stats.lostUnits += erased;
        this.firstLost ??= skuViolation(
          'lost-update',
          timeUs,
          op,
          `${op.process} (${op.request}) wrote available = ${op.value} computed from ${op.basedOn}, but the row held ${before}: an update was lost${erased > 0 ? ` (${erased} unit${erased === 1 ? '' : 's'} erased)` : ''}`,
        );
      }
      after = op.value ?? before;
    } else {
      after = before - op.qty;
    }
    this.current.set(op.sku, after);
    if (after < 0) {
      stats.negativeStock = Math.max(stats.negativeStock, -after);
      this.firstNegative ??= skuViolation('negative-stock', timeUs, op, `${op.process} (${op.request}) left sku ${op.sku} at ${after}`);
    }
  }
}

/**
 * The stock checks one operation at a time: it keeps the current row values, the orders per
 * SKU, the order keys and the effects of transactions still open, nothing else.
 */
export class StockObserver implements Observer {
  readonly reads = ['read-stock', 'write-stock', 'order', 'txn'] as const;
  readonly stats: StockStats = {
    unitsOrdered: 0, oversold: 0, negativeStock: 0, lostUpdates: 0, lostUnits: 0, refusedWrites: 0, casConflicts: 0, fenceRejections: 0, duplicateOrders: 0, violations: [],
  };
  private initial: ReadonlyMap<number, number> = new Map();
  private replay: StockReplay = new StockReplay(this.initial, this.stats);
  /** Effects of open transactions, in statement order, until their commit or rollback. */
  private readonly pending = new Map<number, Effect[]>();
  private finished = false;

  /** The stock per SKU at the start (summed over repeated rows). */
  setup(op: SetupOp): void {
    const stock = new Map<number, number>();
    for (const s of op.stock) stock.set(s.sku, (stock.get(s.sku) ?? 0) + s.available);
    this.initial = stock;
    this.replay = new StockReplay(stock, this.stats);
  }

  observe(op: Operation): void {
    const { stats, pending, replay } = this;
    if (op.f === 'read-stock' && op.type === 'fail' && op.fence !== undefined) stats.fenceRejections++;
    if (op.f === 'txn') {
      const effects = pending.get(op.txn) ?? [];
      pending.delete(op.txn);
      if (op.outcome === 'commit') for (const e of effects) replay.apply(e, op.timeUs);
      return;
    }
    if (op.type !== 'ok' || (op.f !== 'order' && op.f !== 'write-stock')) return;
    if (op.f === 'write-stock' && op.affected === 0) {
      // A refused write changes nothing, committed or not.
      if (op.mode === 'cas') stats.casConflicts++;
      else if (op.fence !== undefined) stats.fenceRejections++;
      else stats.refusedWrites++;
      return;
    }
    if (op.txn === undefined) replay.apply(op, op.timeUs);
    else {
      // A copy: a run that keeps no history refills its records (history/records.ts RecordBuilder.recycling).
      const effect: Effect = { ...op };
      const effects = pending.get(op.txn);
      if (effects) effects.push(effect);
      else pending.set(op.txn, [effect]);
    }
  }

  /** Oversold units are counted once the run has ended (every order is in). */
  runEnded(): void {
    if (this.finished) return;
    this.finished = true;
    const { stats, replay } = this;
    for (const [sku, total] of replay.ordered) stats.oversold += Math.max(0, total - (this.initial.get(sku) ?? 0));
    for (const v of [replay.firstOversell, replay.firstLost, replay.firstNegative, replay.firstDuplicate]) if (v) stats.violations.push(v);
  }

  result(): StockFigures {
    const s = this.stats;
    return {
      oversold: s.oversold,
      negativeStock: s.negativeStock,
      lostUpdates: s.lostUpdates,
      refusedWrites: s.refusedWrites,
      casConflicts: s.casConflicts,
      fenceRejections: s.fenceRejections,
      duplicateOrders: s.duplicateOrders,
    };
  }

  violations(): Violation[] {
    return this.stats.violations;
  }
}
