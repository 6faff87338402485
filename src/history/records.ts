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
 * One record of each kind, refilled by a recycling builder. A run that keeps no history
 * (`compare`, `check`, `shrink`: runner/run.ts) hands each record to the checker and drops
 * it: about a quarter of what a run of `compare scenarios/failover.yaml` allocated was these
 * records (V8's allocation sampler, collected objects included), garbage that the young
 * generation's scavenges then paid for.
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

/**
 * The refilled records: every kind's has every field of every kind, in one order, so all of
 * them share one V8 hidden class and what reads records of any kind (the recorder's stamping,
 * the checker's dispatch) reads them through one shape instead of a dozen (a
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

/**
 * Refills the fields a request's records share (who, how it went, which request and SKU). One
 * function for every kind: the refilled records share one hidden class, so it stays monomorphic.
 */
function refillRequestFields(o: RequestOp | StockReadOp | StockWriteOp | OrderOp, process: string, type: OpType, request: string, sku: number): void {
  o.process = process;
  o.type = type;
  o.request = request;
  o.sku = sku;
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

/**
 * Builds the records of a run. A fresh builder (FRESH_RECORDS) makes a new object per record;
 * a recycling one (recycling()) refills one record per kind: a record it built is valid only
 * until it builds the next of its kind, so whoever hears it (the recorder's listeners) copies
 * what it keeps, and the recorder keeps none (retention 'none'). Each recorder has its own
 * builder (HistoryRecorder), every call site hands the new record to `recorder.record` at once,
 * and a simulated run is synchronous from its start to its verdict, so nothing else builds
 * records of that recorder while one is on its way.
 */
export class RecordBuilder {
  private constructor(private readonly recycled: Recycled | null) {}

  /** A builder of fresh records. */
  static fresh(): RecordBuilder {
    return new RecordBuilder(null);
  }

  /** A builder that refills one record of each kind. */
  static recycling(): RecordBuilder {
    return new RecordBuilder(scratchRecords());
  }

  get recycles(): boolean {
    return this.recycled !== null;
  }

  request(process: string, type: OpType, request: string, sku: number, qty: number, outcome: RequestOutcome | undefined): RequestOp {
    if (this.recycled !== null) {
      const o = this.recycled.request;
      refillRequestFields(o, process, type, request, sku);
      o.qty = qty;
      o.outcome = outcome;
      return o;
    }
    return { index: 0, timeUs: 0, process, type, f: 'request', request, sku, qty, outcome };
  }

  lock(
    process: string, type: OpType, f: 'acquire' | 'release', request: string, key: string,
    leaseMs: number | null | undefined, fence: number | undefined, detail: string | undefined, mode?: 'read',
  ): LockOp {
    if (this.recycled !== null) {
      const o = this.recycled.lock;
      o.process = process;
      o.type = type;
      o.f = f;
      o.request = request;
      o.key = key;
      o.leaseMs = leaseMs;
      o.fence = fence;
      o.detail = detail;
      o.mode = mode;
      return o;
    }
    // `mode` only on a read lock's records, so every other history reads as before.
    if (mode !== undefined) return { index: 0, timeUs: 0, process, type, f, request, key, leaseMs, fence, detail, mode };
    return { index: 0, timeUs: 0, process, type, f, request, key, leaseMs, fence, detail };
  }

  stockRead(
    process: string, type: OpType, request: string, sku: number, available: number | undefined, version: number | undefined,
    fence: number | undefined, forUpdate: boolean | undefined, txn: number | undefined, detail: string | undefined,
  ): StockReadOp {
    if (this.recycled !== null) {
      const o = this.recycled.stockRead;
      refillRequestFields(o, process, type, request, sku);
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

  stockWrite(w: StockWrite, type: OpType, affected: number | undefined, detail: string | undefined): StockWriteOp {
    if (this.recycled !== null) {
      const o = this.recycled.stockWrite;
      refillRequestFields(o, w.process, type, w.request, w.sku);
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

  order(
    process: string, type: OpType, request: string, sku: number, qty: number, orderKey: string, txn: number | undefined, detail: string | undefined,
  ): OrderOp {
    if (this.recycled !== null) {
      const o = this.recycled.order;
      refillRequestFields(o, process, type, request, sku);
      o.qty = qty;
      o.orderKey = orderKey;
      o.txn = txn;
      o.detail = detail;
      return o;
    }
    return { index: 0, timeUs: 0, process, type, f: 'order', request, sku, qty, orderKey, txn, detail };
  }

  renew(process: string, type: OpType, f: RenewOp['f'], request: string, detail: string): RenewOp {
    if (this.recycled !== null) {
      const o = this.recycled.renew;
      o.process = process;
      o.type = type;
      o.f = f;
      o.request = request;
      o.detail = detail;
      return o;
    }
    return { index: 0, timeUs: 0, process, type, f, request, detail };
  }

  fault(fault: string, phase: FaultOp['phase'], target: string, detail: string): FaultOp {
    if (this.recycled !== null) {
      const o = this.recycled.fault;
      o.fault = fault;
      o.phase = phase;
      o.target = target;
      o.detail = detail;
      return o;
    }
    return { index: 0, timeUs: 0, process: 'nemesis', type: 'info', f: 'fault', fault, phase, target, detail };
  }

  /** A server's lock-key fact (runner/run.ts): who holds `key` on `node` after a change. */
  keyState(
    node: string, key: string, holder: string | null, expiresAtUs: number | null, cause: string, by: string, previousHolder: string | null,
  ): KeyStateOp {
    if (this.recycled !== null) {
      const o = this.recycled.keyState;
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

  /** The database ended a transaction (runner/run-harness.ts). */
  txn(request: string, owner: string, txn: number, outcome: TxnOp['outcome'], cause: TxnOp['cause']): TxnOp {
    if (this.recycled !== null) {
      const o = this.recycled.txn;
      o.request = request;
      o.owner = owner;
      o.txn = txn;
      o.outcome = outcome;
      o.cause = cause;
      return o;
    }
    return { index: 0, timeUs: 0, process: 'database', type: 'info', f: 'txn', request, owner, txn, outcome, cause };
  }
}

/** Fresh records, for whoever builds a record outside a run's recorder (tests, rare records). */
export const FRESH_RECORDS = RecordBuilder.fresh();

export const requestRecord: RecordBuilder['request'] = (...a) => FRESH_RECORDS.request(...a);
export const renewRecord: RecordBuilder['renew'] = (...a) => FRESH_RECORDS.renew(...a);
export const faultRecord: RecordBuilder['fault'] = (...a) => FRESH_RECORDS.fault(...a);
export const keyStateRecord: RecordBuilder['keyState'] = (...a) => FRESH_RECORDS.keyState(...a);
export const txnRecord: RecordBuilder['txn'] = (...a) => FRESH_RECORDS.txn(...a);

/** A diagnostic of a client process (rare: built fresh, never recycled). */
export function diagnosticRecord(process: string, kind: DiagnosticOp['kind'], detail: string, frame?: string): DiagnosticOp {
  return { index: 0, timeUs: 0, process, type: 'info', f: 'diagnostic', kind, detail, frame };
}
