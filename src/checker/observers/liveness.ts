/**
 * Liveness, judged apart from safety (TigerBeetle's VOPR runs a safety phase, then heals
 * every fault and requires the cluster to make progress: "liveness mode", docs/internals/
 * vopr.md in tigerbeetle/tigerbeetle). The safety verdicts cannot see a system that stopped
 * working: a lock that refuses every request, times out on every command or leaves every
 * request unknown sells nothing, and selling nothing is the safest outcome there is. So
 * once the faults are over the system must serve its shoppers and sell:
 *
 * - UNAVAILABLE: more than FAILED_SHARE_LIMIT of the judged requests failed for a reason
 *   other than a "no" (an error outcome: a lock or database error, a client that was down;
 *   or an unknown one: lost, or still running at the end). A busy lock, a sold-out item, a
 *   conflict, a fence, a duplicate or a full queue is an answer, not a failure; but a "lock
 *   busy" given when nobody held the lock (no critical section of its key open, or fewer
 *   than a semaphore's permits) is the lock failing, not the shop saying no: contenders'
 *   leftover keys blocking one another (node-redlock 5's attempts that keep their keys), a
 *   key nobody works under. Those count with the failures. The judged
 *   requests are those that arrived after the last fault (the quiet period), or all of them
 *   when fewer than MIN_JUDGED_REQUESTS arrived then (faults until the end: no quiet period
 *   to judge alone).
 * - STALLED: in the quiet period, STALL_LIMIT_US or longer without an order answered while
 *   stock remained and requests were waiting or arriving (a stretch begins when a request
 *   arrives, or is still waiting, after the last order, and ends at the next order's answer
 *   or at the end of arrivals); or no order in the whole run although stock was there.
 * - LIVE otherwise, and whenever fewer than MIN_JUDGED_REQUESTS requests arrived in the whole
 *   run (too few to tell an outage from bad luck).
 *
 * The quiet period runs from the last fault record (a fault's start, end or event: a
 * failover, a restart) to the end of arrivals (the scenario's duration; the drain adds no
 * arrivals). Stretches are measured by answer times of orders, clipped to that end.
 */
import { formatMicros } from '../../engine/time.js';
import type { Operation, SetupOp } from '../../history/operation.js';
import type { Observer, Outcome, RequestFacts } from '../observer.js';
import type { BusyWhileFreeObserver } from './busy-while-free.js';
import type { DiagnosticsObserver } from './diagnostics.js';
import { failed as failure, stockUnitsOf } from './flash-sale.js';

export type LivenessVerdict = 'LIVE' | 'STALLED' | 'UNAVAILABLE';

/**
 * More than half of the judged requests failed: most shoppers got an error or no answer.
 * The casebook's live variants stay far below it (docs/reference/metrics.md gives the
 * figures); a variant that fails every request is far above it.
 */
const FAILED_SHARE_LIMIT = 0.5;
/** Requests a share of failures or the absence of orders is judged on, at least. */
export const MIN_JUDGED_REQUESTS = 20;
/** An order at least every 30 s of simulated time once the faults are over (docs/reference/metrics.md gives the casebook's longest gaps). */
export const STALL_LIMIT_US = 30_000_000;

export interface LivenessFigures {
  verdict: LivenessVerdict;
  /** Why, in one line (null when LIVE). */
  cause: string | null;
  /** The last fault record (0: no fault): the quiet period starts here. */
  quietFromUs: number;
  /** Where the judged requests arrived from: quietFromUs, or 0 (the whole run) when too few arrived after it. */
  judgedFromUs: number;
  judgedRequests: number;
  /** Of the judged requests, those that failed (error outcome), whose outcome is unknown, or that were refused "lock busy" while nobody held the lock. */
  failedRequests: number;
  /** Of those, the ones refused "lock busy" while no critical section of their key was open (fewer than a semaphore's permits). */
  busyWhileFree: number;
  /** failedRequests / judgedRequests, 0 to 1, 4 decimals. */
  failedShare: number;
  /** The longest stretch of the quiet period without an order answered while stock remained and requests waited or arrived (0: none). */
  longestStallUs: number;
  /** When it began (-1: none). */
  longestStallFromUs: number;
}

export class LivenessObserver implements Observer {
  readonly reads = ['fault'] as const;
  private stockUnits = 0;
  private durationUs = 0;
  private unitsOrdered = 0;
  private requests = 0;
  private failed = 0;
  private orders = 0;
  /** Requests arrived and not ended yet. */
  private inFlight = 0;
  /** The quiet period so far: from the last fault record. */
  private quietFromUs = 0;
  private quietRequests = 0;
  private quietFailed = 0;
  /**
   * The current stretch without an order: since when a request has been waiting or arriving
   * with no order answered (-1: none since the last order or fault).
   */
  private demandFromUs = -1;
  private longestUs = 0;
  private longestFromUs = -1;

