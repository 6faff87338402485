/**
 * The state one request carries through the request flow's steps (request-flow.ts), and what
 * the flow records around its lock calls and its stock writes: the history's words for them.
 */
import type { RequestOutcome } from '../history/operation.js';
import { multiLockDetail } from '../history/multi-lock.js';
import type { HistoryRecorder } from '../history/recorder.js';
import type { StockWrite } from '../history/records.js';
import type { Guard } from '../variants/guard.js';
import type { AcquireResult, LockHandle, ReleaseResult } from '../variants/lock-protocol.js';
import type { DbResult, StockRow } from '../world/database.js';

/** The state one request carries through its steps (one object per flow, reset per request). */
export class RequestState {
  holding = false;
  /** Acquire was attempted (the finally block of "Redis atomicity failed?" runs once it was). */
  attempted = false;
  read: StockRow | null = null;
  outcome: RequestOutcome | null = null;
  ordered = false;
  /** The open transaction's id (null: autocommit). */
  txn: number | null = null;
  /** A statement inside the open transaction failed: the application rolls it back. */
  txnFailed = false;

  reset(): void {
    this.holding = false;
    this.attempted = false;
    this.read = null;
    this.outcome = null;
    this.ordered = false;
    this.txn = null;
    this.txnFailed = false;
  }

  /** A statement's result, noted: a failure inside a transaction dooms it. */
  noted(r: DbResult): DbResult {
    if (r.kind === 'error' && this.txn !== null) this.txnFailed = true;
    return r;
  }
}

/** Fills `w` (the flow's one write, whose records copy it) for a deduct statement. */
export function describeWrite(
  w: StockWrite,
  request: string,
  sku: number,
  qty: number,
  statement: ReturnType<Guard['deductStatement']>,
  read: StockRow | null,
  txn: number | undefined,
): void {
  w.request = request;
  w.sku = sku;
  w.mode = 'deduct';
  w.value = undefined;
  w.qty = qty;
  w.basedOn = undefined;
  w.version = undefined;
  w.fence = undefined;
  w.txn = txn;
  switch (statement.kind) {
    case 'set-stock':
      w.mode = 'set';
      w.value = statement.available;
      w.basedOn = read?.available;
      w.fence = statement.fence;
      break;
    case 'set-stock-if-version':
      w.mode = 'cas';
      w.value = statement.available;
      w.basedOn = read?.available;
      w.version = statement.version;
      break;
    case 'decrement':
      w.mode = 'decrement';
      break;
    default:
      break;
  }
}

/** A read lock's records say so (the checker's readers); every other lock's carry no mode. */
const readMode = (lock: LockHandle): 'read' | undefined => (lock.mode === 'read' ? 'read' : undefined);

/** Before the acquire (a lock that is no lock, `noop`, has no critical section to judge). */
export function acquireInvoked(recorder: HistoryRecorder, thread: string, request: string, lock: LockHandle, st: RequestState): void {
  // A multi-lock's invocation names its keys in order (observers/partial-holds.ts reads them).
  recorder.recordLock(thread, 'invoke', 'acquire', request, lock.key, undefined, undefined, lock.keys === undefined ? undefined : multiLockDetail(lock.keys), readMode(lock));
  st.attempted = true;
}

export function acquireEnded(recorder: HistoryRecorder, thread: string, request: string, lock: LockHandle, st: RequestState, r: AcquireResult): void {
  if (r.acquired) {
    st.holding = true;
    const fence = lock.fence ?? undefined;
    recorder.recordLock(thread, 'ok', 'acquire', request, lock.key, lock.leaseMs, fence, undefined, readMode(lock));
    return;
  }
  // A timed-out acquire may have taken the lock after all: its outcome is unknown.
  const type = r.reason === 'timeout' || r.reason === 'unknown' ? 'info' : 'fail';
  recorder.recordLock(thread, type, 'acquire', request, lock.key, undefined, undefined, r.detail, readMode(lock));
  st.outcome = r.reason === 'busy' ? 'lock-busy' : 'lock-error';
}

/**
 * Whether the request releases now (it holds the lock, or with `unlockAlways` it attempted
 * an acquire); records the invocation.
 */
export function releaseInvoked(recorder: HistoryRecorder, thread: string, request: string, lock: LockHandle, st: RequestState, unlockAlways: boolean): boolean {
  if (!st.holding && !(unlockAlways && st.attempted)) return false;
  st.holding = false;
  st.attempted = false;
  recorder.recordLock(thread, 'invoke', 'release', request, lock.key, undefined, undefined, undefined, readMode(lock));
  return true;
}

export function releaseEnded(recorder: HistoryRecorder, thread: string, request: string, lock: LockHandle, r: ReleaseResult): void {
  if (r.released) recorder.recordLock(thread, 'ok', 'release', request, lock.key, undefined, undefined, undefined, readMode(lock));
  else recorder.recordLock(thread, r.reason === 'timeout' ? 'info' : 'fail', 'release', request, lock.key, undefined, undefined, r.detail, readMode(lock));
}
