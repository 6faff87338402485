/**
 * One shopper's request as the application serves it: the scenario's steps in order
 * (lock -> read -> risk check -> deduct -> order -> unlock, typically). A failed step skips
 * to the unlock, as a finally block would. An open transaction ends before the unlock: it
 * commits, or rolls back when one of its statements failed (a duplicate order key, a lock
 * wait timeout), as Spring's declarative transactions do: "the Spring Framework's transaction
 * infrastructure code marks a transaction for rollback only in the case of runtime, unchecked
 * exceptions" (Spring Framework reference, "Rolling Back a Declarative Transaction",
 * https://docs.spring.io/spring-framework/reference/data-access/transaction/declarative/rolling-back.html),
 * and its DataAccessExceptions (DuplicateKeyException, CannotAcquireLockException) are
 * runtime exceptions. Every step that matters to the checker is recorded in the history at
 * the simulated instant it happens, with the transaction it ran in.
 */
import type { HistoryRecorder } from '../history/recorder.js';
import { lockRecord, orderRecord, stockReadRecord, stockWriteRecord, type StockWrite } from '../history/records.js';
import type { RequestOutcome } from '../history/operation.js';
import type { Step } from '../scenario/types.js';
import type { FenceCheck, Guard, GuardContext } from '../variants/guard.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol, ReleaseResult } from '../variants/lock-protocol.js';
import type { DbResult, DbStatement, StockRow } from '../world/database.js';
import { random, sleep, type Effect, type EffectProgram } from '../world/effects.js';

export interface RetryPolicy {
  retries: number;
  backoffMs: number;
  jitterMs: number;
}

export interface FlowSettings {
  lock: LockProtocol;
  guard: Guard;
  lockParams: LockParams;
  steps: readonly Step[];
  recorder: HistoryRecorder;
  /** Orders carry a unique order key. */
  uniqueOrderKey: boolean;
  /** Release even when acquire failed (a finally block around the whole method). */
  unlockAlways: boolean;
  /** How the guard retries conflicts (version-cas). */
  conflictRetry: RetryPolicy;
  /** fenced-write: which statements carry the fencing token. */
  fenceCheck: FenceCheck;
}

export interface RequestInfo {
  id: string;
  sku: number;
  qty: number;
  /** The shopper's order number; a resubmission carries the same one. */
  orderKey: string;
}

export const lockKeyOf = (sku: number): string => `lock:stock:${sku}`;

/** The state one request carries through its steps. */
class RequestState {
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
}

/**
 * A statement as a plain effect, yielded by the step itself (`(yield statement(s)) as
 * DbResult`) rather than through the `db` helper: no generator per statement on the hottest path.
 */
const statement = (s: DbStatement): Effect => ({ kind: 'db', statement: s });

/**
 * A statement's result, noted by the request: a failure inside a transaction dooms it. A plain
 * function around the statement's yield rather than a generator of its own (the hottest path).
 */
function noted(st: RequestState, r: DbResult): DbResult {
  if (r.kind === 'error' && st.txn !== null) st.txnFailed = true;
  return r;
}

export function* requestFlow(
  s: FlowSettings,
  req: RequestInfo,
  thread: string,
  lock: LockHandle,
): EffectProgram<RequestOutcome> {
  const st = new RequestState();
  const guardCtx: GuardContext = { fence: null, fenceCheck: s.fenceCheck };
  // An index, not for-of: an array iterator in a generator makes a result object per step.
  const steps = s.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (st.outcome !== null && step !== 'unlock') continue;
    if (typeof step === 'object') {
      yield { kind: 'call', dependency: step.call };
      continue;
    }
    // The lock steps call the protocol from here, not through a generator of their own: every
    // effect of a lock call passes one generator frame less (the plain functions around it record).
    switch (step) {
      case 'lock':
        if (!s.lock.noop) {
          acquireInvoked(s, req, thread, lock, st);
          acquireEnded(s, req, thread, lock, st, yield* s.lock.acquire(lock, s.lockParams));
        }
        guardCtx.fence = lock.fence;
        break;
      case 'check-order':
        yield* checkOrderStep(s, req, thread, st);
        break;
      case 'read':
        yield* readStep(s, req, thread, st, guardCtx);
        break;
      case 'deduct':
        yield* deductStep(s, req, thread, st, guardCtx);
        break;
      case 'order':
        yield* orderStep(s, req, thread, st);
        break;
      case 'unlock':
        if (st.txn !== null) yield endTransaction(st);
        if (releaseInvoked(s, req, thread, lock, st)) releaseEnded(s, req, thread, lock, yield* s.lock.release(lock, s.lockParams));
        break;
    }
  }
  if (st.txn !== null) yield endTransaction(st);
  return st.outcome ?? (st.ordered ? 'ordered' : 'sold-out');
}

