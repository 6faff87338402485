/**
 * One constructor per kind of history record, each an object literal that declares every
 * field of its kind up front, `index` and `timeUs` first (the recorder fills those in place).
 * Every record of a kind then shares one V8 hidden class: records built by spreading a
 * template (`{...op, type}`) each got a shape of their own, and fields added after
 * construction went to an out-of-object property array. Measured on `compare
 * scenarios/failover.yaml` (see docs/benchmarks.md). Absent optional fields are `undefined`,
 * which JSON.stringify leaves out as it leaves out a missing field.
 */
import type { DiagnosticOp, FaultOp, KeyStateOp, LockOp, OpType, OrderOp, RenewOp, RequestOp, RequestOutcome, StockReadOp, StockWriteOp, TxnOp } from './operation.js';

/**
 * One record of each kind, refilled by its constructor while recycling is on. A run that
 * keeps no history (`compare`, `check`, `shrink`: runner/run.ts) hands each record to the
 * streaming checker and drops it: about a quarter of what a run of `compare
 * scenarios/failover.yaml` allocated was these records (V8's allocation sampler, collected
 * objects included), garbage that the young generation's scavenges then paid for.
 */
interface Recycled {
  request: RequestOp;
  lock: LockOp;
  stockRead: StockReadOp;
  stockWrite: StockWriteOp;
  order: OrderOp;
  renew: RenewOp;
  fault: FaultOp;
  keyState: KeyStateOp;
  txn: TxnOp;
}

let recycled: Recycled | null = null;
let scratch: Recycled | null = null;

/**
 * Turns recycling on or off. While it is on, a record is valid only until the next record of
 * its kind is built: whoever hears it (the recorder's listeners) copies what it keeps, and
 * the recorder must keep none (retention 'none'). Every call site hands the new record to
 * `recorder.record` at once, and a simulated run is synchronous from its start to its verdict,
 * so nothing else builds records while one is on its way.
 */
export function recycleRecords(on: boolean): void {
  recycled = on ? (scratch ??= scratchRecords()) : null;
}

/**
 * The refilled records: every kind's has every field of every kind, in one order, so all of
 * them share one V8 hidden class and what reads records of any kind (the recorder's stamping,
 * the streaming checker's dispatch) reads them through one shape instead of a dozen (a
 * megamorphic lookup per field read). Wider objects cost nothing here: there are nine. The
 * fields a kind does not have stay at these values; nothing reads them (a kept record, built
 * fresh, has only its own fields).
 */
function scratchRecords(): Recycled {
  const wide = (f: string, process = ''): never =>
    ({
      index: 0, timeUs: 0, process, type: 'info', f, request: '', key: '', sku: 0, qty: 0, outcome: undefined, leaseMs: undefined, fence: undefined,
      available: undefined, version: undefined, forUpdate: undefined, txn: undefined, mode: 'set', value: undefined, basedOn: undefined, affected: undefined,
      orderKey: '', fault: '', phase: 'event', target: '', node: '', holder: null, expiresAtUs: null, cause: '', by: '', previousHolder: null, owner: '',
      detail: undefined,
    }) as never;
  return {
    request: wide('request'),
    lock: wide('acquire'),
    stockRead: wide('read-stock'),
    stockWrite: wide('write-stock'),
    order: wide('order'),
    renew: wide('renew'),
    fault: wide('fault', 'nemesis'),
    keyState: wide('key-state'),
    txn: wide('txn', 'database'),
  };
}

export function requestRecord(process: string, type: OpType, request: string, sku: number, qty: number, outcome: RequestOutcome | undefined): RequestOp {
  if (recycled !== null) {
    const o = recycled.request;
    o.process = process;
    o.type = type;
    o.request = request;
    o.sku = sku;
    o.qty = qty;
    o.outcome = outcome;
    return o;
  }
  return { index: 0, timeUs: 0, process, type, f: 'request', request, sku, qty, outcome };
}

export function lockRecord(
  process: string, type: OpType, f: 'acquire' | 'release', request: string, key: string,
  leaseMs: number | null | undefined, fence: number | undefined, detail: string | undefined,
): LockOp {
  if (recycled !== null) {
    const o = recycled.lock;
    o.process = process;
    o.type = type;
    o.f = f;
    o.request = request;
    o.key = key;
    o.leaseMs = leaseMs;
    o.fence = fence;
    o.detail = detail;
    return o;
  }
  return { index: 0, timeUs: 0, process, type, f, request, key, leaseMs, fence, detail };
}

