/**
 * The checker: history in, metrics and violations out. It reads the recorded history only,
 * never the simulator, so a bug in the model cannot hide a bug in the verdict.
 */
import type { History } from '../history/operation.js';
import { findDoubleHolders } from './double-holders.js';
import { checkFencing } from './fencing.js';
import { indexHistory } from './history-index.js';
import { authoritativeSegments, checkOwnership } from './lock-ownership.js';
import { FlashSaleConsumer, type FlashSaleMetrics } from './flash-sale.js';
import { findOrphans } from './orphans.js';
import { consumeIndex, runFactsOf } from './request-consumer.js';
import { requestStats, type RequestStats } from './requests.js';
import { checkStock, stockCounts } from './stock.js';
import type { Violation } from './violations.js';

export interface RunMetrics {
  requests: number;
  orders: number;
  unitsSold: number;
  outcomes: RequestStats['outcomes'];
  timeouts: number;
  oversold: number;
  negativeStock: number;
  lostUpdates: number;
  refusedWrites: number;
  casConflicts: number;
  fenceRejections: number;
  duplicateOrders: number;
  staleTokens: number;
  doubleHolders: number;
  doubleHolderUs: number;
  /** When the first and last double-holder episodes began (-1: none). */
  firstDoubleHolderUs: number;
  lastDoubleHolderUs: number;
  maxHolders: number;
  lockLost: number;
  foreignUnlocks: number;
  stuckLockUs: number;
  /** Time lock keys were held by an owner none of whose requests worked under them. */
  orphanLockUs: number;
  renewals: number;
  renewalFailures: number;
  throughputPerS: number;
  requestsPerS: number;
  latencyP50Us: number;
  latencyP99Us: number;
  /** Units deducted by other requests that lost updates wrote over. */
  lostUnits: number;
  /** Sell-out time, arrivals, busy share, latency by outcome (flash-sale.ts). */
  flashSale: FlashSaleMetrics;
}

export interface CheckResult {
  metrics: RunMetrics;
  /** The first violation of each kind, earliest first. */
  violations: Violation[];
}

export function checkHistory(ops: History): CheckResult {
  const index = indexHistory(ops);
  const requests = requestStats(index);
  const stock = checkStock(index);
  const holders = findDoubleHolders(index.sections);
  const segments = authoritativeSegments(index);
  const ownership = checkOwnership(index, segments);
  const orphans = findOrphans(index, segments);
  const fencing = checkFencing(index);
  const violations = [...stock.violations, ...ownership.violations, ...fencing.violations];
  if (holders.first) violations.push(holders.first);
  if (orphans.first) violations.push(orphans.first);
  violations.sort((a, b) => a.timeUs - b.timeUs || (a.kind < b.kind ? -1 : 1));
  return {
    metrics: {
      requests: requests.requests,
      orders: requests.orders,
      unitsSold: stock.unitsOrdered,
      outcomes: requests.outcomes,
      timeouts: requests.timeouts,
      ...stockCounts(stock),
      staleTokens: fencing.staleTokens,
      doubleHolders: holders.episodes,
      doubleHolderUs: holders.totalUs,
      firstDoubleHolderUs: holders.firstStartUs,
      lastDoubleHolderUs: holders.lastStartUs,
      maxHolders: holders.maxHolders,
      lockLost: ownership.lockLost,
      foreignUnlocks: ownership.foreignUnlocks,
      stuckLockUs: ownership.stuckUs,
      orphanLockUs: orphans.orphanUs,
      renewals: index.renewals,
      renewalFailures: index.renewalFailures,
      throughputPerS: requests.throughputPerS,
      requestsPerS: requests.requestsPerS,
      latencyP50Us: requests.latencyP50Us,
      latencyP99Us: requests.latencyP99Us,
      lostUnits: stock.lostUnits,
      flashSale: consumeIndex(index, new FlashSaleConsumer(runFactsOf(index))),
    },
    violations,
  };
}
