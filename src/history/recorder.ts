/**
 * Appends operations with their index and the current simulated time, hands each to the
 * listeners (the checker) and keeps the ones asked for: every operation, none
 * (memory bounded by what the listeners keep), or those a filter selects (the operations a
 * violation's story tells, on a re-run of the same seed).
 */
import type { FaultOp, Operation, OpType, RenewOp, RequestOutcome, TxnOp } from './operation.js';
import { FRESH_RECORDS, type RecordBuilder, type StockWrite } from './records.js';

export type Retention = 'all' | 'none' | ((op: Operation) => boolean);

export class HistoryRecorder {
  /** The operations kept (every one with retention 'all'). */
  readonly ops: Operation[] = [];
  /** Operations recorded, kept or not. */
  count = 0;
  private readonly listeners: Array<(op: Operation) => void> = [];
  private readonly keep: Retention;

  /**
   * `records`: how the record* methods build records: fresh (the default), or one refilled
   * record per kind (RecordBuilder.recycling(): only with retention 'none', and listeners
   * that copy what they keep).
   */
  constructor(
    private readonly now: () => number,
    keep: Retention = 'all',
    readonly records: RecordBuilder = FRESH_RECORDS,
  ) {
    if (records.recycles && keep !== 'none') throw new Error('a recorder that keeps records cannot refill them');
    this.keep = keep;
  }

  /** Called with every operation, in history order, as it is recorded. */
  listen(listener: (op: Operation) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Stamps the operation in place and appends it. Callers hand over a fresh object that
   * already declares `index` and `timeUs` (records.ts), so stamping changes no hidden class.
   */
  record(op: Operation): Operation {
    op.index = this.count++;
    op.timeUs = this.now();
    for (let i = 0; i < this.listeners.length; i++) this.listeners[i](op);
    const keep = this.keep;
    if (keep === 'all' || (keep !== 'none' && keep(op))) this.ops.push(op);
    return op;
  }

  // Each kind's record, built by `records` and recorded (records.ts has the fields). Written
  // out rather than as rest parameters: these run for every operation of a run.
  recordRequest(process: string, type: OpType, request: string, sku: number, qty: number, outcome: RequestOutcome | undefined): Operation {
    return this.record(this.records.request(process, type, request, sku, qty, outcome));
  }

  recordLock(
    process: string, type: OpType, f: 'acquire' | 'release', request: string, key: string,
    leaseMs: number | null | undefined, fence: number | undefined, detail: string | undefined, mode?: 'read',
  ): Operation {
    return this.record(this.records.lock(process, type, f, request, key, leaseMs, fence, detail, mode));
  }

  recordStockRead(
    process: string, type: OpType, request: string, sku: number, available: number | undefined, version: number | undefined,
    fence: number | undefined, forUpdate: boolean | undefined, txn: number | undefined, detail: string | undefined,
  ): Operation {
    return this.record(this.records.stockRead(process, type, request, sku, available, version, fence, forUpdate, txn, detail));
  }

  recordStockWrite(w: StockWrite, type: OpType, affected: number | undefined, detail: string | undefined): Operation {
    return this.record(this.records.stockWrite(w, type, affected, detail));
  }

  recordOrder(process: string, type: OpType, request: string, sku: number, qty: number, orderKey: string, txn: number | undefined, detail: string | undefined): Operation {
    return this.record(this.records.order(process, type, request, sku, qty, orderKey, txn, detail));
  }

  recordRenew(process: string, type: OpType, f: RenewOp['f'], request: string, detail: string): Operation {
    return this.record(this.records.renew(process, type, f, request, detail));
  }

  recordFault(fault: string, phase: FaultOp['phase'], target: string, detail: string): Operation {
    return this.record(this.records.fault(fault, phase, target, detail));
  }

  recordKeyState(node: string, key: string, holder: string | null, expiresAtUs: number | null, cause: string, by: string, previousHolder: string | null): Operation {
    return this.record(this.records.keyState(node, key, holder, expiresAtUs, cause, by, previousHolder));
  }

  recordTxn(request: string, owner: string, txn: number, outcome: TxnOp['outcome'], cause: TxnOp['cause']): Operation {
    return this.record(this.records.txn(request, owner, txn, outcome, cause));
  }
}