/** Before the acquire (a lock that is no lock, `noop`, has no critical section to judge). */
function acquireInvoked(s: FlowSettings, req: RequestInfo, thread: string, lock: LockHandle, st: RequestState): void {
  s.recorder.record(lockRecord(thread, 'invoke', 'acquire', req.id, lock.key, undefined, undefined, undefined));
  st.attempted = true;
}

function acquireEnded(s: FlowSettings, req: RequestInfo, thread: string, lock: LockHandle, st: RequestState, r: AcquireResult): void {
  const { recorder } = s;
  if (r.acquired) {
    st.holding = true;
    const fence = lock.fence ?? undefined;
    recorder.record(lockRecord(thread, 'ok', 'acquire', req.id, lock.key, lock.leaseMs, fence, undefined));
    return;
  }
  // A timed-out acquire may have taken the lock after all: its outcome is unknown.
  const type = r.reason === 'timeout' || r.reason === 'unknown' ? 'info' : 'fail';
  recorder.record(lockRecord(thread, type, 'acquire', req.id, lock.key, undefined, undefined, r.detail));
  st.outcome = r.reason === 'busy' ? 'lock-busy' : 'lock-error';
}

function* readStep(s: FlowSettings, req: RequestInfo, thread: string, st: RequestState, ctx: GuardContext): EffectProgram<void> {
  const { recorder } = s;
  if (s.guard.transactional && st.txn === null) {
    const begun = (yield statement({ kind: 'begin', requestTag: req.id })) as DbResult;
    if (begun.kind === 'begun') {
      st.txn = begun.txn;
      st.txnFailed = false;
    }
  }
  const read = s.guard.readStatement(req.sku, ctx);
  const fence = read.kind === 'select-stock' ? read.fence : undefined;
  const forUpdate = read.kind === 'select-for-update' ? true : undefined;
  const txn = st.txn ?? undefined;
  recorder.record(stockReadRecord(thread, 'invoke', req.id, req.sku, undefined, undefined, fence, forUpdate, txn, undefined));
  const r = noted(st, (yield statement(read)) as DbResult);
  if (r.kind !== 'row') {
    const detail = r.kind === 'error' ? r.message : 'no row';
    recorder.record(stockReadRecord(thread, 'fail', req.id, req.sku, undefined, undefined, fence, forUpdate, txn, detail));
    st.outcome = fence !== undefined && detail.startsWith('stale') ? 'fenced' : 'db-error';
    return;
  }
  st.read = r.row;
  recorder.record(stockReadRecord(thread, 'ok', req.id, req.sku, r.row.available, r.row.version, fence, forUpdate, txn, undefined));
  if (r.row.available < req.qty) st.outcome = 'sold-out';
}

function* deductStep(s: FlowSettings, req: RequestInfo, thread: string, st: RequestState, ctx: GuardContext): EffectProgram<void> {
  const { recorder, guard } = s;
  if (guard.needsRead && st.read === null) {
    yield* readStep(s, req, thread, st, ctx);
    if (st.outcome !== null) return;
  }
  for (let attempt = 0; ; attempt++) {
    const deduct = guard.deductStatement(req.sku, req.qty, st.read, ctx);
    const write = describeWrite(thread, req, deduct, st.read, st.txn ?? undefined);
    recorder.record(stockWriteRecord(write, 'invoke', undefined, undefined));
    const r = noted(st, (yield statement(deduct)) as DbResult);
    if (r.kind !== 'affected') {
      recorder.record(stockWriteRecord(write, 'fail', undefined, r.kind === 'error' ? r.message : 'unexpected reply'));
      st.outcome = 'db-error';
      return;
    }
    recorder.record(stockWriteRecord(write, 'ok', r.rows, undefined));
    if (r.rows > 0) return;
    const policy = s.conflictRetry;
    if (!(guard.retriesConflicts && attempt < policy.retries)) {
      st.outcome = guard.onZeroRows;
      return;
    }
    // Exponential backoff with +- jitter, so retries that collided do not collide again.
    const jitterMs = policy.jitterMs === 0 ? 0 : ((yield* random()) * 2 - 1) * policy.jitterMs;
    yield* sleep(Math.max(0, Math.round((policy.backoffMs * 2 ** attempt + jitterMs) * 1000)));
    st.read = null;
    yield* readStep(s, req, thread, st, ctx);
    if (st.outcome !== null) return;
  }
}

