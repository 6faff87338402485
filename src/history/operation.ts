/**
 * The history: every operation of a run, as Jepsen records it. Clients' operations have an
 * invoke and then ok (it happened), fail (it certainly did not) or info (unknown: a timeout,
 * or the process died). Faults and server-side facts are `info` operations of their own
 * processes ("nemesis", "redis-1", "sentinel"). The checker reads nothing else.
 */
export type OpType = 'invoke' | 'ok' | 'fail' | 'info';

interface Base {
  /** Position in the history. */
  index: number;
  timeUs: number;
  /** "client-1/w3", "nemesis", "redis-0", "sentinel". */
  process: string;
  type: OpType;
}

/** The initial state: stock per SKU and the lock keys' names. */
export interface SetupOp extends Base {
  f: 'setup';
  stock: Array<{ sku: number; available: number }>;
  primary: string;
  /** Redlock: the independent masters, and how many of them make a lock (else [] and 1). */
  lockNodes: string[];
  quorum: number;
  durationUs: number;
  /**
   * Whom the lock server knows as a lock's owner: each acquisition (absent or 'request': a
   * token lock) or the thread ('thread': Redisson's "<client uuid>:<thread id>" hash field, so
   * a thread's later request re-enters a lock its earlier request left behind).
   */
  lockOwner?: 'request' | 'thread';
  /**
   * A semaphore's permits: how many requests may hold a key at once (absent: a mutex, one).
   * Its servers' keys count permits and name no holder, so such a history has no key-state
   * records of its lock keys.
   */
  permits?: number;
  /** A fair lock (Redisson's RFairLock): its grants are judged against arrival order (observers/fairness.ts). */
  fair?: boolean;
  /** A read-write lock (Redisson's RReadWriteLock): its readers may share a key (observers/read-write.ts). */
  readWrite?: boolean;
  /** Requests take multi-locks of carts (RedissonMultiLock): their partial holds are judged (observers/partial-holds.ts). */
  multiLock?: boolean;
}

/** A shopper's request, from arrival at a client to its end. */
export interface RequestOp extends Base {
  f: 'request';
  request: string;
  sku: number;
  qty: number;
  /** On completion: what happened. */
  outcome?: RequestOutcome;
}

export type RequestOutcome =
  | 'ordered'
  | 'sold-out'
  | 'lock-busy'
  | 'lock-error'
  /** Optimistic CAS kept conflicting until its retries ran out ("system busy"). */
  | 'conflict'
  /** The storage refused a stale fencing token. */
  | 'fenced'
  /** The order insert hit the unique order key. */
  | 'duplicate'
  /** The idempotency check found the order already placed. */
  | 'already-ordered'
  | 'db-error'
  /** The client's queue was full. */
  | 'overloaded'
  /** The client process was down when the request arrived. */
  | 'unavailable'
  /** A reader (workload mode `read`) read the stock under a read lock; it orders nothing. */
  | 'read';

/** Lock acquisition (ok: the client believes it holds the lock) and release. */
export interface LockOp extends Base {
  f: 'acquire' | 'release';
  request: string;
  key: string;
  /** The lease the client asked for, in ms (null: none / watchdog-managed). */
  leaseMs?: number | null;
  /** The fencing token the lock handed out with this acquisition. */
  fence?: number;
  detail?: string;
  /** A read lock's acquisition (a read-write lock; absent: exclusive). */
  mode?: 'read';
}

/** Database statements that matter to the checker. */
export interface StockReadOp extends Base {
  f: 'read-stock';
  request: string;
  sku: number;
  available?: number;
  version?: number;
  /** The fencing token the read carried. */
  fence?: number;
  /** SELECT ... FOR UPDATE. */
  forUpdate?: boolean;
  /** The transaction the statement ran in (absent: autocommit). */
  txn?: number;
  detail?: string;
}

export interface StockWriteOp extends Base {
  f: 'write-stock';
  request: string;
  sku: number;
  /**
   * 'set': available := value (read-modify-write); 'cas': the same if the version is still
   * `version`; 'decrement': available -= qty unconditionally; 'deduct': available -= qty if
   * enough.
   */
  mode: 'set' | 'cas' | 'decrement' | 'deduct';
  value?: number;
  qty: number;
  /** For 'set' and 'cas': the value this write was computed from. */
  basedOn?: number;
  version?: number;
  fence?: number;
  affected?: number;
  /** The transaction the statement ran in (absent: autocommit, effective at once). */
  txn?: number;
  detail?: string;
}

export interface OrderOp extends Base {
  f: 'order';
  request: string;
  sku: number;
  qty: number;
  /** The shopper's order number: a resubmitted order carries the same one. */
  orderKey: string;
  /** The transaction the insert ran in (absent: autocommit, effective at once). */
  txn?: number;
  detail?: string;
}

/**
 * Server-side fact: the database ended a transaction. At a commit the effects of the
 * statements recorded with its `txn` become real; at a rollback they never happened. A
 * transaction with no end in the history was still open when the run ended (not committed).
 */
export interface TxnOp extends Base {
  f: 'txn';
  /** The request the transaction served. */
  request: string;
  /** The connection's user (the client thread). */
  owner: string;
  txn: number;
  outcome: 'commit' | 'rollback';
  /** The application's COMMIT or ROLLBACK, or its connection dropped (the client died). */
  cause: 'commit' | 'rollback' | 'disconnect';
}

/** A watchdog renewal, from the client's side. */
export interface RenewOp extends Base {
  f: 'renew';
  request: string;
  detail: string;
}

/** Server-side fact: who holds a lock key on a node, after a change. */
export interface KeyStateOp extends Base {
  f: 'key-state';
  node: string;
  key: string;
  /** The request holding the key now, or null when it is gone. */
  holder: string | null;
  /** Whether the key has a TTL; when it does, the simulated time it would expire at. */
  expiresAtUs: number | null;
  cause: string;
  /** The request whose command caused the change ('' for the server itself). */
  by: string;
  previousHolder: string | null;
}

/** A fault starting or healing, or a consequence of one (failover, client restart). */
export interface FaultOp extends Base {
  f: 'fault';
  fault: string;
  phase: 'start' | 'end' | 'event';
  target: string;
  detail: string;
}

/**
 * Something a client process's code did that is no request's outcome and would otherwise go
 * unseen: an exception thrown from a timer or an event handler, a promise rejection nobody
 * handled, a call the user-code sandbox refused, a watchdog or refresh loop that stopped.
 * `detail` is the error's first line; `frame`, when known, the first frame of user code
 * (`locks/x.mjs:12:5`). The checker lists them per kind and first text (issues 25 and 26).
 */
export interface DiagnosticOp extends Base {
  f: 'diagnostic';
  kind: 'uncaught' | 'unhandled-rejection' | 'refused-call' | 'watchdog-stop';
  detail: string;
  frame?: string;
}

/** The end of the run (after healing and draining): where open intervals close. */
interface EndOp extends Base {
  f: 'end';
}

export type Operation =
  | SetupOp
  | EndOp
  | RequestOp
  | LockOp
  | StockReadOp
  | StockWriteOp
  | OrderOp
  | RenewOp
  | KeyStateOp
  | FaultOp
  | TxnOp
  | DiagnosticOp;

export type History = readonly Operation[];

/** Distributes Omit over the union so each member keeps its own fields. */
type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never;
export type NewOperation = DistributiveOmit<Operation, 'index' | 'timeUs'>;
