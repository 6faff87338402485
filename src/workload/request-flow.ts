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
import type { StockWrite } from '../history/records.js';
import type { RequestOutcome } from '../history/operation.js';
import type { Step } from '../scenario/types.js';
import type { FenceCheck, Guard, GuardContext } from '../variants/guard.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol, ReleaseResult } from '../variants/lock-protocol.js';
import type { DbResult, DbStatement, StockRow } from '../world/database.js';
import type { Effect, EffectProgram } from '../world/effects.js';

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

/** The state one request carries through its steps (one object per flow, reset per request). */
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

  reset(): void {
    this.holding = false;
    this.attempted = false;
    this.read = null;
    this.outcome = null;
    this.ordered = false;
    this.txn = null;
    this.txnFailed = false;
  }
}

/**
 * A statement's result, noted by the request: a failure inside a transaction dooms it.
 */
function noted(st: RequestState, r: DbResult): DbResult {
  if (r.kind === 'error' && st.txn !== null) st.txnFailed = true;
  return r;
}

/** What the input of the flow's next resumption answers (RequestFlow.pc). */
const AT_STEP = 0;
const AFTER_CALL = 1;
const AFTER_ACQUIRE = 2;
const AFTER_BEGIN = 3;
const AFTER_READ = 4;
const AFTER_DEDUCT = 5;
const AFTER_JITTER = 6;
const AFTER_BACKOFF = 7;
const AFTER_ORDER = 8;
const AFTER_CHECK_ORDER = 9;
const AFTER_UNLOCK_TXN = 10;
const AFTER_RELEASE = 11;
const AFTER_FINAL_TXN = 12;
const FINISHED = 13;

/** A draw from the calling thread's stream (what `random()` of world/effects.ts yields). */
const RANDOM: Effect = { kind: 'random' };

/**
 * One worker's request flow, written as a state machine rather than a generator: `next(input)`
 * runs the request until it needs the world (returns the effect to perform) or ends (returns
 * null, the outcome in `outcome`). The same records, effects and draws in the same order as the
 * steps read top to bottom (lock -> read -> deduct -> order -> unlock); a generator per request
 * and per step, and a result object per effect, cost about a tenth of a run's CPU. The lock
 * protocol's programs run inside it (`sub`): their effects pass through without a frame of
 * their own. One object per worker thread, reset for each request it serves.
 */
export class RequestFlow {
  /** The request's outcome once `next` returned null. */
  outcome: RequestOutcome = 'sold-out';
  private req: RequestInfo | null = null;
  private lock: LockHandle | null = null;
  private readonly st = new RequestState();
  private readonly ctx: GuardContext;
  /** The step the flow is at. */
  private i = 0;
  /** What the next input answers (AT_STEP...). */
  private pc = FINISHED;
  /** A lock call in progress: its effects pass through. */
  private sub: EffectProgram<unknown> | null = null;
  /** A read of the deduct step (needed first, or after a conflict) rather than of the read step. */
  private readForDeduct = false;
  /** The deduct attempt (conflict retries). */
  private attempt = 0;
  /** The read in progress, as its records name it. */
  private readFence: number | undefined = undefined;
  private readForUpdate: true | undefined = undefined;
  private readTxn: number | undefined = undefined;
  /** The write in progress (its records copy it). */
  private readonly write: StockWrite;
  /** The order's transaction, as its records name it. */
  private orderTxn: number | undefined = undefined;
  /** The effect of every statement, set anew each time (the interpreter reads it at once). */
  private readonly dbEffect: { kind: 'db'; statement: DbStatement } = { kind: 'db', statement: { kind: 'commit' } };
  /** The call effect of each dependency step (null for a built-in step), made once. */
  private readonly calls: Array<Effect | null>;

  constructor(private readonly s: FlowSettings, private readonly thread: string) {
    this.ctx = { fence: null, fenceCheck: s.fenceCheck };
    this.write = {
      process: thread, request: '', sku: 0, mode: 'deduct', value: undefined, qty: 0, basedOn: undefined, version: undefined, fence: undefined, txn: undefined,
    };
    this.calls = s.steps.map((step) => (typeof step === 'object' ? { kind: 'call', dependency: step.call } : null));
  }

