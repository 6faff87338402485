/**
 * The request ledger: what every observer would otherwise derive from the history on its
 * own, derived once. From requests, acquires, releases and client crashes it keeps each
 * request's facts (arrival, end, critical section, lock work and how it left it) while they
 * may still be asked about, and tells the observers (observer.ts) when a request arrives or
 * ends, when a critical section opens or closes, when lock work starts, when an instant is
 * over and when the run ends.
 *
 * A finished request's facts are dropped `graceUs` after it ended unless a server still names
 * it as a lock holder (an observer pins it) or something is still open under it. Should the
 * history name a dropped request again (a replica applying a lock write long after the
 * request ended, then promoted), the run cannot be judged exactly: the ledger marks the
 * verdict withheld (`incomplete`) and goes on collecting every request so named, for a re-run
 * that keeps their facts (checker.ts checkerAttempts). With `graceUs` Infinity it drops
 * nothing and always judges (a recorded history's replay, the last attempt).
 *
 * Histories the workload never records are judged by these rules: a request's second
 * invocation and second completion are ignored; a second acquire starts its lock work over;
 * an acquire that succeeds while the request's section is open closes that section first.
 */
import type { FaultOp, LockOp, RequestOp, RequestOutcome } from '../history/operation.js';
import type { CheckerArena } from './arena.js';
import { LedgerEntry, type RequestTimes } from './ledger-entry.js';
import type { CriticalSection, LedgerView, LockDeparture, LockWork, Observer, Outcome, RequestFacts } from './observer.js';
import { RequestTable, requestNumber } from './request-table.js';
import { RetireQueue } from './retire-queue.js';

/**
 * One minute of simulated time. Measured over every casebook scenario, variant and seeds 1-50
 * (3,050 runs): no history names a finished request more than 51.0 s after it ended unless a
 * server still names it as holder (redlock-v4-hangs.yaml: a SET held in TCP retransmission
 * through the 40 s partition reaches its master 51 s after it was sent). With a grace of 60 s
 * no run declines; 30 s declines 49 of them, 20 s or less 95. A longer gap (a longer
 * partition: Linux retransmits for about 15 minutes, tcp_retries2 in the kernel's
 * Documentation/networking/ip-sysctl.rst) costs a re-run keeping the requests named, never a
 * wrong verdict.
 */
export const DEFAULT_GRACE_US = 60_000_000;

/** Thrown inside the checker when the history names a request whose facts were dropped. */
export class Forgotten extends Error {}

export const clientOfThread = (thread: string): string => thread.split('/')[0];

export class RequestLedger implements LedgerView {
  nowUs = 0;
  /** Why the verdict is withheld (the history named a dropped request), or null. */
  incomplete: string | null = null;
  /** Requests the history named after their facts were dropped. */
  readonly namedAgain = new Set<string>();
  readonly crashes = new Map<string, number[]>();
  private readonly clients = new Map<string, string>();
  private reqs: RequestTable<LedgerEntry>;
  private readonly times: RequestTimes;
  private readonly retiring = new RetireQueue<LedgerEntry>();
  // The observers of each event, in the checker's order.
  private onInvoked: Observer[] = [];
  private onEnded: Observer[] = [];
  private onOpened: Observer[] = [];
  private onClosed: Observer[] = [];
  private onWork: Observer[] = [];
  private onInstant: Observer[] = [];
  private onRunEnd: Observer[] = [];
  private referrers: Observer[] = [];

  constructor(
    observers: readonly Observer[],
    private readonly arena: CheckerArena,
    private readonly graceUs: number,
    private readonly keep: ReadonlySet<string>,
  ) {
    this.reqs = arena.table();
    this.times = arena.store();
    this.listen(observers);
  }

  /** Who hears what the ledger derives from now on (the checker narrows it to the observers the run's setup concerns). */
  listen(observers: readonly Observer[]): void {
    this.onInvoked = observers.filter((o) => o.requestInvoked);
    this.onEnded = observers.filter((o) => o.requestEnded);
    this.onOpened = observers.filter((o) => o.sectionOpened);
    this.onClosed = observers.filter((o) => o.sectionClosed);
    this.onWork = observers.filter((o) => o.workStarted);
    this.onInstant = observers.filter((o) => o.instantEnded);
    this.onRunEnd = observers.filter((o) => o.runEnded);
    this.referrers = observers.filter((o) => o.refersTo);
  }

  /** Requests whose facts are held now (in flight, holding a lock, or finished within the grace). */
  get held(): number {
    return this.reqs.size;
  }

  /** Time moves on to `t` (operations come in time order). */
  advance(t: number): void {
    if (t < this.nowUs) throw new Error(`the history goes back in time (an operation at ${t} us after one at ${this.nowUs} us): it is judged in time order`);
    if (t === this.nowUs) return;
    this.instantEnded();
    this.nowUs = t;
    this.retire();
  }

