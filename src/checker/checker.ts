/**
 * The checker: one observer per invariant (observers/), composed over the request ledger
 * (ledger.ts), their figures and first violations merged into one result. It reads the
 * history only, never the simulator, so a bug in the model cannot hide a bug in the verdict.
 * A run hands it each operation as the recorder stamps it; a recorded history is replayed
 * through it (check-history.ts checkHistory). Memory is bounded by what is still open (requests in
 * flight, critical sections, lock work, current holders, unjudged segments, open
 * transactions) plus counts per distinct latency and a bit per request number.
 *
 * A checker whose ledger dropped a request's facts that the history later names withholds its
 * verdict (finish() returns null) and names the requests a re-run must keep (rerunKeeping);
 * checkerAttempts() is the order in which a run's checkers are tried.
 */
import type { Operation, SetupOp } from '../history/operation.js';
import { CheckerArena } from './arena.js';
import type { CheckResult } from './check-history.js';
import { DEFAULT_GRACE_US, Forgotten, RequestLedger } from './ledger.js';
import type { Observer } from './observer.js';
import { BusyWhileFreeObserver } from './observers/busy-while-free.js';
import { DiagnosticsObserver } from './observers/diagnostics.js';
import { FairnessObserver } from './observers/fairness.js';
import { FencingObserver } from './observers/fencing.js';
import { FlashSaleObserver } from './observers/flash-sale.js';
import { HoldersObserver } from './observers/holders.js';
import { LivenessObserver } from './observers/liveness.js';
import { OutcomesObserver } from './observers/outcomes.js';
import { OwnershipObserver } from './observers/ownership.js';
import { PartialHoldsObserver } from './observers/partial-holds.js';
import { PermitsObserver } from './observers/permits.js';
import { ReadWriteObserver } from './observers/read-write.js';
import { StockObserver } from './observers/stock.js';
import type { Violation } from './violations.js';

export interface CheckerOptions {
  /** How long a finished request's facts are kept after it ended (simulated microseconds; Infinity: for ever). */
  graceUs?: number;
  /** Requests whose facts are never dropped (a re-run's rerunKeeping). */
  keep?: ReadonlySet<string>;
  /** Where the checker takes its reusable objects from and gives them back to (arena.ts). */
  arena?: CheckerArena;
}

/** The kinds of operation the ledger or an observer reads; the others pass by. */
type Kind = Operation['f'];

export class Checker {
  private readonly ledger: RequestLedger;
  private readonly outcomes = new OutcomesObserver();
  private readonly holders = new HoldersObserver();
  private readonly ownership = new OwnershipObserver();
  private readonly permits = new PermitsObserver();
  private readonly fairness = new FairnessObserver();
  private readonly partialHolds = new PartialHoldsObserver();
  private readonly readWrite = new ReadWriteObserver();
  private readonly stock = new StockObserver();
  private readonly fencing = new FencingObserver();
  private readonly flashSale = new FlashSaleObserver();
  private readonly diagnostics = new DiagnosticsObserver();
  private readonly busyWhileFree = new BusyWhileFreeObserver();
  private readonly liveness = new LivenessObserver(this.diagnostics, this.busyWhileFree);
  /** Every observer, in the order they hear an operation (none depends on another's order). */
  private readonly observers: readonly Observer[];
  // The observers of each kind of operation read raw (a switch picks the list: a keyed
  // lookup with a dozen names goes megamorphic).
  private onAcquire: Observer[] = [];
  private onRelease: Observer[] = [];
  private onFailedAcquire: Observer[] = [];
  private onFailedRelease: Observer[] = [];
  private onFailedStock: Observer[] = [];
  private onFault: Observer[] = [];
  private onKeyState: Observer[] = [];
  private onRenew: Observer[] = [];
  private onStock: Observer[] = [];
  private onDiagnostic: Observer[] = [];
  private readonly keep: ReadonlySet<string>;
  private setupSeen = false;
  private endUs = 0;
  /** Set when keeping more requests' facts would not help (the search for them failed). */
  private hopeless = false;
  /** Set once it gave up or gave its verdict: it hears nothing more. */
  private stopped = false;
  private finished: { verdict: CheckResult | null } | null = null;

  constructor(options: CheckerOptions = {}) {
    this.keep = options.keep ?? new Set();
    this.observers = [this.outcomes, this.holders, this.ownership, this.stock, this.fencing, this.flashSale, this.diagnostics, this.busyWhileFree, this.liveness, this.permits, this.fairness, this.partialHolds, this.readWrite];
    this.ledger = new RequestLedger(this.observers, options.arena ?? new CheckerArena(), options.graceUs ?? DEFAULT_GRACE_US, this.keep);
  }

