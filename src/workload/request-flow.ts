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
 *
 * Written as a state machine whose states are the protocol's steps, one small method per
 * step and one per answer, rather than as a generator: a generator per request and per step,
 * and a result object per effect, cost about a tenth of a run's CPU (docs/history.md, the
 * fourth round). Read it as the method it models:
 *
 *   lock()                          lock step: the protocol's acquire
 *   try {
 *     checkOrder()                  idempotency check: has this order key been ordered?
 *     readStock()                   BEGIN first when the guard reads in a transaction
 *     call(dependency)              a risk check, a payment call: the time it takes
 *     deduct()                      read first if the guard needs it; conflicts retry with backoff
 *     insertOrder()
 *   } finally {
 *     endTransaction()              COMMIT, or ROLLBACK after a failed statement
 *     unlock()                      the protocol's release, when the request holds the lock
 *   }
 */
import type { HistoryRecorder } from '../history/recorder.js';
import type { StockWrite } from '../history/records.js';
import type { RequestOutcome } from '../history/operation.js';
import type { Step } from '../spec/workload.js';
import type { FenceCheck } from '../spec/variant.js';
import type { Guard, GuardContext } from '../variants/guard.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol, ReleaseResult } from '../variants/lock-protocol.js';
import type { DbResult, DbStatement } from '../world/database.js';
import { dependencyCall, RANDOM_EFFECT, sleep, type Effect, type EffectProgram } from '../world/effects.js';
import { acquireEnded, acquireInvoked, describeWrite, releaseEnded, releaseInvoked, RequestState } from './request-state.js';

interface RetryPolicy {
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
  /**
   * `read`: a reader (a read-write lock's workload), which takes the read lock and only reads
   * the stock: no order check, no deduct, no order (absent: a buyer).
   */
  mode?: 'read' | 'write';
}

/**
 * What the request awaits (RequestFlow.awaiting): the protocol step whose answer the next
 * input is. BETWEEN_STEPS: nothing; the next step begins.
 */
const BETWEEN_STEPS = 0;
const DEPENDENCY_CALL = 1;
const LOCK_ACQUIRE = 2;
const TRANSACTION_BEGIN = 3;
const STOCK_READ = 4;
const STOCK_DEDUCT = 5;
const BACKOFF_JITTER = 6;
const BACKOFF_SLEEP = 7;
const ORDER_INSERT = 8;
const ORDER_CHECK = 9;
const TRANSACTION_END_BEFORE_UNLOCK = 10;
const LOCK_RELEASE = 11;
const TRANSACTION_END_AT_RETURN = 12;
const REQUEST_ENDED = 13;
type Awaiting = number;

