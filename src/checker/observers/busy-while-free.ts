/**
 * "Lock busy" answers given while nobody held the lock: the lock failing, not the shop saying
 * no (liveness.ts counts them with the failures). A refusal is explained by a holder when,
 * at some instant of the refused acquire (from its invocation to its answer), the key had as
 * many holders as it admits (1, or a semaphore's permits). A holder counts from the
 * invocation of its acquire to the end of its work under the lock (its release answered, its
 * request ended or its process died): the server refuses a contender only while a holder's
 * key is there, which is inside that span whatever the latencies (its SET lands after it was
 * sent, its DEL before its answer comes back). What is left unexplained is a key nobody works
 * under: contenders' leftover keys that block one another (node-redlock 5.0.0-beta.2's
 * attempts keep their keys until the acquire gives up), a dead holder's key with no TTL, an
 * unlock the server does not know.
 *
 * Judged as the run goes, in memory bounded by what is in flight. A mutex (this file) needs no
 * record of finished holds: when a refusal is answered every hold that ended began before it,
 * so the latest end of one tells whether any met it; a refusal no open section or ended hold
 * explains waits for the works of its key open at its answer, and is explained by the first of
 * them that holds the lock, or left unexplained when the last of them ends without it. A
 * semaphore's refusal needs N holds at one instant: busy-while-free-permits.ts.
 */
import type { SetupOp } from '../../history/operation.js';
import type { CriticalSection, LedgerView, LockWork, Observer, Outcome, RequestFacts } from '../observer.js';
import { PermitsBusyWhileFree } from './busy-while-free-permits.js';
import { UnexplainedRefusals, type Refusal } from './unexplained-refusals.js';
import type { FailureGroup } from './diagnostics.js';

/** What judges a run's refusals (one per run, chosen by how many may hold a key at once). */
export interface RefusalJudge {
  workStarted(w: LockWork): void;
  sectionOpened(s: CriticalSection): void;
  sectionClosed(s: CriticalSection): void;
  /** Request `r` ended at `endUs` (null: unknown); `refused`: answered "lock busy". */
  requestEnded(r: RequestFacts, endUs: number | null, refused: boolean, nowUs: number): void;
  /** Every work ended: the refusals still pending are decided. */
  finish(): void;
}

/** The busy-while-free observer: liveness.ts reads its count. */
export class BusyWhileFreeObserver implements Observer {
  readonly reads = [] as const;
  private unexplained = new UnexplainedRefusals();
  private judge: RefusalJudge = new MutexBusyWhileFree(this.unexplained);
  private ledger: LedgerView | null = null;
  private finished = false;

  setup(op: SetupOp, ledger: LedgerView): void {
    this.ledger = ledger;
    const permits = op.permits ?? 1;
    this.judge = permits > 1 ? new PermitsBusyWhileFree(permits, this.unexplained) : new MutexBusyWhileFree(this.unexplained);
  }

  workStarted(w: LockWork): void {
    this.judge.workStarted(w);
  }

  sectionOpened(s: CriticalSection): void {
    this.judge.sectionOpened(s);
  }

  sectionClosed(s: CriticalSection): void {
    this.judge.sectionClosed(s);
  }

  requestEnded(r: RequestFacts, endUs: number | null, outcome: Outcome): void {
    this.judge.requestEnded(r, endUs, outcome === 'lock-busy', this.ledger?.nowUs ?? 0);
  }

  /** The refusals of requests invoked at `sinceUs` or later that no holder explains. */
  count(sinceUs: number): number {
    this.finish();
    return this.unexplained.count(sinceUs);
  }

  /** All of them, by what the lock said (the failures table lists them). */
  byText(): { groups: FailureGroup[]; others: number } {
    this.finish();
    return this.unexplained.byText();
  }

  /** Once every request has ended (the run's result is asked for). */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.judge.finish();
  }
}

/** A lock work not ended yet: acquiring, or holding (its section open or closed). */
interface OpenWork {
  fromUs: number;
  held: boolean;
  sectionOpen: boolean;
}

/** A refusal no hold explained when it was answered, waiting for the works open then. */
interface Pending extends Refusal {
  /** Works that may still explain it: open at its answer (or begun at that instant), not ended. */
  waitingOn: number;
}

interface KeyState {
  works: Map<string, OpenWork>;
  /** Open works whose section is open now. */
  sectionsOpen: number;
  /** The latest end of a hold whose work ended (-Infinity: none). */
  lastHoldEndUs: number;
  /** In answer order. */
  pending: Pending[];
}

