/**
 * What tells flash-sale designs apart when they all sell out: when the stock ran out, how
 * many requests arrived per second, the share turned away because the lock was busy, and
 * latency split by outcome (an order, a refusal, an error): orders/s over the whole run
 * hides that one design sells out in 20 s and another in 90 s, or answers "busy" in 2 ms
 * while orders wait 3 s.
 */
import type { RequestOutcome } from '../history/operation.js';
import { percentile } from './requests.js';
import type { FinishedRequest, RequestConsumer, RunFacts } from './request-consumer.js';

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
};

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

export class FlashSaleConsumer implements RequestConsumer<FlashSaleMetrics> {
  private arrivals = 0;
  private answered = 0;
  private busy = 0;
  private readonly latencies = { ordered: [] as number[], refused: [] as number[], error: [] as number[] };
  /** Orders by when they were answered, to find the one that took the last unit. */
  private readonly orders: Array<{ endUs: number; qty: number }> = [];

  constructor(private readonly facts: RunFacts) {}

  add(r: FinishedRequest): void {
    this.arrivals++;
    if (r.outcome === 'unknown' || r.endUs === null) return;
    this.answered++;
    if (r.outcome === 'lock-busy') this.busy++;
    this.latencies[OUTCOME_GROUP[r.outcome]].push(r.endUs - r.invokeUs);
    if (r.outcome === 'ordered') this.orders.push({ endUs: r.endUs, qty: r.qty });
  }

  result(): FlashSaleMetrics {
    const seconds = this.facts.durationUs / 1e6;
    const split = (xs: number[]): LatencySplit => {
      const sorted = [...xs].sort((a, b) => a - b);
      return { count: sorted.length, p50Us: percentile(sorted, 0.5), p99Us: percentile(sorted, 0.99) };
    };
    return {
      soldOutUs: this.soldOutUs(),
      arrivalsPerS: seconds > 0 ? Math.round((this.arrivals / seconds) * 100) / 100 : 0,
      busyShare: this.answered > 0 ? Math.round((this.busy / this.answered) * 10_000) / 10_000 : 0,
      latency: { ordered: split(this.latencies.ordered), refused: split(this.latencies.refused), error: split(this.latencies.error) },
    };
  }

  private soldOutUs(): number {
    if (this.facts.stockUnits <= 0) return -1;
    const byTime = [...this.orders].sort((a, b) => a.endUs - b.endUs);
    let units = 0;
    for (const o of byTime) {
      units += o.qty;
      if (units >= this.facts.stockUnits) return o.endUs;
    }
    return -1;
  }
}