function describeWrite(
  process: string, req: RequestInfo, statement: ReturnType<Guard['deductStatement']>, read: StockRow | null, txn: number | undefined,
): StockWrite {
  const w: StockWrite = {
    process, request: req.id, sku: req.sku, mode: 'deduct', value: undefined, qty: req.qty, basedOn: undefined, version: undefined, fence: undefined, txn,
  };
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
  return w;
}

function* orderStep(s: FlowSettings, req: RequestInfo, thread: string, st: RequestState): EffectProgram<void> {
  const { recorder } = s;
  const txn = st.txn ?? undefined;
  recorder.record(orderRecord(thread, 'invoke', req.id, req.sku, req.qty, req.orderKey, txn, undefined));
  const r = noted(st, (yield statement({ kind: 'insert-order', sku: req.sku, qty: req.qty, requestTag: req.id, orderKey: req.orderKey, uniqueKey: s.uniqueOrderKey })) as DbResult);
  if (r.kind !== 'affected') {
    const detail = r.kind === 'error' ? r.message : 'unexpected reply';
    recorder.record(orderRecord(thread, 'fail', req.id, req.sku, req.qty, req.orderKey, txn, detail));
    st.outcome = detail.startsWith('Duplicate') ? 'duplicate' : 'db-error';
    return;
  }
  recorder.record(orderRecord(thread, 'ok', req.id, req.sku, req.qty, req.orderKey, txn, undefined));
  st.ordered = true;
}

/** The idempotency check under the lock: has this order key been ordered already? */
function* checkOrderStep(s: FlowSettings, req: RequestInfo, thread: string, st: RequestState): EffectProgram<void> {
  const r = noted(st, (yield statement({ kind: 'count-orders', orderKey: req.orderKey })) as DbResult);
  if (r.kind !== 'affected') {
    st.outcome = 'db-error';
    return;
  }
  if (r.rows > 0) {
    s.recorder.record(orderRecord(thread, 'fail', req.id, req.sku, req.qty, req.orderKey, undefined, 'already ordered'));
    st.outcome = 'already-ordered';
  }
}

/** The COMMIT of the open transaction, or its ROLLBACK when one of its statements failed (the caller yields it). */
function endTransaction(st: RequestState): Effect {
  const rollback = st.txnFailed;
  st.txn = null;
  st.txnFailed = false;
  return statement({ kind: rollback ? 'rollback' : 'commit' });
}

/** Whether the request releases now (it holds the lock, or unlocks always after an attempt); records the invocation. */
function releaseInvoked(s: FlowSettings, req: RequestInfo, thread: string, lock: LockHandle, st: RequestState): boolean {
  if (!st.holding && !(s.unlockAlways && st.attempted)) return false;
  st.holding = false;
  st.attempted = false;
  s.recorder.record(lockRecord(thread, 'invoke', 'release', req.id, lock.key, undefined, undefined, undefined));
  return true;
}

function releaseEnded(s: FlowSettings, req: RequestInfo, thread: string, lock: LockHandle, r: ReleaseResult): void {
  const { recorder } = s;
  if (r.released) recorder.record(lockRecord(thread, 'ok', 'release', req.id, lock.key, undefined, undefined, undefined));
  else recorder.record(lockRecord(thread, r.reason === 'timeout' ? 'info' : 'fail', 'release', req.id, lock.key, undefined, undefined, r.detail));
}
