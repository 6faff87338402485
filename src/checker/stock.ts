/**
 * The inventory invariants, judged from database operations in the history:
 * - oversold: units ordered beyond the initial stock of a SKU;
 * - negative stock: the lowest value a write left behind, when below zero;
 * - lost updates: read-modify-write writes computed from a value that was no longer current.
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
  violations: Violation[];
}

export function checkStock(index: HistoryIndex): StockStats {
  const ordered = new Map<number, number>();
  const current = new Map(index.stock);
  const stats: StockStats = { unitsOrdered: 0, oversold: 0, negativeStock: 0, lostUpdates: 0, refusedWrites: 0, violations: [] };
  let firstOversell: Violation | null = null;
  let firstLost: Violation | null = null;
  let firstNegative: Violation | null = null;

  for (const op of index.ops as History) {
    if (op.type !== 'ok') continue;
    if (op.f === 'order') {
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
      if (op.mode === 'set') {
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
      } else if (op.affected === 0) {
        stats.refusedWrites++;
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
  for (const v of [firstOversell, firstLost, firstNegative]) if (v) stats.violations.push(v);
  return stats;
}