/**
 * One worker's request flow: `next(input)` runs the request until it needs the world (returns
 * the effect to perform) or ends (returns null, the outcome in `outcome`). The same records,
 * effects and draws in the same order as the steps read top to bottom. The lock protocol's
 * programs run inside it (`lockCall`): their effects pass through without a frame of their
 * own. One object per worker thread, reset for each request it serves.
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
  /** What the next input answers. */
  private awaiting: Awaiting = REQUEST_ENDED;
  /** A lock call in progress (the protocol's acquire or release): its effects pass through. */
  private lockCall: EffectProgram<unknown> | null = null;
  /** The stock read is the deduct step's (needed first, or after a conflict) rather than the read step's. */
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
  /** The effect of every statement, its statement set anew each time (the interpreter reads it at once). */
  private readonly dbEffect: { kind: 'db'; statement: DbStatement } = { kind: 'db', statement: { kind: 'commit' } };
  /** The call effect of each dependency step (null for a built-in step), made once. */
  private readonly calls: Array<Effect | null>;

  constructor(private readonly s: FlowSettings, private readonly thread: string) {
    this.ctx = { fence: null, fenceCheck: s.fenceCheck };
    this.write = {
      process: thread, request: '', sku: 0, mode: 'deduct', value: undefined, qty: 0, basedOn: undefined, version: undefined, fence: undefined, txn: undefined,
    };
    this.calls = s.steps.map((step) => (typeof step === 'object' ? dependencyCall(step.call) : null));
  }

  /** Begins serving `req`; the first `next` call runs it. */
  start(req: RequestInfo, lock: LockHandle): void {
    this.req = req;
    this.lock = lock;
    this.st.reset();
    this.ctx.fence = null;
    this.i = 0;
    this.awaiting = BETWEEN_STEPS;
    this.lockCall = null;
  }

  /** The effect the request waits for next (`input` answers the last one), or null: it ended. */
  next(input: unknown): Effect | null {
    for (;;) {
      const call = this.lockCall;
      if (call !== null) {
        const r = call.next(input);
        if (r.done !== true) return r.value;
        this.lockCall = null;
        input = r.value;
      }
      const effect = this.answered(input);
      if (effect !== null) return effect;
      if (this.awaiting === REQUEST_ENDED) return null;
      // A step ended, or a lock call began: no input for what comes next.
      input = undefined;
    }
  }

  /**
   * The step awaited got its answer: the effect awaited next, or null (the step ended, a lock
   * call began, or the request ended).
   */
  private answered(input: unknown): Effect | null {
    switch (this.awaiting) {
      case BETWEEN_STEPS: return this.beginStep();
      case DEPENDENCY_CALL: return this.stepDone();
      case LOCK_ACQUIRE: return this.acquired(input as AcquireResult);
      case TRANSACTION_BEGIN: return this.transactionBegun(input as DbResult);
      case STOCK_READ: return this.stockRead(input as DbResult);
      case STOCK_DEDUCT: return this.stockDeducted(input as DbResult);
      case BACKOFF_JITTER: return this.backoff(((input as number) * 2 - 1) * this.s.conflictRetry.jitterMs);
      case BACKOFF_SLEEP: return this.retryDeduct();
      case ORDER_INSERT: return this.orderInserted(input as DbResult);
      case ORDER_CHECK: return this.orderChecked(input as DbResult);
      case TRANSACTION_END_BEFORE_UNLOCK: return this.release();
      case LOCK_RELEASE: return this.released(input as ReleaseResult);
      case TRANSACTION_END_AT_RETURN: return this.endRequest();
      default: throw new Error(`${this.thread}: the request flow resumed after it ended`);
    }
  }

  /** Awaits `effect` as the answer of `step`. */
  private await(step: Awaiting, effect: Effect): Effect {
    this.awaiting = step;
    return effect;
  }

  private statement(step: Awaiting, statement: DbStatement): Effect {
    this.dbEffect.statement = statement;
    return this.await(step, this.dbEffect);
  }

  /** The step is done: on to the next. */
  private stepDone(): null {
    this.i++;
    this.awaiting = BETWEEN_STEPS;
    return null;
  }

  /** The step at `i` begins; after a failed step, the steps up to the unlock are skipped (the finally block). */
  private beginStep(): Effect | null {
    const steps = this.s.steps;
    while (this.i < steps.length && this.st.outcome !== null && steps[this.i] !== 'unlock') this.i++;
    if (this.i === steps.length) return this.returnFromRequest();
    const step = steps[this.i];
    if (typeof step === 'object') return this.await(DEPENDENCY_CALL, this.calls[this.i] as Effect);
    // A reader reads and works under its read lock; it writes nothing.
    if ((this.req as RequestInfo).mode === 'read' && (step === 'check-order' || step === 'deduct' || step === 'order')) return this.stepDone();
    switch (step) {
      case 'lock': return this.acquire();
      case 'check-order': return this.checkOrder();
      case 'read': return this.readStock(false);
      case 'deduct': return this.deduct();
      case 'order': return this.insertOrder();
      case 'unlock': return this.unlock();
      default: return this.stepDone();
    }
  }

  // --- lock ---

  /** The lock step: the protocol's acquire (a lock that is no lock, `noop`, only hands out its fence). */
  private acquire(): null {
    const { s } = this;
    const lock = this.lock as LockHandle;
    if (s.lock.noop) {
      this.ctx.fence = lock.fence;
      return this.stepDone();
    }
    acquireInvoked(s.recorder, this.thread, (this.req as RequestInfo).id, lock, this.st);
    this.lockCall = s.lock.acquire(lock, s.lockParams);
    this.awaiting = LOCK_ACQUIRE;
    return null;
  }

  private acquired(r: AcquireResult): null {
    const lock = this.lock as LockHandle;
    acquireEnded(this.s.recorder, this.thread, (this.req as RequestInfo).id, lock, this.st, r);
    this.ctx.fence = lock.fence;
    return this.stepDone();
  }

  // --- check-order ---

  /** The idempotency check under the lock: has this order key been ordered already? */
  private checkOrder(): Effect {
    return this.statement(ORDER_CHECK, { kind: 'count-orders', orderKey: (this.req as RequestInfo).orderKey });
  }

  private orderChecked(result: DbResult): null {
    const { st } = this;
    const req = this.req as RequestInfo;
    const r = st.noted(result);
    if (r.kind !== 'affected') st.outcome = 'db-error';
    else if (r.rows > 0) {
      this.s.recorder.recordOrder(this.thread, 'fail', req.id, req.sku, req.qty, req.orderKey, undefined, 'already ordered');
      st.outcome = 'already-ordered';
    }
    return this.stepDone();
  }

  // --- read ---

  /** The stock read, of the read step or of the deduct step; BEGIN first when the guard reads in a transaction and none is open. */
  private readStock(forDeduct: boolean): Effect {
    this.readForDeduct = forDeduct;
    if (this.s.guard.transactional && this.st.txn === null) {
      return this.statement(TRANSACTION_BEGIN, { kind: 'begin', requestTag: (this.req as RequestInfo).id });
    }
    return this.selectStock();
  }

  private transactionBegun(begun: DbResult): Effect {
    if (begun.kind === 'begun') {
      this.st.txn = begun.txn;
      this.st.txnFailed = false;
    }
    return this.selectStock();
  }

  private selectStock(): Effect {
    const req = this.req as RequestInfo;
    const read = this.s.guard.readStatement(req.sku, this.ctx);
    this.readFence = read.kind === 'select-stock' ? read.fence : undefined;
    this.readForUpdate = read.kind === 'select-for-update' ? true : undefined;
    this.readTxn = this.st.txn ?? undefined;
    this.s.recorder.recordStockRead(this.thread, 'invoke', req.id, req.sku, undefined, undefined, this.readFence, this.readForUpdate, this.readTxn, undefined);
    return this.statement(STOCK_READ, read);
  }

  private stockRead(result: DbResult): Effect | null {
    const { st } = this;
    const req = this.req as RequestInfo;
    const r = st.noted(result);
    const fence = this.readFence;
    if (r.kind !== 'row') {
      const detail = r.kind === 'error' ? r.message : 'no row';
      this.s.recorder.recordStockRead(this.thread, 'fail', req.id, req.sku, undefined, undefined, fence, this.readForUpdate, this.readTxn, detail);
      st.outcome = fence !== undefined && detail.startsWith('stale') ? 'fenced' : 'db-error';
      return this.stepDone();
    }
    st.read = r.row;
    this.s.recorder.recordStockRead(this.thread, 'ok', req.id, req.sku, r.row.available, r.row.version, fence, this.readForUpdate, this.readTxn, undefined);
    // A reader's answer is the stock, whatever it is.
    if (req.mode === 'read') return this.stepDone();
    if (r.row.available < req.qty) st.outcome = 'sold-out';
    else if (this.readForDeduct) return this.writeDeduct();
    return this.stepDone();
  }

  // --- deduct ---

  /** The deduct step: the stock read first when the guard needs it and none was. */
  private deduct(): Effect {
    this.attempt = 0;
    if (this.s.guard.needsRead && this.st.read === null) return this.readStock(true);
    return this.writeDeduct();
  }

  private writeDeduct(): Effect {
    const req = this.req as RequestInfo;
    const deduct = this.s.guard.deductStatement(req.sku, req.qty, this.st.read, this.ctx);
    describeWrite(this.write, req.id, req.sku, req.qty, deduct, this.st.read, this.st.txn ?? undefined);
    this.s.recorder.recordStockWrite(this.write, 'invoke', undefined, undefined);
    return this.statement(STOCK_DEDUCT, deduct);
  }

  /** The deduct's result: done, or a conflict the guard retries after a backoff. */
  private stockDeducted(result: DbResult): Effect | null {
    const { s, st } = this;
    const r = st.noted(result);
    if (r.kind !== 'affected') {
      s.recorder.recordStockWrite(this.write, 'fail', undefined, r.kind === 'error' ? r.message : 'unexpected reply');
      st.outcome = 'db-error';
      return this.stepDone();
    }
    s.recorder.recordStockWrite(this.write, 'ok', r.rows, undefined);
    if (r.rows > 0) return this.stepDone();
    const policy = s.conflictRetry;
    if (!(s.guard.retriesConflicts && this.attempt < policy.retries)) {
      st.outcome = s.guard.onZeroRows;
      return this.stepDone();
    }
    // Exponential backoff with +- jitter, so retries that collided do not collide again.
    if (policy.jitterMs === 0) return this.backoff(0);
    return this.await(BACKOFF_JITTER, RANDOM_EFFECT);
  }

  private backoff(jitterMs: number): Effect {
    const policy = this.s.conflictRetry;
    return this.await(BACKOFF_SLEEP, sleep(Math.max(0, Math.round((policy.backoffMs * 2 ** this.attempt + jitterMs) * 1000))));
  }

  /** After the backoff: the next attempt reads the stock again. */
  private retryDeduct(): Effect {
    this.st.read = null;
    this.attempt++;
    return this.readStock(true);
  }

  // --- order ---

  private insertOrder(): Effect {
    const req = this.req as RequestInfo;
    const txn = this.st.txn ?? undefined;
    this.orderTxn = txn;
    this.s.recorder.recordOrder(this.thread, 'invoke', req.id, req.sku, req.qty, req.orderKey, txn, undefined);
    return this.statement(ORDER_INSERT, { kind: 'insert-order', sku: req.sku, qty: req.qty, requestTag: req.id, orderKey: req.orderKey, uniqueKey: this.s.uniqueOrderKey });
  }

  private orderInserted(result: DbResult): null {
    const { st } = this;
    const req = this.req as RequestInfo;
    const r = st.noted(result);
    if (r.kind !== 'affected') {
      const detail = r.kind === 'error' ? r.message : 'unexpected reply';
      this.s.recorder.recordOrder(this.thread, 'fail', req.id, req.sku, req.qty, req.orderKey, this.orderTxn, detail);
      st.outcome = detail.startsWith('Duplicate') ? 'duplicate' : 'db-error';
    } else {
      this.s.recorder.recordOrder(this.thread, 'ok', req.id, req.sku, req.qty, req.orderKey, this.orderTxn, undefined);
      st.ordered = true;
    }
    return this.stepDone();
  }

  // --- finally: end the transaction, unlock ---

  /** The COMMIT of the open transaction, or its ROLLBACK when one of its statements failed. */
  private endTransaction(step: Awaiting): Effect {
    const st = this.st;
    const rollback = st.txnFailed;
    st.txn = null;
    st.txnFailed = false;
    return this.statement(step, { kind: rollback ? 'rollback' : 'commit' });
  }

  /** The unlock step: the open transaction ends first, then the release. */
  private unlock(): Effect | null {
    if (this.st.txn !== null) return this.endTransaction(TRANSACTION_END_BEFORE_UNLOCK);
    return this.release();
  }

  /** The protocol's release, when the request releases (it holds the lock, or unlocks always after an attempt). */
  private release(): null {
    const { s } = this;
    const lock = this.lock as LockHandle;
    if (!releaseInvoked(s.recorder, this.thread, (this.req as RequestInfo).id, lock, this.st, s.unlockAlways)) return this.stepDone();
    this.lockCall = s.lock.release(lock, s.lockParams);
    this.awaiting = LOCK_RELEASE;
    return null;
  }

  private released(r: ReleaseResult): null {
    releaseEnded(this.s.recorder, this.thread, (this.req as RequestInfo).id, this.lock as LockHandle, r);
    return this.stepDone();
  }

  /** After the last step: a transaction still open ends, then the request returns its outcome. */
  private returnFromRequest(): Effect | null {
    if (this.st.txn !== null) return this.endTransaction(TRANSACTION_END_AT_RETURN);
    return this.endRequest();
  }

  private endRequest(): null {
    const st = this.st;
    this.outcome = st.outcome ?? (st.ordered ? 'ordered' : (this.req as RequestInfo).mode === 'read' && st.read !== null ? 'read' : 'sold-out');
    this.awaiting = REQUEST_ENDED;
    this.req = null;
    this.lock = null;
    return null;
  }
}
