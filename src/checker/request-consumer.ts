/**
 * Per-request checks as consumers: each hears every request once, when it has finished (or
 * at the end of the run, for one that never did), and keeps only what it needs. They hear
 * answered requests in answer order (history order), then the ones never answered. They read
 * nothing but the request's own record, so a streaming checker can feed them as requests
 * end and a whole-history checker can feed them from its index (fromIndex).
 */
import type { RequestOp, RequestOutcome } from '../history/operation.js';
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

/** Feeds every request of an indexed history to a consumer as a streaming run does: answered ones in history order, then the others in order of arrival. */
export function consumeIndex<T>(index: HistoryIndex, consumer: RequestConsumer<T>): T {
  const answered: Array<{ r: FinishedRequest; end: RequestOp }> = [];
  const unanswered: FinishedRequest[] = [];
  for (const r of index.requests.values()) {
    const end = r.end;
    if (end !== null) answered.push({ r: finished(r.sku, r.qty, r.invokeUs, end), end });
    else unanswered.push({ sku: r.sku, qty: r.qty, invokeUs: r.invokeUs, endUs: null, outcome: 'unknown' });
  }
  answered.sort((a, b) => a.end.timeUs - b.end.timeUs || a.end.index - b.end.index);
  for (const { r } of answered) consumer.add(r);
  for (const r of unanswered) consumer.add(r);
  return consumer.result();
}

/** A request's end as the consumers hear it: an answer, or an unknown outcome (a timeout, an end with no outcome). */
export function finished(sku: number, qty: number, invokeUs: number, end: RequestOp): FinishedRequest {
  const answered = end.type !== 'info' && end.outcome !== undefined;
  return { sku, qty, invokeUs, endUs: answered ? end.timeUs : null, outcome: answered ? (end.outcome as RequestOutcome) : 'unknown' };
}