  /** `busyWhileFree`: the "lock busy" answers no holder explains, counted with the failures. */
  constructor(
    private readonly diagnostics: DiagnosticsObserver,
    private readonly busyWhileFree: BusyWhileFreeObserver,
  ) {}

  setup(op: SetupOp): void {
    this.stockUnits = stockUnitsOf(op);
    this.durationUs = op.durationUs;
  }

  observe(op: Operation): void {
    if (op.f !== 'fault') return;
    // A fault record: the quiet period starts over; what came before is not judged in it.
    this.quietFromUs = op.timeUs;
    this.quietRequests = 0;
    this.quietFailed = 0;
    this.longestUs = 0;
    this.longestFromUs = -1;
    this.demandFromUs = this.inFlight > 0 ? op.timeUs : -1;
  }

  requestInvoked(r: RequestFacts): void {
    this.requests++;
    this.quietRequests++;
    this.inFlight++;
    if (this.demandFromUs < 0) this.demandFromUs = r.invokeUs;
  }

  requestEnded(r: RequestFacts, endUs: number | null, outcome: Outcome): void {
    // r.endUs: the end heard (-1 for one still running at the run's end, which ends after every other).
    if (r.endUs >= 0) this.inFlight--;
    if (endUs === null || failure(outcome)) {
      this.failed++;
      if (r.invokeUs >= this.quietFromUs) this.quietFailed++;
    }
    if (outcome !== 'ordered' || endUs === null) return;
    this.orders++;
    this.stretch(Math.min(endUs, this.durationUs));
    this.unitsOrdered += r.qty;
    // Requests still waiting are demand from now on; else the next arrival is.
    this.demandFromUs = this.inFlight > 0 ? endUs : -1;
  }

  /** The stretch without an order from the start of the current demand to `toUs`, when stock remained. */
  private stretch(toUs: number): void {
    const length = this.stretchTo(toUs);
    if (length > this.longestUs) {
      this.longestUs = length;
      this.longestFromUs = this.demandFromUs;
    }
  }

  private stretchTo(toUs: number): number {
    if (this.unitsOrdered >= this.stockUnits || this.demandFromUs < 0) return 0;
    return Math.max(0, toUs - this.demandFromUs);
  }

  result(): LivenessFigures {
    // The last stretch runs to the end of arrivals.
    this.stretch(this.durationUs);
    const quiet = this.quietRequests >= MIN_JUDGED_REQUESTS;
    const judgedRequests = quiet ? this.quietRequests : this.requests;
    const busyWhileFree = this.busyWhileFree.count(quiet ? this.quietFromUs : 0);
    const failedRequests = (quiet ? this.quietFailed : this.failed) + busyWhileFree;
    const failedShare = judgedRequests > 0 ? Math.round((failedRequests / judgedRequests) * 10_000) / 10_000 : 0;
    const figures: LivenessFigures = {
      verdict: 'LIVE',
      cause: null,
      quietFromUs: this.quietFromUs,
      judgedFromUs: quiet ? this.quietFromUs : 0,
      judgedRequests,
      failedRequests,
      busyWhileFree,
      failedShare,
      longestStallUs: this.longestUs,
      longestStallFromUs: this.longestFromUs,
    };
    // Too few requests to tell an outage from bad luck: not judged.
    if (this.requests < MIN_JUDGED_REQUESTS) return figures;
    const since = quiet ? (this.quietFromUs > 0 ? `after the last fault (${formatMicros(this.quietFromUs)})` : 'in the run (no fault)') : 'in the whole run';
    if (failedRequests / judgedRequests > FAILED_SHARE_LIMIT) {
      figures.verdict = 'UNAVAILABLE';
      const how = busyWhileFree === 0 ? 'failed or got no answer' : `failed, got no answer or were refused "lock busy" while nobody held the lock (${busyWhileFree} of them)`;
      figures.cause = `${percent(failedShare)} of the ${judgedRequests} requests ${since} ${how}${busyWhileFree * 2 > failedRequests ? '' : this.mostFrequent()}`;
    } else if (this.orders === 0 && this.stockUnits > 0) {
      figures.verdict = 'STALLED';
      figures.cause = `no order in the whole run: ${this.requests} requests, ${this.stockUnits} units in stock${this.mostFrequent()}`;
    } else if (this.longestUs >= STALL_LIMIT_US) {
      figures.verdict = 'STALLED';
      const to = this.longestFromUs + this.longestUs;
      figures.cause = `no order answered from ${formatMicros(this.longestFromUs)} to ${formatMicros(to)} (${formatMicros(this.longestUs)}) ${this.quietFromUs > 0 ? `after the last fault (${formatMicros(this.quietFromUs)})` : 'with no fault'}, while stock remained and requests were waiting or arriving`;
    }
    return figures;
  }

  /** The most frequent first error text of the failed requests, and how many it hit. */
  private mostFrequent(): string {
    const top = this.diagnostics.result().requests[0];
    if (top === undefined) return '';
    return `; most often (${top.count} of ${this.requests}, ${top.outcome}): ${top.text}`;
  }
}

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;