  /** Begins serving `req`; the first `next` call runs it. */
  start(req: RequestInfo, lock: LockHandle): void {
    this.req = req;
    this.lock = lock;
    this.st.reset();
    this.ctx.fence = null;
    this.i = 0;
    this.pc = AT_STEP;
    this.sub = null;
  }

  /** The effect the request waits for next (`input` answers the last one), or null: it ended. */
  next(input: unknown): Effect | null {
    const s = this.s;
    const st = this.st;
    const req = this.req as RequestInfo;
    const lock = this.lock as LockHandle;
    for (;;) {
      const sub = this.sub;
      if (sub !== null) {
        const r = sub.next(input);
        if (r.done !== true) return r.value;
        this.sub = null;
        input = r.value;
      }
      switch (this.pc) {
        case AT_STEP: {
          const steps = s.steps;
          // A failed step skips to the unlock, as a finally block would.
          while (this.i < steps.length && st.outcome !== null && steps[this.i] !== 'unlock') this.i++;
          if (this.i === steps.length) {
            if (st.txn !== null) {
              this.pc = AFTER_FINAL_TXN;
              return this.endTransaction();
            }
            this.finish();
            return null;
          }
          const step = steps[this.i];
          if (typeof step === 'object') {
            this.pc = AFTER_CALL;
            return this.calls[this.i];
          }
          switch (step) {
            case 'lock':
              if (s.lock.noop) {
                this.ctx.fence = lock.fence;
                this.i++;
                continue;
              }
              // The lock steps call the protocol from here: its effects pass through `sub`.
              acquireInvoked(s, req, this.thread, lock, st);
              this.sub = s.lock.acquire(lock, s.lockParams);
              this.pc = AFTER_ACQUIRE;
              input = undefined;
              continue;
            case 'check-order':
              this.pc = AFTER_CHECK_ORDER;
              return this.statement({ kind: 'count-orders', orderKey: req.orderKey });
            case 'read':
              this.readForDeduct = false;
              return this.beginRead();
            case 'deduct':
              this.attempt = 0;
              if (s.guard.needsRead && st.read === null) {
                this.readForDeduct = true;
                return this.beginRead();
              }
              return this.deduct();
            case 'order':
              return this.order();
            case 'unlock':
              if (st.txn !== null) {
                this.pc = AFTER_UNLOCK_TXN;
                return this.endTransaction();
              }
              if (this.release()) {
                input = undefined;
                continue;
              }
              this.i++;
              continue;
            default:
              this.i++;
              continue;
          }
        }
        case AFTER_CALL:
          break;
        case AFTER_ACQUIRE:
          acquireEnded(s, req, this.thread, lock, st, input as AcquireResult);
          this.ctx.fence = lock.fence;
          break;
        case AFTER_BEGIN: {
          const begun = input as DbResult;
          if (begun.kind === 'begun') {
            st.txn = begun.txn;
            st.txnFailed = false;
          }
          return this.read();
        }
        case AFTER_READ:
          this.readEnded(input as DbResult);
          if (this.readForDeduct && st.outcome === null) return this.deduct();
          break;
        case AFTER_DEDUCT: {
          const effect = this.deductEnded(input as DbResult);
          if (effect !== null) return effect;
          break;
        }
        case AFTER_JITTER:
          return this.backoff(((input as number) * 2 - 1) * s.conflictRetry.jitterMs);
        case AFTER_BACKOFF:
          st.read = null;
          this.attempt++;
          this.readForDeduct = true;
          return this.beginRead();
        case AFTER_ORDER:
          this.orderEnded(input as DbResult);
          break;
        case AFTER_CHECK_ORDER:
          this.checkOrderEnded(input as DbResult);
          break;
        case AFTER_UNLOCK_TXN:
          if (this.release()) {
            input = undefined;
            continue;
          }
          break;
        case AFTER_RELEASE:
          releaseEnded(s, req, this.thread, lock, input as ReleaseResult);
          break;
        case AFTER_FINAL_TXN:
          this.finish();
          return null;
        default:
          throw new Error(`${this.thread}: the request flow resumed after it ended`);
      }
      // The step is done: on to the next.
      this.i++;
      this.pc = AT_STEP;
    }
  }

  private finish(): void {
    const st = this.st;
    this.outcome = st.outcome ?? (st.ordered ? 'ordered' : 'sold-out');
    this.pc = FINISHED;
    this.req = null;
    this.lock = null;
  }

