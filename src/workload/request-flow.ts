/**
 * One shopper's request as the application serves it: the scenario's steps in order
 * (lock -> read -> risk check -> deduct -> order -> unlock, typically). A failed step skips
 * to the unlock, as a finally block would; an open transaction commits before the unlock.
 * Every step that matters to the checker is recorded in the history at the simulated
 * instant it happens.
 */
import type { HistoryRecorder } from '../history/recorder.js';
import type { RequestOutcome } from '../history/operation.js';
import type { Step } from '../scenario/types.js';
import type { Guard, GuardContext } from '../variants/guard.js';
import type { LockHandle, LockParams, LockProtocol } from '../variants/lock-protocol.js';
import type { StockRow } from '../world/database.js';
import { db, random, sleep, type EffectProgram } from '../world/effects.js';

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
  /** Acquire was attempted (the finally block of seed 001 runs once it was). */
  attempted = false;
  read: StockRow | null = null;
  outcome: RequestOutcome | null = null;
  ordered = false;
  inTransaction = false;
}

export function* requestFlow(
  s: FlowSettings,
  req: RequestInfo,
  thread: string,
  lock: LockHandle,
): EffectProgram<RequestOutcome> {
  const st = new RequestState();
  const guardCtx: GuardContext = { fence: null };
  for (const step of s.steps) {
    if (st.outcome !== null && step !== 'unlock') continue;
    if (typeof step === 'object') {
      yield { kind: 'call', dependency: step.call };
      continue;
    }
    switch (step) {
      case 'lock':
        yield* acquireStep(s, req, thread, lock, st);
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
        yield* commitIfOpen(st);
        yield* releaseStep(s, req, thread, lock, st);
        break;
    }
  }
  yield* commitIfOpen(st);
  return st.outcome ?? (st.ordered ? 'ordered' : 'sold-out');
}

function* acquireStep(s: FlowSettings, req: RequestInfo, thread: string, lock: LockHandle, st: RequestState): EffectProgram<void> {
  const { recorder } = s;
  if (s.lock.noop) return; // no lock, no critical section to judge
  recorder.record({ process: thread, request: req.id, type: 'invoke', f: 'acquire', key: lock.key });
  st.attempted = true;
  const r = yield* s.lock.acquire(lock, s.lockParams);
  if (r.acquired) {
    st.holding = true;
    const fence = lock.fence ?? undefined;
    recorder.record({ process: thread, request: req.id, type: 'ok', f: 'acquire', key: lock.key, leaseMs: lock.leaseMs, fence });
    return;
  }
  // A timed-out acquire may have taken the lock after all: its outcome is unknown.
  const type = r.reason === 'timeout' || r.reason === 'unknown' ? 'info' : 'fail';
  recorder.record({ process: thread, request: req.id, type, f: 'acquire', key: lock.key, detail: r.detail });
  st.outcome = r.reason === 'busy' ? 'lock-busy' : 'lock-error';
}

function* readStep(s: FlowSettings, req: RequestInfo, thread: string, st: RequestState, ctx: GuardContext): EffectProgram<void> {
  const { recorder } = s;
  if (s.guard.transactional && !st.inTransaction) {
    yield* db({ kind: 'begin' });
    st.inTransaction = true;
  }
  const statement = s.guard.readStatement(req.sku, ctx);
  const fence = statement.kind === 'select-stock' ? statement.fence : undefined;
  const forUpdate = statement.kind === 'select-for-update' ? true : undefined;
  recorder.record({ process: thread, request: req.id, type: 'invoke', f: 'read-stock', sku: req.sku, fence, forUpdate });
  const r = yield* db(statement);
  if (r.kind !== 'row') {
    const detail = r.kind === 'error' ? r.message : 'no row';
    recorder.record({ process: thread, request: req.id, type: 'fail', f: 'read-stock', sku: req.sku, fence, forUpdate, detail });
    st.outcome = fence !== undefined && detail.startsWith('stale') ? 'fenced' : 'db-error';
    return;
  }
  st.read = r.row;
  recorder.record({
    process: thread, request: req.id, type: 'ok', f: 'read-stock', sku: req.sku, available: r.row.available, version: r.row.version, fence, forUpdate,
  });
  if (r.row.available < req.qty) st.outcome = 'sold-out';
}