/** A mutex's refusals: one hold meeting a refusal explains it. */
export class MutexBusyWhileFree implements RefusalJudge {
  private readonly keys = new Map<string, KeyState>();
  // Most runs lock one key: the last one looked up is kept at hand.
  private lastKey = '';
  private lastState: KeyState | null = null;

  constructor(private readonly unexplained: UnexplainedRefusals) {}

  workStarted(w: LockWork): void {
    const state = this.stateOf(w.key);
    state.works.set(w.request, { fromUs: w.fromUs, held: false, sectionOpen: false });
    // A work begun at the instant a pending refusal was answered may explain it too.
    const pending = state.pending;
    for (let i = pending.length - 1; i >= 0 && pending[i].toUs >= w.fromUs; i--) pending[i].waitingOn++;
  }

  sectionOpened(s: CriticalSection): void {
    const state = this.keys.get(s.key);
    const work = state?.works.get(s.request);
    if (state === undefined || work === undefined) return;
    if (!work.sectionOpen) {
      work.sectionOpen = true;
      state.sectionsOpen++;
    }
    if (work.held) return;
    work.held = true;
    // Its hold runs from before their answers to after now: every pending refusal it was open for is explained.
    const pending = state.pending;
    while (pending.length > 0 && pending[pending.length - 1].toUs >= work.fromUs) pending.pop();
  }

  sectionClosed(s: CriticalSection): void {
    const state = this.keys.get(s.key);
    const work = state?.works.get(s.request);
    if (state === undefined || work === undefined || !work.sectionOpen) return;
    work.sectionOpen = false;
    state.sectionsOpen--;
  }

  requestEnded(r: RequestFacts, endUs: number | null, refused: boolean): void {
    const lockWork = r.work;
    if (lockWork === null) return;
    const state = this.stateOf(lockWork.key);
    const work = state.works.get(r.id);
    if (work === undefined) return;
    state.works.delete(r.id);
    if (work.sectionOpen) state.sectionsOpen--;
    if (work.held) {
      const toUs = Number.isFinite(lockWork.toUs) ? lockWork.toUs : (endUs ?? Infinity);
      if (toUs > state.lastHoldEndUs) state.lastHoldEndUs = toUs;
      this.workEnded(state, work.fromUs, toUs);
      return;
    }
    // A work that never held explains nothing.
    this.workEnded(state, work.fromUs, -Infinity);
    if (refused && endUs !== null) this.refused(state, { fromUs: work.fromUs, toUs: endUs, request: r.id, invokeUs: r.invokeUs, text: r.firstError });
  }

  finish(): void {
    // Every work has ended: a refusal still waiting is one nothing explained.
    for (const state of this.keys.values()) {
      for (const p of state.pending) this.unexplained.add(p);
      state.pending = [];
    }
  }

  /** A refusal answered now: explained by an open section or a hold that ended after it began, else pending. */
  private refused(state: KeyState, r: Refusal): void {
    if (state.sectionsOpen > 0 || state.lastHoldEndUs >= r.fromUs) return;
    const waitingOn = state.works.size;
    if (waitingOn === 0) this.unexplained.add(r);
    else state.pending.push({ ...r, waitingOn });
  }

  /**
   * A work that began at `fromUs` ended, its hold ending at `holdToUs` (-Infinity: it held
   * nothing): of the refusals pending since it was open, it explains those its hold met; the
   * others have one work fewer to wait for, and those with none left are unexplained.
   */
  private workEnded(state: KeyState, fromUs: number, holdToUs: number): void {
    const pending = state.pending;
    let first = pending.length;
    while (first > 0 && pending[first - 1].toUs >= fromUs) first--;
    if (first === pending.length) return;
    let kept = first;
    for (let i = first; i < pending.length; i++) {
      const p = pending[i];
      if (holdToUs >= p.fromUs) continue;
      if (--p.waitingOn === 0) {
        this.unexplained.add(p);
        continue;
      }
      pending[kept++] = p;
    }
    pending.length = kept;
  }

  private stateOf(key: string): KeyState {
    if (key === this.lastKey && this.lastState !== null) return this.lastState;
    let state = this.keys.get(key);
    if (state === undefined) this.keys.set(key, (state = { works: new Map(), sectionsOpen: 0, lastHoldEndUs: -Infinity, pending: [] }));
    this.lastKey = key;
    this.lastState = state;
    return state;
  }
}
