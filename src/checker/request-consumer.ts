/**
 * Per-request checks as consumers: each hears every request once, when it has finished (or
 * at the end of the run, for one that never did), and keeps only what it needs. They read
 * nothing but the request's own record, so a streaming checker can feed them as requests
 * end and a whole-history checker can feed them from its index (fromIndex).
 */
import type { RequestOutcome } from '../history/operation.js';
import type { HistoryIndex } from './history-index.js';

export interface FinishedRequest {
  sku: number;
  qty: number;
  invokeUs: number;
  /** When it was answered; null if it never was (its outcome is unknown). */
  endUs: number | null;
  outcome: RequestOutcome | 'unknown';
}

export interface RequestConsumer<T> {
  add(request: FinishedRequest): void;
  result(): T;
}

/** What a consumer needs to know of the run before the first request. */
export interface RunFacts {
  /** Units in stock at the start, over every SKU. */
  stockUnits: number;
  durationUs: number;
}

export function runFactsOf(index: HistoryIndex): RunFacts {
  let stockUnits = 0;
  for (const n of index.stock.values()) stockUnits += n;
  return { stockUnits, durationUs: index.durationUs };
}

/** Feeds every request of an indexed history to a consumer, in order of arrival. */
export function consumeIndex<T>(index: HistoryIndex, consumer: RequestConsumer<T>): T {
  for (const r of index.requests.values()) {
    const answered = r.end !== null && r.end.type !== 'info' && r.end.outcome !== undefined;
    consumer.add({
      sku: r.sku,
      qty: r.qty,
      invokeUs: r.invokeUs,
      endUs: answered ? (r.end as NonNullable<typeof r.end>).timeUs : null,
      outcome: answered ? ((r.end as NonNullable<typeof r.end>).outcome as RequestOutcome) : 'unknown',
    });
  }
  return consumer.result();
}
