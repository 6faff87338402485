/**
 * What the checker finds in a run (RunMetrics, the first violations, the failures listed),
 * and judging a recorded history: replaying it through the same observers a run is judged
 * by while it records (checker.ts), with a ledger that drops no request's facts, so that a
 * replay always judges and judges as the run did.
 */
import type { History, Operation } from '../history/operation.js';
import { Checker } from './checker.js';
import type { CriticalSection, Observer } from './observer.js';
import type { Failures } from './observers/diagnostics.js';
import type { FlashSaleMetrics } from './observers/flash-sale.js';
import type { LivenessFigures } from './observers/liveness.js';
import type { HolderFigures } from './observers/holders.js';
import type { OutcomeFigures } from './observers/outcomes.js';
import type { OwnershipFigures } from './observers/ownership.js';
import type { FairnessFigures } from './observers/fairness.js';
import type { PartialHoldFigures } from './observers/partial-holds.js';
import type { PermitFigures } from './observers/permits.js';
import type { ReadWriteFigures } from './observers/read-write.js';
import type { StockFigures } from './observers/stock.js';
import { RequestLedger } from './ledger.js';
import { CheckerArena } from './arena.js';
import type { Violation } from './violations.js';

/**
 * Every observer's figures, from the interfaces of the observers that count them (checker.ts
 * merge writes them in the order the JSON lists them).
 */
export interface RunMetrics extends OutcomeFigures, StockFigures, HolderFigures, OwnershipFigures, PermitFigures, FairnessFigures, PartialHoldFigures, ReadWriteFigures {
  /** Units of every committed order (observers/stock.ts). */
  unitsSold: number;
  /** Fencing tokens that went backwards (observers/fencing.ts). */
  staleTokens: number;
  /** Units deducted by other requests that lost updates wrote over. */
  lostUnits: number;
  /** Sell-out time, arrivals, busy share, latency by outcome (observers/flash-sale.ts). */
  flashSale: FlashSaleMetrics;
  /** Whether the system kept working once the faults were over (observers/liveness.ts). */
  liveness: LivenessFigures;
}

export interface CheckResult {
  metrics: RunMetrics;
  /** The first violation of each kind, earliest first. */
  violations: Violation[];
  /** Failed and unknown requests by their first error text, and the client processes' diagnostics (observers/diagnostics.ts). */
  failures: Failures;
}

/** A history in time order: as recorded, or (written out of order by hand) sorted by time, keeping the order of one instant. */
function inTimeOrder(ops: History): readonly Operation[] {
  for (let i = 1; i < ops.length; i++) {
    if (ops[i].timeUs < ops[i - 1].timeUs) return ops.map((op, k) => ({ op, k })).sort((a, b) => a.op.timeUs - b.op.timeUs || a.k - b.k).map((e) => e.op);
  }
  return ops;
}

/** Judges a recorded history: every operation through one checker that keeps every request's facts. */
export function checkHistory(ops: History): CheckResult {
  const checker = new Checker({ graceUs: Infinity });
  for (const op of inTimeOrder(ops)) checker.observe(op);
  const verdict = checker.finish();
  if (verdict === null) throw new Error(`the checker could not judge the history: ${checker.incompleteBecause}`);
  return verdict;
}

/**
 * Every critical section of a recorded history, closed (at its end, or at the run's end), in
 * order of start then request: what the ledger tells the observers, for the timelines.
 */
export function criticalSections(ops: History): { sections: CriticalSection[]; endUs: number } {
  const sections: CriticalSection[] = [];
  const collector: Observer = { reads: [], setup() {}, sectionClosed: (s) => void sections.push(s) };
  const ledger = new RequestLedger([collector], new CheckerArena(), Infinity, new Set());
  let endUs = 0;
  for (const op of inTimeOrder(ops)) {
    ledger.advance(op.timeUs);
    endUs = Math.max(endUs, op.timeUs);
    if (op.f === 'request') ledger.request(op);
    else if (op.f === 'acquire') ledger.acquire(op);
    else if (op.f === 'release') ledger.release(op);
    else if (op.f === 'fault' && op.fault === 'crash' && op.phase === 'start') ledger.crash(op);
  }
  ledger.finish(endUs);
  sections.sort((a, b) => a.startUs - b.startUs || (a.request < b.request ? -1 : 1));
  return { sections, endUs };
}