function* deductStep(s: FlowSettings, req: RequestInfo, thread: string, st: RequestState, ctx: GuardContext): EffectProgram<void> {
  const { recorder, guard } = s;
  if (guard.needsRead && st.read === null) {
    yield* readStep(s, req, thread, st, ctx);
    if (st.outcome !== null) return;
  }
  for (let attempt = 0; ; attempt++) {
    const statement = guard.deductStatement(req.sku, req.qty, st.read, ctx);
    const write = describeWrite(statement, st.read);
    const op = { process: thread, request: req.id, f: 'write-stock' as const, sku: req.sku, qty: req.qty, ...write };
    recorder.record({ ...op, type: 'invoke' });
    const r = yield* db(statement);
    if (r.kind !== 'affected') {
      recorder.record({ ...op, type: 'fail', detail: r.kind === 'error' ? r.message : 'unexpected reply' });
      st.outcome = 'db-error';
      return;
    }
    recorder.record({ ...op, type: 'ok', affected: r.rows });
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

function describeWrite(statement: ReturnType<Guard['deductStatement']>, read: StockRow | null) {
  const basedOn = read?.available;
  switch (statement.kind) {
    case 'set-stock':
      return { mode: 'set' as const, value: statement.available, basedOn, fence: statement.fence };
    case 'set-stock-if-version':
      return { mode: 'cas' as const, value: statement.available, basedOn, version: statement.version };
    case 'decrement':
      return { mode: 'decrement' as const };
    default:
      return { mode: 'deduct' as const };
  }
}

function* orderStep(s: FlowSettings, req: RequestInfo, thread: string, st: RequestState): EffectProgram<void> {
  const { recorder } = s;
  const op = { process: thread, request: req.id, f: 'order' as const, sku: req.sku, qty: req.qty, orderKey: req.orderKey };
  recorder.record({ ...op, type: 'invoke' });
  const r = yield* db({ kind: 'insert-order', sku: req.sku, qty: req.qty, requestTag: req.id, orderKey: req.orderKey, uniqueKey: s.uniqueOrderKey });
  if (r.kind !== 'affected') {
    const detail = r.kind === 'error' ? r.message : 'unexpected reply';
    recorder.record({ ...op, type: 'fail', detail });
    st.outcome = detail.startsWith('Duplicate') ? 'duplicate' : 'db-error';
    return;
  }
  recorder.record({ ...op, type: 'ok' });
  st.ordered = true;
}

/** The idempotency check under the lock: has this order key been ordered already? */
function* checkOrderStep(s: FlowSettings, req: RequestInfo, thread: string, st: RequestState): EffectProgram<void> {
  const r = yield* db({ kind: 'count-orders', orderKey: req.orderKey });
  if (r.kind !== 'affected') {
    st.outcome = 'db-error';
    return;
  }
  if (r.rows > 0) {
    s.recorder.record({ process: thread, request: req.id, type: 'fail', f: 'order', sku: req.sku, qty: req.qty, orderKey: req.orderKey, detail: 'already ordered' });
    st.outcome = 'already-ordered';
  }
}

function* commitIfOpen(st: RequestState): EffectProgram<void> {
  if (!st.inTransaction) return;
  st.inTransaction = false;
  yield* db({ kind: 'commit' });
}

function* releaseStep(s: FlowSettings, req: RequestInfo, thread: string, lock: LockHandle, st: RequestState): EffectProgram<void> {
  if (!st.holding && !(s.unlockAlways && st.attempted)) return;
  st.holding = false;
  st.attempted = false;
  const { recorder } = s;
  const op = { process: thread, request: req.id, f: 'release' as const, key: lock.key };
  recorder.record({ ...op, type: 'invoke' });
  const r = yield* s.lock.release(lock, s.lockParams);
  if (r.released) recorder.record({ ...op, type: 'ok' });
  else recorder.record({ ...op, type: r.reason === 'timeout' ? 'info' : 'fail', detail: r.detail });
}