  private instantEnded(): void {
    for (let i = 0; i < this.onInstant.length; i++) (this.onInstant[i].instantEnded as () => void)();
  }

  /** A request's facts, or undefined if the history never named it. */
  facts(request: string): LedgerEntry | undefined {
    const r = this.reqs.get(request);
    if (r === undefined && this.reqs.wasDropped(request)) {
      // No exact verdict now; the run goes on as if the name were new, to find every request
      // a re-run must keep.
      this.namedAgain.add(request);
      this.incomplete ??= `${request} is named again after its facts were dropped`;
    }
    return r;
  }

  peek(request: string): LedgerEntry | undefined {
    return this.reqs.get(request);
  }

  private reqOf(request: string): LedgerEntry {
    return this.facts(request) ?? this.newReq(request);
  }

  private newReq(request: string): LedgerEntry {
    const r = this.arena.entry();
    r.refill(this.times, request, requestNumber(request));
    this.reqs.add(r);
    return r;
  }

  pin(holder: string, delta: 1 | -1): void {
    const r = delta > 0 ? this.reqOf(holder) : this.reqs.get(holder);
    if (r) r.pins += delta;
  }

  request(op: RequestOp): void {
    if (op.type === 'invoke') {
      const known = this.facts(op.request);
      if (known?.invoked) return; // invoked twice: the first stands
      const r = known ?? this.newReq(op.request);
      r.invoked = true;
      r.client = op.process;
      r.invokeUs = op.timeUs;
      r.qty = op.qty;
      for (let i = 0; i < this.onInvoked.length; i++) (this.onInvoked[i].requestInvoked as (r: RequestFacts) => void)(r);
      return;
    }
    const r = this.facts(op.request);
    if (r === undefined) return;
    if (r.invoked && r.endUs < 0) {
      r.endUs = op.timeUs;
      const answered = op.type !== 'info' && op.outcome !== undefined;
      this.ended(r, answered ? op.timeUs : null, answered ? (op.outcome as RequestOutcome) : 'unknown');
      this.retiring.push(r, op.timeUs + this.graceUs);
    }
    this.closeOf(r, op.timeUs);
    this.stopWorkingOf(r, op.timeUs);
    // Lost with its process while holding the lock or waiting for it (a SET that executed).
    const w = r.work;
    if (op.type === 'info' && w && (w.departure === 'kept' || w.departure === 'acquiring')) depart(w, 'died', op.timeUs, undefined);
  }

  private ended(r: LedgerEntry, endUs: number | null, outcome: Outcome): void {
    const hooks = this.onEnded;
    for (let i = 0; i < hooks.length; i++) (hooks[i].requestEnded as (r: RequestFacts, e: number | null, o: Outcome) => void)(r, endUs, outcome);
  }

  acquire(op: LockOp): void {
    if (op.type === 'invoke') return this.acquireInvoked(op.request, op.process, op.key, op.timeUs, op.detail);
    if (op.type === 'ok') {
      this.openSection(op.request, op.process, op.key, op.timeUs, op.mode === 'read');
      const w = this.facts(op.request)?.work;
      if (w) depart(w, 'kept', op.timeUs, op.detail);
      return;
    }
    const r = this.facts(op.request);
    if (r === undefined) return;
    this.stopWorkingOf(r, op.timeUs);
    if (r.work) depart(r.work, op.type === 'info' ? 'acquire-unknown' : 'acquire-failed', op.timeUs, op.detail);
  }

  release(op: LockOp): void {
    if (op.type === 'invoke') {
      // Only a section still open ends here: a release nothing is open for names no facts.
      const open = this.reqs.get(op.request);
      if (open !== undefined) this.closeOf(open, op.timeUs);
      return;
    }
    const r = this.facts(op.request);
    if (r === undefined) return;
    this.stopWorkingOf(r, op.timeUs);
    if (r.work) depart(r.work, op.type === 'ok' ? 'released' : op.type === 'info' ? 'release-unknown' : 'release-failed', op.timeUs, op.detail);
  }

  private acquireInvoked(request: string, thread: string, key: string, atUs: number, detail: string | undefined): void {
    const r = this.reqOf(request);
    const again = r.work !== null;
    r.thread = thread;
    r.key = key;
    r.fromUs = atUs;
    r.toUs = Infinity;
    r.departure = 'acquiring';
    r.departureUs = atUs;
    r.detail = detail;
    r.work = r;
    if (again) return; // a second acquire starts the same lock work over (observers hold it already)
    for (let i = 0; i < this.onWork.length; i++) (this.onWork[i].workStarted as (w: LockWork) => void)(r);
  }

