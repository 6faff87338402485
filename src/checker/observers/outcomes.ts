/**
 * Requests and their outcomes: how many arrived and how each ended, orders, throughput, the
 * QPS a load test reports, latency percentiles over every answered request (exact: counts
 * per distinct latency, whole-run-stores.ts ValueCounts), lock commands whose outcome is unknown, and
 * watchdog renewals. No invariant: the figures every report shows beside the verdicts.
 */
import type { Operation, RequestOutcome, SetupOp } from '../../history/operation.js';
import { ValueCounts } from '../whole-run-stores.js';
import type { Observer, Outcome, RequestFacts } from '../observer.js';

/** `read` only where readers ran (a read-write lock's workload), so other runs' figures read as before. */
type OutcomeCounts = Record<Exclude<RequestOutcome, 'read'> | 'unknown', number> & { read?: number };

/** The request figures of RunMetrics (check-history.ts). */
export interface OutcomeFigures {
  requests: number;
  orders: number;
  outcomes: OutcomeCounts;
  /** Acquires and releases whose outcome is unknown (info: they may have happened). */
  timeouts: number;
  renewals: number;
  renewalFailures: number;
  throughputPerS: number;
  /** Requests answered (any outcome) per second: the QPS a load test reports. */
  requestsPerS: number;
  /** Over every answered request, whatever its outcome (flash-sale.ts splits them by outcome). */
  latencyP50Us: number;
  latencyP99Us: number;
}

const emptyOutcomes = (): OutcomeCounts => ({
  ordered: 0, 'sold-out': 0, 'lock-busy': 0, 'lock-error': 0, conflict: 0, fenced: 0, duplicate: 0, 'already-ordered': 0, 'db-error': 0,
  overloaded: 0, unavailable: 0, unknown: 0,
});

export class OutcomesObserver implements Observer {
  readonly reads = ['renew'] as const;
  /** Acquires and releases whose outcome is unknown are among the failed ones. */
  readonly readsFailed = ['acquire', 'release'] as const;
  private durationUs = 0;
  private requests = 0;
  private readonly outcomes = emptyOutcomes();
  private readonly latencies = new ValueCounts();
  private timeouts = 0;
  private renewals = 0;
  private renewalFailures = 0;

  setup(op: SetupOp): void {
    this.durationUs = op.durationUs;
  }

  observe(op: Operation): void {
    if (op.f === 'renew') {
      if (op.type === 'ok') this.renewals++;
      else this.renewalFailures++;
    } else if (op.type === 'info') this.timeouts++;
  }

  requestInvoked(): void {
    this.requests++;
  }

  requestEnded(r: RequestFacts, endUs: number | null, outcome: Outcome): void {
    if (endUs === null || outcome === 'unknown') {
      this.outcomes.unknown++;
      return;
    }
    countOutcome(this.outcomes, outcome);
    this.latencies.add(endUs - r.invokeUs);
  }

  result(): OutcomeFigures {
    const seconds = this.durationUs / 1e6;
    const { latencies, outcomes } = this;
    return {
      requests: this.requests,
      orders: outcomes.ordered,
      outcomes,
      timeouts: this.timeouts,
      renewals: this.renewals,
      renewalFailures: this.renewalFailures,
      throughputPerS: seconds > 0 ? round2(outcomes.ordered / seconds) : 0,
      requestsPerS: seconds > 0 ? round2(latencies.length / seconds) : 0,
      latencyP50Us: latencies.percentile(0.5),
      latencyP99Us: latencies.percentile(0.99),
    };
  }
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Nearest-rank percentile of sorted values (0 when empty). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1];
}

/**
 * `outcomes[outcome]++` as a switch: a keyed increment with a dozen different names goes
 * megamorphic in V8 (measured in Node 20 on this project's machine, a million increments:
 * about 100 ns each against a few for the switch).
 */
function countOutcome(c: OutcomeCounts, outcome: RequestOutcome): void {
  switch (outcome) {
    case 'ordered':
      c.ordered++;
      return;
    case 'sold-out':
      c['sold-out']++;
      return;
    case 'lock-busy':
      c['lock-busy']++;
      return;
    case 'lock-error':
      c['lock-error']++;
      return;
    case 'conflict':
      c.conflict++;
      return;
    case 'fenced':
      c.fenced++;
      return;
    case 'duplicate':
      c.duplicate++;
      return;
    case 'already-ordered':
      c['already-ordered']++;
      return;
    case 'db-error':
      c['db-error']++;
      return;
    case 'overloaded':
      c.overloaded++;
      return;
    case 'unavailable':
      c.unavailable++;
      return;
    case 'read':
      c.read = (c.read ?? 0) + 1;
      return;
    default:
      // A name the workload never records (a hand-written history): counted under its name.
      c[outcome as keyof OutcomeCounts]++;
  }
}
