/**
 * What tells flash-sale designs apart when they all sell out: when the stock ran out, how
 * many requests arrived per second, the share turned away because the lock was busy, and
 * latency split by outcome (an order, a refusal, an error): orders/s over the whole run
 * hides that one design sells out in 20 s and another in 90 s, or answers "busy" in 2 ms
 * while orders wait 3 s.
 */
import type { RequestOutcome, SetupOp } from '../../history/operation.js';
import { ValueCounts } from '../whole-run-stores.js';
import type { Observer, Outcome, RequestFacts } from '../observer.js';

/** Outcomes by what the shopper saw: an order, a "no" (sold out, busy, refused by a guard), or an error. */
export const OUTCOME_GROUP: Record<RequestOutcome, 'ordered' | 'refused' | 'error'> = {
  ordered: 'ordered',
  'sold-out': 'refused',
  'lock-busy': 'refused',
  conflict: 'refused',
  fenced: 'refused',
  duplicate: 'refused',
  'already-ordered': 'refused',
  overloaded: 'refused',
  'lock-error': 'error',
  'db-error': 'error',
  unavailable: 'error',
  // A reader's answer is the stock it read: what it asked for, as an order is.
  read: 'ordered',
};

/**
 * Whether a request failed (an error outcome, or an unknown one) rather than got an answer,
 * "no" included: OUTCOME_GROUP as a switch (see latencyOf), for the observers that ask it of
 * every request.
 */
export function failed(outcome: RequestOutcome | 'unknown'): boolean {
  switch (outcome) {
    case 'ordered':
    case 'sold-out':
    case 'lock-busy':
    case 'conflict':
    case 'fenced':
    case 'duplicate':
    case 'already-ordered':
    case 'overloaded':
      return false;
    case 'lock-error':
    case 'db-error':
    case 'unavailable':
    case 'unknown':
      return true;
    default:
      return OUTCOME_GROUP[outcome] === 'error';
  }
}

export interface LatencySplit {
  count: number;
  p50Us: number;
  p99Us: number;
}

export interface FlashSaleMetrics {
  /** When the units ordered reached the initial stock (the last unit sold), from the start; -1: never. */
  soldOutUs: number;
  /** Requests that arrived, per second of the scenario's duration. */
  arrivalsPerS: number;
  /** Of the requests answered, the share turned away because the lock was held (lock-busy), 0..1, 4 decimals. */
  busyShare: number;
  latency: { ordered: LatencySplit; refused: LatencySplit; error: LatencySplit };
}

export class FlashSaleObserver implements Observer {
  readonly reads = [] as const;
  /** Units in stock at the start, over every SKU, and the scenario's duration. */
  private stockUnits = 0;
  private durationUs = 0;
  private arrivals = 0;
  private answered = 0;
  private busy = 0;
  // Counts per distinct latency (whole-run-stores.ts ValueCounts): a run's observer hears every
  // request of an hour-long run, and a list of them grew with the run (4 bytes a request:
  // 14 MB an hour at 1000 requests/s, and twice that while a list doubles).
  private readonly latencies = { ordered: new ValueCounts(), refused: new ValueCounts(), error: new ValueCounts() };
  /** Units ordered so far, and the answer time of the last order heard (orders come in answer order). */
  private unitsOrdered = 0;
  private lastOrderUs = -Infinity;
  private soldOutAtUs = -1;

  setup(op: SetupOp): void {
    this.stockUnits = stockUnitsOf(op);
    this.durationUs = op.durationUs;
  }

  requestEnded(r: RequestFacts, endUs: number | null, outcome: Outcome): void {
    this.answer(r.qty, r.invokeUs, endUs, outcome);
  }

  /** A request's end from its fields (answered ones in answer order, then the never-answered). */
  answer(qty: number, invokeUs: number, endUs: number | null, outcome: Outcome): void {
    this.arrivals++;
    if (outcome === 'unknown' || endUs === null) return;
    this.answered++;
    if (outcome === 'lock-busy') this.busy++;
    this.latencyOf(outcome).add(endUs - invokeUs);
    if (outcome === 'ordered') this.ordered(endUs, qty);
  }

  /**
   * The latencies of `outcome`'s group (OUTCOME_GROUP) as a switch: a keyed read with a
   * dozen different names goes megamorphic in V8 (measured in Node 20 on this project's
   * machine, a million lookups: about 100 ns each against a few for the switch).
   */
  private latencyOf(outcome: RequestOutcome): ValueCounts {
    const l = this.latencies;
    switch (outcome) {
      case 'ordered':
        return l.ordered;
      case 'sold-out':
      case 'lock-busy':
      case 'conflict':
      case 'fenced':
      case 'duplicate':
      case 'already-ordered':
      case 'overloaded':
        return l.refused;
      case 'lock-error':
      case 'db-error':
      case 'unavailable':
        return l.error;
      default:
        return l[OUTCOME_GROUP[outcome]];
    }
  }

  /**
   * The stock sold out at the answer of the order that took the last unit: with orders heard
   * in answer order a running sum finds it (equal answer times in any order give the same
   * time), with no list of orders.
   */
  private ordered(endUs: number, qty: number): void {
    if (endUs < this.lastOrderUs) throw new Error(`flash-sale: an order answered at ${endUs} us heard after one answered at ${this.lastOrderUs} us (consumers hear requests in answer order)`);
    this.lastOrderUs = endUs;
    this.unitsOrdered += qty;
    if (this.soldOutAtUs < 0 && this.stockUnits > 0 && this.unitsOrdered >= this.stockUnits) this.soldOutAtUs = endUs;
  }

  result(): FlashSaleMetrics {
    const seconds = this.durationUs / 1e6;
    const split = (xs: ValueCounts): LatencySplit => ({ count: xs.length, p50Us: xs.percentile(0.5), p99Us: xs.percentile(0.99) });
    return {
      soldOutUs: this.soldOutAtUs,
      arrivalsPerS: seconds > 0 ? Math.round((this.arrivals / seconds) * 100) / 100 : 0,
      busyShare: this.answered > 0 ? Math.round((this.busy / this.answered) * 10_000) / 10_000 : 0,
      latency: { ordered: split(this.latencies.ordered), refused: split(this.latencies.refused), error: split(this.latencies.error) },
    };
  }
}

/** Units in stock at the start, over every SKU. */
export function stockUnitsOf(op: SetupOp): number {
  let units = 0;
  for (const s of op.stock) units += s.available;
  return units;
}