  /** Hands each kind of operation to the observers that read it, of `observers` (the ones the run concerns). */
  private route(observers: readonly Observer[]): void {
    const reading = (kind: Kind): Observer[] => observers.filter((o) => o.reads.includes(kind));
    const readingFailed = (kinds: Kind[]): Observer[] => observers.filter((o) => kinds.some((k) => o.reads.includes(k) || (o.readsFailed?.includes(k) ?? false)));
    this.onAcquire = reading('acquire');
    this.onRelease = reading('release');
    this.onFailedAcquire = readingFailed(['acquire']);
    this.onFailedRelease = readingFailed(['release']);
    this.onFailedStock = readingFailed(['read-stock', 'write-stock', 'order', 'txn']);
    this.onFault = reading('fault');
    this.onKeyState = reading('key-state');
    this.onRenew = reading('renew');
    // The database kinds share one list: an observer that reads one of them hears all four.
    this.onStock = observers.filter((o) => o.reads.includes('read-stock') || o.reads.includes('write-stock') || o.reads.includes('order') || o.reads.includes('txn'));
    // (An observer reading only the failed ones of the four hears the failed ones of all four.)
    this.onDiagnostic = reading('diagnostic');
  }

  /** Requests whose facts are held now (in flight, holding a lock, or finished within the grace). */
  get heldRequests(): number {
    return this.ledger.held;
  }

  /** Why the checker could not judge the run exactly (then finish() returns null). */
  get incompleteBecause(): string | null {
    return this.ledger.incomplete;
  }

  /**
   * After a decline, the requests a re-run must keep (CheckerOptions.keep) to judge the same
   * history alone: the ones it was given and the ones the history named after their facts were
   * dropped; null when it judged the run, or when keeping requests would not help.
   */
  get rerunKeeping(): ReadonlySet<string> | null {
    if (this.hopeless || this.ledger.incomplete === null) return null;
    return new Set([...this.keep, ...this.ledger.namedAgain]);
  }

  /** Takes the next operation of the history (history order, which is time order). */
  observe(op: Operation): void {
    if (this.stopped) return;
    try {
      this.take(op);
    } catch (err) {
      this.giveUp(err);
    }
  }

  private giveUp(err: unknown): void {
    // Once the verdict is withheld the checker goes on only to find the requests a re-run must
    // keep, on state that may be wrong: anything it trips over then ends that search too.
    if (!(err instanceof Forgotten) && this.ledger.incomplete === null) throw err;
    this.ledger.incomplete ??= err instanceof Error ? err.message : String(err);
    this.hopeless = true;
    this.stopped = true;
  }

  private take(op: Operation): void {
    const t = op.timeUs;
    this.ledger.advance(t);
    if (t > this.endUs) this.endUs = t;
    if (!this.setupSeen) return this.setup(op);
    // One loop per kind, each its own call site: each sees the few observers of its kind
    // (a polymorphic call), where one shared loop would see them all (a megamorphic one).
    switch (op.f) {
      case 'request':
        return this.ledger.request(op);
      case 'acquire': {
        this.ledger.acquire(op);
        const os = op.type === 'fail' || op.type === 'info' ? this.onFailedAcquire : this.onAcquire;
        for (let i = 0; i < os.length; i++) (os[i].observe as Tell)(op);
        return;
      }
      case 'release': {
        this.ledger.release(op);
        const os = op.type === 'fail' || op.type === 'info' ? this.onFailedRelease : this.onRelease;
        for (let i = 0; i < os.length; i++) (os[i].observe as Tell)(op);
        return;
      }
      case 'fault': {
        if (op.fault === 'crash' && op.phase === 'start') this.ledger.crash(op);
        const os = this.onFault;
        for (let i = 0; i < os.length; i++) (os[i].observe as Tell)(op);
        return;
      }
      case 'key-state': {
        const os = this.onKeyState;
        for (let i = 0; i < os.length; i++) (os[i].observe as Tell)(op);
        return;
      }
      case 'renew': {
        const os = this.onRenew;
        for (let i = 0; i < os.length; i++) (os[i].observe as Tell)(op);
        return;
      }
      case 'read-stock':
      case 'write-stock':
      case 'order':
      case 'txn': {
        // A txn record is an info; only a statement's fail or info is a failure.
        const os = op.f !== 'txn' && (op.type === 'fail' || op.type === 'info') ? this.onFailedStock : this.onStock;
        for (let i = 0; i < os.length; i++) (os[i].observe as Tell)(op);
        return;
      }
      case 'diagnostic': {
        const os = this.onDiagnostic;
        for (let i = 0; i < os.length; i++) (os[i].observe as Tell)(op);
        return;
      }
      case 'setup':
        throw new Error('a history has one setup record, its first');
      default:
        return;
    }
  }