export function stockReadRecord(
  process: string, type: OpType, request: string, sku: number, available: number | undefined, version: number | undefined,
  fence: number | undefined, forUpdate: boolean | undefined, txn: number | undefined, detail: string | undefined,
): StockReadOp {
  if (recycled !== null) {
    const o = recycled.stockRead;
    o.process = process;
    o.type = type;
    o.request = request;
    o.sku = sku;
    o.available = available;
    o.version = version;
    o.fence = fence;
    o.forUpdate = forUpdate;
    o.txn = txn;
    o.detail = detail;
    return o;
  }
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
  if (recycled !== null) {
    const o = recycled.stockWrite;
    o.process = w.process;
    o.type = type;
    o.request = w.request;
    o.sku = w.sku;
    o.mode = w.mode;
    o.value = w.value;
    o.qty = w.qty;
    o.basedOn = w.basedOn;
    o.version = w.version;
    o.fence = w.fence;
    o.affected = affected;
    o.txn = w.txn;
    o.detail = detail;
    return o;
  }
  return {
    index: 0, timeUs: 0, process: w.process, type, f: 'write-stock', request: w.request, sku: w.sku, mode: w.mode, value: w.value, qty: w.qty,
    basedOn: w.basedOn, version: w.version, fence: w.fence, affected, txn: w.txn, detail,
  };
}

export function orderRecord(
  process: string, type: OpType, request: string, sku: number, qty: number, orderKey: string, txn: number | undefined, detail: string | undefined,
): OrderOp {
  if (recycled !== null) {
    const o = recycled.order;
    o.process = process;
    o.type = type;
    o.request = request;
    o.sku = sku;
    o.qty = qty;
    o.orderKey = orderKey;
    o.txn = txn;
    o.detail = detail;
    return o;
  }
  return { index: 0, timeUs: 0, process, type, f: 'order', request, sku, qty, orderKey, txn, detail };
}

export function renewRecord(process: string, type: OpType, f: RenewOp['f'], request: string, detail: string): RenewOp {
  if (recycled !== null) {
    const o = recycled.renew;
    o.process = process;
    o.type = type;
    o.f = f;
    o.request = request;
    o.detail = detail;
    return o;
  }
  return { index: 0, timeUs: 0, process, type, f, request, detail };
}

export function faultRecord(fault: string, phase: FaultOp['phase'], target: string, detail: string): FaultOp {
  if (recycled !== null) {
    const o = recycled.fault;
    o.fault = fault;
    o.phase = phase;
    o.target = target;
    o.detail = detail;
    return o;
  }
  return { index: 0, timeUs: 0, process: 'nemesis', type: 'info', f: 'fault', fault, phase, target, detail };
}

/** A server's lock-key fact (runner/run.ts): who holds `key` on `node` after a change. */
export function keyStateRecord(
  node: string, key: string, holder: string | null, expiresAtUs: number | null, cause: string, by: string, previousHolder: string | null,
): KeyStateOp {
  if (recycled !== null) {
    const o = recycled.keyState;
    o.process = node;
    o.node = node;
    o.key = key;
    o.holder = holder;
    o.expiresAtUs = expiresAtUs;
    o.cause = cause;
    o.by = by;
    o.previousHolder = previousHolder;
    return o;
  }
  return { index: 0, timeUs: 0, process: node, type: 'info', f: 'key-state', node, key, holder, expiresAtUs, cause, by, previousHolder };
}

/** The database ended a transaction (runner/run-kit.ts). */
export function txnRecord(request: string, owner: string, txn: number, outcome: TxnOp['outcome'], cause: TxnOp['cause']): TxnOp {
  if (recycled !== null) {
    const o = recycled.txn;
    o.request = request;
    o.owner = owner;
    o.txn = txn;
    o.outcome = outcome;
    o.cause = cause;
    return o;
  }
  return { index: 0, timeUs: 0, process: 'database', type: 'info', f: 'txn', request, owner, txn, outcome, cause };
}

/** A diagnostic of a client process (rare: built fresh, never recycled). */
export function diagnosticRecord(process: string, kind: DiagnosticOp['kind'], detail: string, frame?: string): DiagnosticOp {
  return { index: 0, timeUs: 0, process, type: 'info', f: 'diagnostic', kind, detail, frame };
}
