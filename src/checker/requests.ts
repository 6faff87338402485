/** Request counts, outcomes, throughput and latency percentiles. */
import type { RequestOutcome } from '../history/operation.js';
import type { HistoryIndex } from './history-index.js';

export interface RequestStats {
  requests: number;
  orders: number;
  outcomes: Record<RequestOutcome | 'unknown', number>;
  /** Client operations whose outcome is unknown (timeouts: they may have happened). */
  timeouts: number;
  throughputPerS: number;
  /** Requests answered (any outcome) per second: the QPS a load test reports. */
  requestsPerS: number;
  latencyP50Us: number;
  latencyP99Us: number;
}

export function requestStats(index: HistoryIndex): RequestStats {
  const outcomes: RequestStats['outcomes'] = {
    ordered: 0, 'sold-out': 0, 'lock-busy': 0, 'lock-error': 0, conflict: 0, fenced: 0, duplicate: 0, 'already-ordered': 0, 'db-error': 0,
    overloaded: 0, unavailable: 0, unknown: 0,
  };
  const latencies: number[] = [];
  for (const r of index.requests.values()) {
    if (r.end === null || r.end.type === 'info' || r.end.outcome === undefined) {
      outcomes.unknown++;
      continue;
    }
    outcomes[r.end.outcome]++;
    latencies.push(r.end.timeUs - r.invokeUs);
  }
  latencies.sort((a, b) => a - b);
  const seconds = index.durationUs / 1e6;
  return {
    requests: index.requests.size,
    orders: outcomes.ordered,
    outcomes,
    timeouts: index.timeouts,
    throughputPerS: seconds > 0 ? round2(outcomes.ordered / seconds) : 0,
    requestsPerS: seconds > 0 ? round2(latencies.length / seconds) : 0,
    latencyP50Us: percentile(latencies, 0.5),
    latencyP99Us: percentile(latencies, 0.99),
  };
}

/** Nearest-rank percentile of sorted values (0 when empty). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1];
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