  private setup(op: Operation): void {
    if (op.f !== 'setup') throw new Error(`a history begins with its setup record (found ${op.f} first)`);
    this.setupSeen = true;
    for (const o of this.observers) o.setup(op as SetupOp, this.ledger);
    // An observer of one lock kind (a semaphore's permits, a fair lock's order, ...) hears
    // nothing of a run of another: the fewer observers at each call site, the cheaper the call.
    const concerned = this.observers.filter((o) => o.appliesTo?.(op as SetupOp) ?? true);
    this.route(concerned);
    this.ledger.listen(concerned);
  }

  /** The verdict, or null when the run must be judged again (incompleteBecause, rerunKeeping). */
  finish(): CheckResult | null {
    if (this.finished !== null) return this.finished.verdict;
    if (this.hopeless) return null;
    let verdict: CheckResult | null = null;
    try {
      if (!this.setupSeen) throw new Error('a history begins with its setup record (it is empty)');
      const held = this.ledger.finish(this.endUs);
      verdict = this.ledger.incomplete === null ? this.merge() : null;
      if (verdict !== null) this.ledger.giveBack(held);
    } catch (err) {
      this.giveUp(err);
      verdict = null;
    }
    if (verdict !== null) {
      this.finished = { verdict };
      this.stopped = true;
    }
    return verdict;
  }

  /** Every observer's figures in RunMetrics's order, and the first violation of each kind, earliest first. */
  private merge(): CheckResult {
    const requests = this.outcomes.result();
    const stock = this.stock.result();
    const holders = this.holders.result();
    const ownership = this.ownership.result();
    const violations: Violation[] = [...this.stock.violations(), ...this.ownership.violations(), ...this.fencing.stats.violations, ...this.holders.violations(), ...this.permits.violations(), ...this.fairness.violations(), ...this.partialHolds.violations(), ...this.readWrite.violations()];
    violations.sort((a, b) => a.timeUs - b.timeUs || (a.kind < b.kind ? -1 : 1));
    return {
      metrics: {
        requests: requests.requests,
        orders: requests.orders,
        unitsSold: this.stock.stats.unitsOrdered,
        outcomes: requests.outcomes,
        timeouts: requests.timeouts,
        ...stock,
        staleTokens: this.fencing.stats.staleTokens,
        ...holders,
        ...ownership,
        ...this.permits.result(),
        ...this.fairness.result(),
        ...this.partialHolds.result(),
        ...this.readWrite.result(),
        renewals: requests.renewals,
        renewalFailures: requests.renewalFailures,
        throughputPerS: requests.throughputPerS,
        requestsPerS: requests.requestsPerS,
        latencyP50Us: requests.latencyP50Us,
        latencyP99Us: requests.latencyP99Us,
        lostUnits: this.stock.stats.lostUnits,
        flashSale: this.flashSale.result(),
        liveness: this.liveness.result(),
      },
      violations,
      failures: this.diagnostics.result(this.busyWhileFree.byText()),
    };
  }
}

type Tell = (op: Operation) => void;

/**
 * Re-runs of a run a checker could not judge, each keeping the facts of the requests the one
 * before named after dropping them, before one that drops nothing.
 */
export const RERUNS = 2;

/**
 * The checkers a run is judged with, in turn, until one judges it: the default grace; up to
 * RERUNS more keeping the requests the one before found named again (memory for a few
 * requests, not for the history: runs are deterministic, so the same seed again records the
 * same history); then one that drops nothing (memory for every request's facts, still not
 * for the history), which always judges. Each is asked for after the one before finished.
 */
export function* checkerAttempts(arena: CheckerArena = new CheckerArena()): Generator<Checker, void, void> {
  let checker = new Checker({ arena });
  yield checker;
  for (let attempt = 0; attempt < RERUNS; attempt++) {
    const keep = checker.rerunKeeping;
    if (keep === null) break;
    checker = new Checker({ arena, keep });
    yield checker;
  }
  yield new Checker({ arena, graceUs: Infinity });
}
