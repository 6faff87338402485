/**
 * One constructor per kind of history record, each an object literal that declares every
 * field of its kind up front, `index` and `timeUs` first (the recorder fills those in place).
 * Every record of a kind then shares one V8 hidden class: records built by spreading a
 * template (`{...op, type}`) each got a shape of their own, and fields added after
 * construction went to an out-of-object property array. Measured on `compare
 * scenarios/failover.yaml` (see README, Benchmark). Absent optional fields are `undefined`,
 * which JSON.stringify leaves out as it leaves out a missing field.
 */
import type { FaultOp, LockOp, OpType, OrderOp, RenewOp, RequestOp, RequestOutcome, StockReadOp, StockWriteOp } from './operation.js';

export function requestRecord(process: string, type: OpType, request: string, sku: number, qty: number, outcome: RequestOutcome | undefined): RequestOp {
  return { index: 0, timeUs: 0, process, type, f: 'request', request, sku, qty, outcome };
}

export function lockRecord(
  process: string, type: OpType, f: 'acquire' | 'release', request: string, key: string,
  leaseMs: number | null | undefined, fence: number | undefined, detail: string | undefined,
): LockOp {
  return { index: 0, timeUs: 0, process, type, f, request, key, leaseMs, fence, detail };
}

export function stockReadRecord(
  process: string, type: OpType, request: string, sku: number, available: number | undefined, version: number | undefined,
  fence: number | undefined, forUpdate: boolean | undefined, txn: number | undefined, detail: string | undefined,
): StockReadOp {
  return { index: 0, timeUs: 0, process, type, f: 'read-stock', request, sku, available, version, fence, forUpdate, txn, detail };
}

/** The fields a stock write's invoke, ok and fail share. */
export interface StockWrite {
  process: string;
  request: string;
  sku: number;
  mode: StockWriteOp['mode'];
  value: number | undefined;
  qty: number;
  basedOn: number | undefined;
  version: number | undefined;
  fence: number | undefined;
  txn: number | undefined;
}

export function stockWriteRecord(w: StockWrite, type: OpType, affected: number | undefined, detail: string | undefined): StockWriteOp {
  return {
    index: 0, timeUs: 0, process: w.process, type, f: 'write-stock', request: w.request, sku: w.sku, mode: w.mode, value: w.value, qty: w.qty,
    basedOn: w.basedOn, version: w.version, fence: w.fence, affected, txn: w.txn, detail,
  };
}

export function orderRecord(
  process: string, type: OpType, request: string, sku: number, qty: number, orderKey: string, txn: number | undefined, detail: string | undefined,
): OrderOp {
  return { index: 0, timeUs: 0, process, type, f: 'order', request, sku, qty, orderKey, txn, detail };
}

export function renewRecord(process: string, type: OpType, f: RenewOp['f'], request: string, detail: string): RenewOp {
  return { index: 0, timeUs: 0, process, type, f, request, detail };
}

export function faultRecord(fault: string, phase: FaultOp['phase'], target: string, detail: string): FaultOp {
  return { index: 0, timeUs: 0, process: 'nemesis', type: 'info', f: 'fault', fault, phase, target, detail };
}