  private openSection(request: string, thread: string, key: string, atUs: number, shared: boolean): void {
    const r = this.reqOf(request);
    if (r.open !== null) this.closeOf(r, atUs);
    const s: CriticalSection = { request, thread, client: this.clientOf(thread), key, startUs: atUs, endUs: NaN, shared };
    r.open = s;
    for (let i = 0; i < this.onOpened.length; i++) (this.onOpened[i].sectionOpened as (s: CriticalSection) => void)(s);
  }

  /** clientOfThread, one string per thread rather than one per section. */
  private clientOf(thread: string): string {
    let client = this.clients.get(thread);
    if (client === undefined) this.clients.set(thread, (client = clientOfThread(thread)));
    return client;
  }

  /** Ends a request's open critical section, if it has one. */
  private closeOf(r: LedgerEntry, atUs: number): void {
    const s = r.open;
    if (s === null) return;
    s.endUs = atUs;
    r.open = null;
    r.csEndUs = atUs;
    r.csClient = s.client;
    for (let i = 0; i < this.onClosed.length; i++) (this.onClosed[i].sectionClosed as (s: CriticalSection) => void)(s);
  }

  /** Ends a request's lock work, if it is working (its work's end is open until then). */
  private stopWorkingOf(r: LedgerEntry, atUs: number): void {
    const w = r.work;
    if (w !== null && w.toUs === Infinity) w.toUs = atUs;
  }

  /** kill -9 of a client: its sections and lock work end (in any order: no observer depends on it). */
  crash(op: FaultOp): void {
    const list = this.crashes.get(op.target);
    if (list) list.push(op.timeUs);
    else this.crashes.set(op.target, [op.timeUs]);
    const held = this.reqs.list();
    for (const r of held) if (r.open !== null && r.open.client === op.target) this.closeOf(r, op.timeUs);
    for (const r of held) if (r.work !== null && r.work.toUs === Infinity && this.clientOf(r.work.thread) === op.target) this.stopWorkingOf(r, op.timeUs);
  }

  /** Drops the facts of requests finished `graceUs` ago that nothing open names any more. */
  private retire(): void {
    const q = this.retiring;
    while (q.size > 0 && q.firstAtUs() <= this.nowUs) {
      const r = q.shift();
      if (r.pins > 0 || r.open !== null || (r.work !== null && r.work.toUs === Infinity)) {
        q.push(r, this.nowUs + Math.max(1, this.graceUs));
        continue;
      }
      if (this.keep.size > 0 && this.keep.has(r.id)) continue;
      this.reqs.drop(r);
      if (this.referredTo(r)) r.detach(this.times);
      else {
        r.release(this.times);
        this.arena.giveEntry(r);
      }
    }
  }

  private referredTo(r: LedgerEntry): boolean {
    for (let i = 0; i < this.referrers.length; i++) if ((this.referrers[i].refersTo as (r: RequestFacts) => boolean)(r)) return true;
    return false;
  }

  /**
   * The end of the run at `endUs`: open sections close, the instant ends, lock work ends, the
   * observers hear the run's end, then every request still running ends with an unknown
   * outcome. Returns the requests held, for giveBack() once the verdict is written.
   */
  finish(endUs: number): LedgerEntry[] {
    // Indexed loops: this runs once a run, before V8 optimizes it, and a for-of over an array
    // there allocates an iterator result per element.
    const held = this.reqs.list();
    for (let i = 0; i < held.length; i++) this.closeOf(held[i], endUs);
    this.instantEnded();
    for (let i = 0; i < held.length; i++) this.stopWorkingOf(held[i], endUs);
    for (let i = 0; i < this.onRunEnd.length; i++) (this.onRunEnd[i].runEnded as (t: number) => void)(endUs);
    for (let i = 0; i < held.length; i++) {
      const r = held[i];
      if (r.invoked && r.endUs < 0) this.ended(r, null, 'unknown');
    }
    return held;
  }

  /**
   * Gives the requests' objects, the table and the store back to the arena once the run is
   * judged: nothing reads the facts any more (the violations are written). The objects let go
   * of the store's chunks (park), which a store not kept would otherwise outlive in them.
   */
  giveBack(held: readonly LedgerEntry[]): void {
    for (let i = 0; i < held.length; i++) {
      held[i].park();
      this.arena.giveEntry(held[i]);
    }
    this.arena.giveStore(this.times);
    const table = this.reqs;
    this.reqs = new RequestTable<LedgerEntry>(1);
    this.arena.giveTable(table);
  }
}

function depart(w: LockWork, departure: LockDeparture, atUs: number, detail: string | undefined): void {
  w.departure = departure;
  w.departureUs = atUs;
  w.detail = detail;
}