  private statement(statement: DbStatement): Effect {
    this.dbEffect.statement = statement;
    return this.dbEffect;
  }

  /** BEGIN first when the guard reads in a transaction and none is open, else the read. */
  private beginRead(): Effect {
    if (this.s.guard.transactional && this.st.txn === null) {
      this.pc = AFTER_BEGIN;
      return this.statement({ kind: 'begin', requestTag: (this.req as RequestInfo).id });
    }
    return this.read();
  }

  private read(): Effect {
    const req = this.req as RequestInfo;
    const read = this.s.guard.readStatement(req.sku, this.ctx);
    this.readFence = read.kind === 'select-stock' ? read.fence : undefined;
    this.readForUpdate = read.kind === 'select-for-update' ? true : undefined;
    this.readTxn = this.st.txn ?? undefined;
    this.s.recorder.recordStockRead(this.thread, 'invoke', req.id, req.sku, undefined, undefined, this.readFence, this.readForUpdate, this.readTxn, undefined);
    this.pc = AFTER_READ;
    return this.statement(read);
  }

  private readEnded(result: DbResult): void {
    const { st } = this;
    const req = this.req as RequestInfo;
    const r = noted(st, result);
    const fence = this.readFence;
    if (r.kind !== 'row') {
      const detail = r.kind === 'error' ? r.message : 'no row';
      this.s.recorder.recordStockRead(this.thread, 'fail', req.id, req.sku, undefined, undefined, fence, this.readForUpdate, this.readTxn, detail);
      st.outcome = fence !== undefined && detail.startsWith('stale') ? 'fenced' : 'db-error';
      return;
    }
    st.read = r.row;
    this.s.recorder.recordStockRead(this.thread, 'ok', req.id, req.sku, r.row.available, r.row.version, fence, this.readForUpdate, this.readTxn, undefined);
    if (r.row.available < req.qty) st.outcome = 'sold-out';
  }

  private deduct(): Effect {
    const req = this.req as RequestInfo;
    const deduct = this.s.guard.deductStatement(req.sku, req.qty, this.st.read, this.ctx);
    describeWrite(this.write, req, deduct, this.st.read, this.st.txn ?? undefined);
    this.s.recorder.recordStockWrite(this.write, 'invoke', undefined, undefined);
    this.pc = AFTER_DEDUCT;
    return this.statement(deduct);
  }

  /** The deduct's result; the effect of a conflict's backoff, or null: the step is done. */
  private deductEnded(result: DbResult): Effect | null {
    const { s, st } = this;
    const r = noted(st, result);
    if (r.kind !== 'affected') {
      s.recorder.recordStockWrite(this.write, 'fail', undefined, r.kind === 'error' ? r.message : 'unexpected reply');
      st.outcome = 'db-error';
      return null;
    }
    s.recorder.recordStockWrite(this.write, 'ok', r.rows, undefined);
    if (r.rows > 0) return null;
    const policy = s.conflictRetry;
    if (!(s.guard.retriesConflicts && this.attempt < policy.retries)) {
      st.outcome = s.guard.onZeroRows;
      return null;
    }
    // Exponential backoff with +- jitter, so retries that collided do not collide again.
    if (policy.jitterMs === 0) return this.backoff(0);
    this.pc = AFTER_JITTER;
    return RANDOM;
  }

  private backoff(jitterMs: number): Effect {
    const policy = this.s.conflictRetry;
    this.pc = AFTER_BACKOFF;
    return { kind: 'sleep', us: Math.max(0, Math.round((policy.backoffMs * 2 ** this.attempt + jitterMs) * 1000)) };
  }

  private order(): Effect {
    const req = this.req as RequestInfo;
    const txn = this.st.txn ?? undefined;
    this.orderTxn = txn;
    this.s.recorder.recordOrder(this.thread, 'invoke', req.id, req.sku, req.qty, req.orderKey, txn, undefined);
    this.pc = AFTER_ORDER;
    return this.statement({ kind: 'insert-order', sku: req.sku, qty: req.qty, requestTag: req.id, orderKey: req.orderKey, uniqueKey: this.s.uniqueOrderKey });
  }

