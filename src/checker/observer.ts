/**
 * The checker is a composition of observers (Jepsen's `compose`: independent checkers over
 * one history, their results merged into one verdict). Each observer judges one invariant
 * or gathers one group of figures, in a file of its own under observers/, and hears the
 * history one operation at a time, in history order, as the run records it; judging a
 * recorded history is replaying it through the same observers (check-history.ts checkHistory).
 *
 * Besides the operations of the kinds it reads (`reads`), an observer may hear what the
 * request ledger (ledger.ts) derives from them once for every observer: a request's arrival
 * and its end, critical sections opening and closing, lock work starting, time moving on,
 * the end of the run. The ledger holds each request's facts while something may still ask
 * about them, and observers read them through it (`RequestFacts`).
 */
import type { Operation, RequestOutcome, SetupOp } from '../history/operation.js';

/**
 * A critical section: from a successful acquire until its release is invoked, its request
 * ends, its process crashes or the run ends. `endUs` is NaN while it is open.
 */
export interface CriticalSection {
  request: string;
  thread: string;
  client: string;
  key: string;
  startUs: number;
  endUs: number;
  /** Under a read lock (shared with other readers; a read-write lock's acquire of mode read). */
  shared: boolean;
}

/** How a request stopped working under its lock (for the orphan's story). */
export type LockDeparture =
  | 'acquiring'
  | 'kept'
  | 'acquire-unknown'
  | 'acquire-failed'
  | 'released'
  | 'release-unknown'
  | 'release-failed'
  | 'died';

/**
 * A request's work under its lock: from the invocation of its acquire until the acquire
 * failed, or its release completed (ok, refused or unknown), its request ended, or its
 * process crashed (`toUs`, Infinity while it works); and the last thing it did with the lock
 * (`departure`, at `departureUs`), which may come after `toUs` (an unlock-always release).
 */
export interface LockWork {
  request: string;
  thread: string;
  key: string;
  fromUs: number;
  toUs: number;
  departure: LockDeparture;
  departureUs: number;
  detail: string | undefined;
}

/** What the ledger knows of a request while it holds its facts. */
export interface RequestFacts extends LockWork {
  id: string;
  /** Whether the history has its invocation (else it is only a name in lock operations). */
  invoked: boolean;
  client: string;
  qty: number;
  invokeUs: number;
  /** Its completion, -1 while it runs. */
  endUs: number;
  /** Its lock work (the request itself once it invoked an acquire), null before. */
  work: LockWork | null;
  /** Its critical section: the one open, or the end and client of the last one closed (-1: none). */
  open: CriticalSection | null;
  csEndUs: number;
  csClient: string;
  /** The detail of the first of its operations that failed or timed out (observers/diagnostics.ts fills it). */
  firstError: string | undefined;
}

/** How a request ended as the observers hear it: an answer, or an unknown outcome (endUs null). */
export type Outcome = RequestOutcome | 'unknown';

/** What the observers may ask the ledger. */
export interface LedgerView {
  /** A request's facts; undefined if the history never named it (or they were dropped: then the checker withholds its verdict). */
  facts(request: string): RequestFacts | undefined;
  /** A request's facts if held, without noting a dropped request named again (for what only adds to facts held). */
  peek(request: string): RequestFacts | undefined;
  /** A server names this request as a lock holder (+1), or no longer does (-1): its facts are kept while it is named. */
  pin(request: string, delta: 1 | -1): void;
  /** Crash times per client, ascending. */
  readonly crashes: ReadonlyMap<string, readonly number[]>;
  /** The instant of the operation being heard. */
  readonly nowUs: number;
}

export interface Observer {
  /** The operation kinds it reads raw (the checker hands it only those). */
  readonly reads: readonly Operation['f'][];
  /** Kinds it reads only when they failed or are unknown (type fail or info): most operations of a run are neither. */
  readonly readsFailed?: readonly Operation['f'][];
  /** The run's first record: stock, primary, Redlock's masters, the lock's owner, duration. */
  setup(op: SetupOp, ledger: LedgerView): void;
  /** Whether the run concerns it (absent: every run does); one that does not hears nothing after its setup. */
  appliesTo?(op: SetupOp): boolean;
  observe?(op: Operation): void;
  /** A request arrived (its facts are filled in). */
  requestInvoked?(r: RequestFacts): void;
  /**
   * A request ended: answered at `endUs` with `outcome`, or with an unknown outcome (a
   * timeout, a crash, or still running at the run's end: endUs null). Heard in answer order,
   * then the requests still running at the end.
   */
  requestEnded?(r: RequestFacts, endUs: number | null, outcome: Outcome): void;
  sectionOpened?(s: CriticalSection): void;
  sectionClosed?(s: CriticalSection): void;
  workStarted?(w: LockWork): void;
  /** Every operation of an instant has been heard (time moves on next, or the run ends). */
  instantEnded?(): void;
  /** The run ended at `endUs`: every section is closed and every lock work ended. */
  runEnded?(endUs: number): void;
  /** Whether it still holds on to a request's facts the ledger drops (so the object is not reused). */
  refersTo?(r: RequestFacts): boolean;
}
