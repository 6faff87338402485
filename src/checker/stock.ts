/**
 * The inventory invariants, judged from database operations in the history:
 * - oversold: units ordered beyond the initial stock of a SKU;
 * - negative stock: the lowest value a write left behind, when below zero;
 * - lost updates: read-modify-write writes computed from a value that was no longer current;
 * - duplicate orders: orders committed with an order key that was already ordered;
 * - refused writes by kind: conditional deductions that found too little stock, version
 *   conflicts of optimistic CAS, and writes or reads refused for a stale fencing token.
 */
import type { History } from '../history/operation.js';
import type { HistoryIndex } from './history-index.js';
import type { Violation } from './violations.js';

export interface StockStats {
  unitsOrdered: number;
  oversold: number;
  negativeStock: number;
  lostUpdates: number;
  /** Conditional deductions that found too little stock (rows affected = 0). */
  refusedWrites: number;
  /** Optimistic CAS writes that found another version (rows affected = 0). */
  casConflicts: number;
  /** Reads and writes the storage refused for carrying a stale fencing token. */
  fenceRejections: number;
  duplicateOrders: number;
  violations: Violation[];
}

export function checkStock(index: HistoryIndex): StockStats {
  const ordered = new Map<number, number>();
  const current = new Map(index.stock);
  const stats: StockStats = {
    unitsOrdered: 0, oversold: 0, negativeStock: 0, lostUpdates: 0, refusedWrites: 0, casConflicts: 0, fenceRejections: 0, duplicateOrders: 0, violations: [],
  };
  const orderKeys = new Map<string, string>();
  let firstDuplicate: Violation | null = null;
  let firstOversell: Violation | null = null;
  let firstLost: Violation | null = null;
  let firstNegative: Violation | null = null;

  for (const op of index.ops as History) {
    if (op.f === 'read-stock' && op.type === 'fail' && op.fence !== undefined) stats.fenceRejections++;
    if (op.type !== 'ok') continue;
    if (op.f === 'order') {
      const first = orderKeys.get(op.orderKey);
      if (first !== undefined) {
        stats.duplicateOrders++;
        if (firstDuplicate === null) {
          firstDuplicate = {
            kind: 'duplicate-order',
            timeUs: op.timeUs,
            subject: `order ${op.orderKey}`,
            requests: [first, op.request],
            summary: `order ${op.orderKey} was committed twice: by ${first} and again by ${op.request}`,
          };
        }
      } else orderKeys.set(op.orderKey, op.request);
      const total = (ordered.get(op.sku) ?? 0) + op.qty;
      ordered.set(op.sku, total);
      stats.unitsOrdered += op.qty;
      const initial = index.stock.get(op.sku) ?? 0;
      if (total > initial && firstOversell === null) {
        firstOversell = {
          kind: 'oversell',
          timeUs: op.timeUs,
          subject: `sku ${op.sku}`,
          requests: [op.request],
          summary: `order ${total} of sku ${op.sku} committed by ${op.process} (${op.request}) with only ${initial} in stock`,
        };
      }
    } else if (op.f === 'write-stock') {
      const before = current.get(op.sku) ?? 0;
      let after = before;
      if (op.affected === 0) {
        if (op.mode === 'cas') stats.casConflicts++;
        else if (op.fence !== undefined) stats.fenceRejections++;
        else stats.refusedWrites++;
      } else if (op.mode === 'set' || op.mode === 'cas') {
        if (op.basedOn !== before) {
          stats.lostUpdates++;
          if (firstLost === null) {
            firstLost = {
              kind: 'lost-update',
              timeUs: op.timeUs,
              subject: `sku ${op.sku}`,
              requests: [op.request],
              summary: `${op.process} (${op.request}) wrote available = ${op.value} computed from ${op.basedOn}, but the row held ${before}: an update was lost`,
            };
          }
        }
        after = op.value ?? before;
      } else {
        after = before - op.qty;
      }
      current.set(op.sku, after);
      if (after < 0) {
        stats.negativeStock = Math.max(stats.negativeStock, -after);
        if (firstNegative === null) {
          firstNegative = {
            kind: 'negative-stock',
            timeUs: op.timeUs,
            subject: `sku ${op.sku}`,
            requests: [op.request],
            summary: `${op.process} (${op.request}) left sku ${op.sku} at ${after}`,
          };
        }
      }
    }
  }
  for (const [sku, total] of ordered) stats.oversold += Math.max(0, total - (index.stock.get(sku) ?? 0));
  for (const v of [firstOversell, firstLost, firstNegative, firstDuplicate]) if (v) stats.violations.push(v);
  return stats;
}