  private orderEnded(result: DbResult): void {
    const { st } = this;
    const req = this.req as RequestInfo;
    const r = noted(st, result);
    if (r.kind !== 'affected') {
      const detail = r.kind === 'error' ? r.message : 'unexpected reply';
      this.s.recorder.recordOrder(this.thread, 'fail', req.id, req.sku, req.qty, req.orderKey, this.orderTxn, detail);
      st.outcome = detail.startsWith('Duplicate') ? 'duplicate' : 'db-error';
      return;
    }
    this.s.recorder.recordOrder(this.thread, 'ok', req.id, req.sku, req.qty, req.orderKey, this.orderTxn, undefined);
    st.ordered = true;
  }

  /** The idempotency check under the lock: has this order key been ordered already? */
  private checkOrderEnded(result: DbResult): void {
    const { st } = this;
    const req = this.req as RequestInfo;
    const r = noted(st, result);
    if (r.kind !== 'affected') {
      st.outcome = 'db-error';
      return;
    }
    if (r.rows > 0) {
      this.s.recorder.recordOrder(this.thread, 'fail', req.id, req.sku, req.qty, req.orderKey, undefined, 'already ordered');
      st.outcome = 'already-ordered';
    }
  }

  /** The COMMIT of the open transaction, or its ROLLBACK when one of its statements failed. */
  private endTransaction(): Effect {
    const st = this.st;
    const rollback = st.txnFailed;
    st.txn = null;
    st.txnFailed = false;
    return this.statement({ kind: rollback ? 'rollback' : 'commit' });
  }

  /** The unlock step's release, when the request releases: true once the lock's program is set to run. */
  private release(): boolean {
    const { s } = this;
    const lock = this.lock as LockHandle;
    if (!releaseInvoked(s, this.req as RequestInfo, this.thread, lock, this.st)) return false;
    this.sub = s.lock.release(lock, s.lockParams);
    this.pc = AFTER_RELEASE;
    return true;
  }
}

/** Fills `w` (the flow's one write, whose records copy it) for a deduct statement. */
function describeWrite(w: StockWrite, req: RequestInfo, statement: ReturnType<Guard['deductStatement']>, read: StockRow | null, txn: number | undefined): void {
  w.request = req.id;
  w.sku = req.sku;
  w.mode = 'deduct';
  w.value = undefined;
  w.qty = req.qty;
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

/** Before the acquire (a lock that is no lock, `noop`, has no critical section to judge). */
function acquireInvoked(s: FlowSettings, req: RequestInfo, thread: string, lock: LockHandle, st: RequestState): void {
  s.recorder.recordLock(thread, 'invoke', 'acquire', req.id, lock.key, undefined, undefined, undefined);
  st.attempted = true;
}

function acquireEnded(s: FlowSettings, req: RequestInfo, thread: string, lock: LockHandle, st: RequestState, r: AcquireResult): void {
  const { recorder } = s;
  if (r.acquired) {
    st.holding = true;
    const fence = lock.fence ?? undefined;
    recorder.recordLock(thread, 'ok', 'acquire', req.id, lock.key, lock.leaseMs, fence, undefined);
    return;
  }
  // A timed-out acquire may have taken the lock after all: its outcome is unknown.
  const type = r.reason === 'timeout' || r.reason === 'unknown' ? 'info' : 'fail';
  recorder.recordLock(thread, type, 'acquire', req.id, lock.key, undefined, undefined, r.detail);
  st.outcome = r.reason === 'busy' ? 'lock-busy' : 'lock-error';
}

/** Whether the request releases now (it holds the lock, or unlocks always after an attempt); records the invocation. */
function releaseInvoked(s: FlowSettings, req: RequestInfo, thread: string, lock: LockHandle, st: RequestState): boolean {
  if (!st.holding && !(s.unlockAlways && st.attempted)) return false;
  st.holding = false;
  st.attempted = false;
  s.recorder.recordLock(thread, 'invoke', 'release', req.id, lock.key, undefined, undefined, undefined);
  return true;
}

function releaseEnded(s: FlowSettings, req: RequestInfo, thread: string, lock: LockHandle, r: ReleaseResult): void {
  const { recorder } = s;
  if (r.released) recorder.recordLock(thread, 'ok', 'release', req.id, lock.key, undefined, undefined, undefined);
  else recorder.recordLock(thread, r.reason === 'timeout' ? 'info' : 'fail', 'release', req.id, lock.key, undefined, undefined, r.detail);
}
