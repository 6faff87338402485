/** The metric names an `expect:` block may use, and how each is read off a run's metrics. */
import type { RunMetrics } from './check-history.js';
import { STALL_LIMIT_US } from './observers/liveness.js';
import { formatMicros } from '../engine/time.js';

export interface MetricDefinition {
  name: string;
  /** Times are measured in microseconds and written with units in files. */
  isTime: boolean;
  /**
   * Values with two decimals (rates). Sweeps sum metrics as integers, so that the order in
   * which runs finish cannot change a result: these are summed in hundredths.
   */
  fractional: boolean;
  description: string;
  read(m: RunMetrics): number;
}

const def = (name: string, description: string, read: (m: RunMetrics) => number, isTime = false, fractional = false): MetricDefinition => ({
  name, description, read, isTime, fractional,
});

export const METRICS: readonly MetricDefinition[] = [
  def('oversold', 'units ordered beyond the initial stock', (m) => m.oversold),
  def('sold', 'units ordered in total', (m) => m.unitsSold),
  def('orders', 'requests that ended with an order', (m) => m.orders),
  def('requests', 'requests that arrived', (m) => m.requests),
  def('negative-stock', 'lowest stock level below zero, as a positive number', (m) => m.negativeStock),
  def('lost-updates', 'read-modify-write updates computed from a stale read', (m) => m.lostUpdates),
  def('double-holders', 'episodes of two or more requests inside one critical section', (m) => m.doubleHolders),
  def('double-holder-time', 'total time with two or more holders', (m) => m.doubleHolderUs, true),
  def('first-double-holder-at', 'when the first double-holder episode began (-1 if none)', (m) => m.firstDoubleHolderUs, true),
  def('last-double-holder-at', 'when the last double-holder episode began (-1 if none)', (m) => m.lastDoubleHolderUs, true),
  def('max-holders', 'most requests inside one critical section at once', (m) => m.maxHolders),
  def('permits-exceeded', 'semaphores of two or more permits: episodes of more requests inside one critical section than it has permits (a one-permit semaphore counts double-holders)', (m) => m.permitsExceeded ?? 0),
  def('permits-exceeded-time', 'total time with more holders than permits', (m) => m.permitsExceededUs ?? 0, true),
  def('read-write-overlaps', 'read-write locks: episodes of a writer inside a critical section together with a reader (two writers count as double-holders)', (m) => m.readWriteOverlaps ?? 0),
  def('read-write-overlap-time', 'total time with a writer and a reader inside at once', (m) => m.readWriteOverlapUs ?? 0, true),
  def('reads', 'requests of mode read that read the stock under a read lock', (m) => m.outcomes.read ?? 0),
  def('lock-lost', 'critical sections during which the lock stopped being theirs', (m) => m.lockLost),
  def('foreign-unlocks', "unlocks that deleted another holder's lock", (m) => m.foreignUnlocks),
  def('stuck-time', 'time a lock was held by someone who could never release it, summed over lock keys, up to the end of the drain', (m) => m.stuckLockUs, true),
  def('orphan-time', 'time a lock was held on the server while none of its owner\'s requests worked under it, summed over lock keys, up to the end of the drain', (m) => m.orphanLockUs, true),
  def('permits-leaked', 'semaphore permits taken and never given back nor expired, by holders no longer working under them (a crashed holder, a failed release)', (m) => m.permitsLeaked ?? 0),
  def('leaked-permit-time', 'time from each leaked permit\'s holder leaving it to the end of the drain, summed over permits', (m) => m.leakedPermitUs ?? 0, true),
  def('permits-expired', 'semaphore permits whose holder left them that came back only when their lease ran out', (m) => m.permitsExpired ?? 0),
  def('fifo-overtakes', 'fair locks: grants given while a waiter that arrived earlier (by more than 10 ms) still waited on the same key', (m) => m.fifoOvertakes ?? 0),
  def('starved-waiters', 'fair locks: waiters that never got the lock although, while they waited, it went to a later arrival or sat free for 1 s or more', (m) => m.starvedWaiters ?? 0),
  def('starved-wait-time', 'fair locks: the starved waiters\' waits, from arrival to their answer or the end of the run, summed', (m) => m.starvedWaitUs ?? 0, true),
  def('partial-holds', 'multi-locks (redisson-multi) holding some, not all, of their locks during their acquire: episodes (every acquisition of two or more locks has one, one round trip long when nobody is in the way)', (m) => m.partialHolds ?? 0),
  def('partial-hold-time', 'time multi-locks held some, not all, of their locks during their acquire, summed', (m) => m.partialHoldUs ?? 0, true),
  def('partial-holds-given-back', 'partial holds that ended without the lock, giving back what they held (a lock not taken, the wait spent)', (m) => m.partialHoldsGivenBack ?? 0),
  def('given-back-hold-time', 'time of the partial holds given back, summed: locks held for nothing', (m) => m.givenBackHoldUs ?? 0, true),
  def('max-locks-held-while-waiting', 'most locks one multi-lock held while it waited for the rest', (m) => m.maxLocksHeldWhileWaiting ?? 0),
  def('timeouts', 'lock commands whose outcome is unknown (timed out, or a lock kept after a failed acquire)', (m) => m.timeouts),
  def('lock-busy', 'requests turned away because the lock was held', (m) => m.outcomes['lock-busy']),
  def('lock-errors', 'requests that failed on a lock error or timeout', (m) => m.outcomes['lock-error']),
  def('sold-out', 'requests told the item is sold out', (m) => m.outcomes['sold-out']),
  def('duplicate-orders', 'orders committed again under an order key already ordered', (m) => m.duplicateOrders),
  def('duplicates-refused', 'requests whose order insert hit the unique order key', (m) => m.outcomes.duplicate),
  def('already-ordered', 'requests the idempotency check (check-order) found already placed', (m) => m.outcomes['already-ordered']),
  def('cas-conflicts', 'optimistic CAS writes that found another version', (m) => m.casConflicts),
  def('conflicts', 'requests that gave up after their CAS retries ("system busy")', (m) => m.outcomes.conflict),
  def('fence-rejections', 'reads and writes refused for a stale fencing token', (m) => m.fenceRejections),
  def('stale-tokens', 'fencing tokens handed out that were not higher than an earlier one', (m) => m.staleTokens),
  def('overloaded', 'requests turned away because every worker was busy and the queue full', (m) => m.outcomes.overloaded),
  def('unknown', 'requests that never finished (lost with a crashed client, or still waiting at the end)', (m) => m.outcomes.unknown),
  def('renewal-failures', 'watchdog renewals that failed or found the lock gone', (m) => m.renewalFailures),
  def('throughput', 'orders per second of scenario duration', (m) => m.throughputPerS, false, true),
  def('request-rate', 'requests answered (any outcome) per second of scenario duration', (m) => m.requestsPerS, false, true),
  def('p50', 'median latency of every answered request, whatever its outcome', (m) => m.latencyP50Us, true),
  def('p99', '99th percentile latency of every answered request, whatever its outcome', (m) => m.latencyP99Us, true),
  def('lost-units', 'units other requests had deducted that lost updates wrote over (a write computed from b while the row held a < b erases b - a)', (m) => m.lostUnits),
  def('sold-out-at', 'when the units ordered reached the initial stock (-1 if they never did)', (m) => m.flashSale.soldOutUs, true),
  def('arrival-rate', 'requests that arrived per second of scenario duration', (m) => m.flashSale.arrivalsPerS, false, true),
  def('busy-share', 'share of answered requests turned away because the lock was held (0 to 1)', (m) => m.flashSale.busyShare, false, true),
  def('p99-ordered', '99th percentile latency of requests that ended with an order', (m) => m.flashSale.latency.ordered.p99Us, true),
  def('p99-refused', '99th percentile latency of requests refused (sold out, lock busy, conflict, fenced, duplicate, overloaded)', (m) => m.flashSale.latency.refused.p99Us, true),
  def('p99-error', '99th percentile latency of requests that failed on a lock or database error, or an unavailable client', (m) => m.flashSale.latency.error.p99Us, true),
  def('live', '1 when the run kept working once the faults were over (liveness LIVE), else 0', (m) => (m.liveness.verdict === 'LIVE' ? 1 : 0)),
  def('stalled', `1 when no order came for ${formatMicros(STALL_LIMIT_US)} or more after the last fault while stock and demand remained, or none in the whole run (liveness STALLED), else 0`, (m) => (m.liveness.verdict === 'STALLED' ? 1 : 0)),
  def('unavailable', '1 when more than half of the judged requests failed, got no answer or were refused "lock busy" while nobody held the lock (liveness UNAVAILABLE), else 0', (m) => (m.liveness.verdict === 'UNAVAILABLE' ? 1 : 0)),
  def('failed-share', 'share of the judged requests (those after the last fault, or all) that failed, got no answer or were refused "lock busy" while nobody held the lock (0 to 1)', (m) => m.liveness.failedShare, false, true),
  def('busy-while-free', 'judged requests refused "lock busy" while no critical section of their key was open (fewer than a semaphore\'s permits): the lock failing, not contention', (m) => m.liveness.busyWhileFree),
  def('longest-stall', 'longest stretch after the last fault without an order while stock and demand remained', (m) => m.liveness.longestStallUs, true),
];

/** The metrics that speak of liveness: an expectation on one of them is the scenario expecting a variant's liveness (check judges it then, not by its own rule). */
export const LIVENESS_METRICS: ReadonlySet<string> = new Set(['live', 'stalled', 'unavailable', 'failed-share', 'busy-while-free', 'longest-stall']);

export const METRIC_NAMES = METRICS.map((m) => m.name);

/** A measured value for people: times with their unit, counts as they are. */
export function formatMetric(name: string, value: number): string {
  return metricByName.get(name)?.isTime ? formatMicros(value) : String(value);
}
export const metricByName = new Map(METRICS.map((m) => [m.name, m]));
