/**
 * The relational database behind the shop: one stock row per SKU (available, version, the
 * highest fencing token seen) and an orders table with an optional unique order key.
 * Statements take a service time and apply atomically when they complete. Like InnoDB,
 * a statement that writes a row, and SELECT ... FOR UPDATE, takes the row's exclusive lock
 * first: writes to one hot row queue behind each other, which is what makes "every request
 * goes to the database" slow. In autocommit the lock goes with the statement; inside a
 * transaction it is held until COMMIT or ROLLBACK. A lock wait longer than
 * innodb_lock_wait_timeout (50 s, the MySQL default) fails the statement.
 *
 * Transactions follow the MySQL 8.0 Reference Manual, "InnoDB Locking and Transaction Model"
 * (https://dev.mysql.com/doc/refman/8.0/en/innodb-transaction-model.html):
 * - a transaction's row changes and order inserts are visible to other connections only at
 *   COMMIT; ROLLBACK restores the rows it changed and drops its inserts;
 * - plain SELECTs are consistent reads: they see the last committed version of a row, plus
 *   the reader's own changes ("Consistent Nonlocking Reads", innodb-consistent-read.html).
 *   The model is READ COMMITTED: every read takes a fresh snapshot. MySQL's default,
 *   REPEATABLE READ, keeps the snapshot of a transaction's first consistent read; the
 *   request flows read a row at most once per transaction (and the transactional guard
 *   reads with FOR UPDATE, a locking read of the latest committed version), so both levels
 *   give the same answers here;
 * - a lock wait timeout rolls back only the statement that waited (innodb_rollback_on_timeout
 *   is OFF by default), and so does a duplicate-key error ("InnoDB Error Handling",
 *   innodb-error-handling.html): the transaction stays open and the application decides;
 * - "If a session that has autocommit disabled ends without explicitly committing the final
 *   transaction, MySQL rolls back that transaction" ("autocommit, Commit, and Rollback",
 *   innodb-autocommit-commit-rollback.html): a client that dies rolls back its open
 *   transactions. A statement already executing when the connection drops still runs to its
 *   end (the server notices the closed socket when it next talks to the client); the
 *   rollback follows it.
 * - an insert whose unique order key another open transaction has inserted waits for that
 *   transaction to end ("If a duplicate-key error occurs, a shared lock on the duplicate
 *   index record is set", "Locks Set by Different SQL Statements in InnoDB",
 *   innodb-locks-set.html): a duplicate if it commits, inserted if it rolls back.
 */
import { TagSet } from '../engine/tag-set.js';
import { sample, type Distribution } from '../engine/distribution.js';
import type { ProcessGenerator } from '../engine/process.js';
import type { RandomStream } from '../engine/random.js';
import type { Simulation } from '../engine/simulation.js';
import { Signal, SignalWait, TIMED_OUT } from '../engine/signal.js';
import { Transaction, type OrderRow, type StockRow, type TransactionEnd, type TransactionEndCause } from './db-transaction.js';

export type { StockRow, TransactionEnd } from './db-transaction.js';

export type DbStatement =
  /** SELECT available, version FROM stock WHERE sku = ?  (with a token: rejected if stale, else raises the row's highest token) */
  | { kind: 'select-stock'; sku: number; fence?: number }
  /** SELECT ... FOR UPDATE: waits for the row lock and keeps it until the transaction ends. */
  | { kind: 'select-for-update'; sku: number }
  /** UPDATE stock SET available = ? WHERE sku = ?  (read-modify-write; with a token: AND max_fence <= token) */
  | { kind: 'set-stock'; sku: number; available: number; fence?: number }
  /** UPDATE stock SET available = ? WHERE sku = ? AND version = ?  (optimistic CAS) */
  | { kind: 'set-stock-if-version'; sku: number; available: number; version: number }
  /** UPDATE stock SET available = available - ? WHERE sku = ?  (no check: can go negative) */
  | { kind: 'decrement'; sku: number; qty: number }
  /** UPDATE stock SET available = available - ? WHERE sku = ? AND available >= ? */
  | { kind: 'deduct-if-available'; sku: number; qty: number }
  /** INSERT INTO orders (sku, qty, request, order_key) VALUES (...) */
  | { kind: 'insert-order'; sku: number; qty: number; requestTag: string; orderKey: string; uniqueKey: boolean }
  /** SELECT COUNT(*) FROM orders WHERE order_key = ?  (the idempotency check) */
  | { kind: 'count-orders'; orderKey: string }
  /** START TRANSACTION for the request `requestTag` (the history names the transaction's request). */
  | { kind: 'begin'; requestTag: string }
  | { kind: 'commit' }
  | { kind: 'rollback' };

export type DbResult =
  | { kind: 'row'; row: StockRow }
  | { kind: 'affected'; rows: number }
  /** BEGIN: the transaction's id, which the statements inside it are recorded with. */
  | { kind: 'begun'; txn: number }
  | { kind: 'error'; message: string };

interface DatabaseParams {
  statementTime: Distribution;
}

/** MySQL innodb_lock_wait_timeout default: 50 s. */
export const LOCK_WAIT_TIMEOUT_US = 50_000_000;

const LOCK_WAIT_TIMEOUT = 'Lock wait timeout exceeded; try restarting transaction';

interface RowLock {
  owner: string | null;
  /** `turn` fires true when the lock is handed over, false when the waiter's connection dropped. */
  waiters: Array<{ owner: string; txn: Transaction | null; turn: Signal<boolean> }>;
}

/**
 * The commonest results, one object each: results are only read, never changed or kept apart
 * from what they say (as the client host shares its commonest Redis outcomes).
 */
const AFFECTED_0: DbResult = { kind: 'affected', rows: 0 };
const AFFECTED_1: DbResult = { kind: 'affected', rows: 1 };

/** At most this many finished statements kept for refilling (more than the pools' connections). */
const SPARE_RUNS = 64;

const WRITES = new Set<DbStatement['kind']>(['set-stock', 'set-stock-if-version', 'decrement', 'deduct-if-available', 'select-for-update']);

/** The row a statement locks before it runs, or null. */
const lockedRowOf = (s: DbStatement): number | null => ('sku' in s && WRITES.has(s.kind) ? s.sku : null);

export class Database {
  /** The latest version of each row, uncommitted changes of a lock holder included (InnoDB's clustered index). */
  readonly stock = new Map<number, StockRow>();
  /**
   * Order keys committed (what the unique index and the idempotency check consult), one bit
   * each for the workload's numbered keys: a long run commits millions of orders. Nothing
   * reads an order row back, so only their count is kept.
   */
  private readonly orderKeys = new TagSet('o');
  /** Orders committed. */
  committedOrders = 0;
  /** Order keys inserted by a transaction still open. */
  private readonly pendingKeys = new Map<string, Transaction>();
  private readonly rowLocks = new Map<number, RowLock>();
  /** Open transactions by owner. */
  private readonly transactions = new Map<string, Transaction>();
  /** Rows changed by an open transaction (which holds their lock). */
  private readonly dirtyBy = new Map<number, Transaction>();
  private nextTxnId = 1;
  /** Statements whose result was read, refilled by `statement` (statementRead). */
  private readonly spareRuns: StatementRun[] = [];
  /** Multiplier on statement time (db-slow fault). */
  slowFactor = 1;
  /** Told of every COMMIT and ROLLBACK (the runner records them in the history). */
  onTransactionEnd: ((end: TransactionEnd) => void) | null = null;

  constructor(
    private readonly params: DatabaseParams,
    private readonly rng: RandomStream,
  ) {}

  addStock(sku: number, available: number): void {
    this.stock.set(sku, { available, version: 0, maxFence: 0 });
    this.rowLocks.set(sku, { owner: null, waiters: [] });
  }

  /**
   * Runs one statement for `owner` (a connection's current user) on a connection the
   * caller already holds: row lock if it writes, a service time, then the effect. The
   * returned signal fires with the result; the caller's process waits on it.
   *
   * The statement runs as world machinery, not as a process of its own: it starts with an
   * event at the current instant and completes with an event after its service time, the
   * events (and draws) a process spawned per statement had, in the same order. Only a wait
   * (a row lock held by another connection, a unique key another transaction inserted)
   * continues in a process (`waitingStatement`), started inside the event that found it
   * must wait. Most statements never wait: no process, generator or exit signal for them.
   */
  statement(sim: Simulation, statement: DbStatement, owner: string): Signal<DbResult> {
    const spare = this.spareRuns.pop();
    const run = spare === undefined ? new StatementRun(this, sim, statement, owner) : spare.reuse(sim, statement, owner);
    sim.schedule(0, run.step);
    return run;
  }

  /**
   * The caller read the result of `reply`, a statement of this database that it alone waited
   * for (world/thread-run.ts): a statement fires its result as its last event, so it is
   * refilled for a later statement instead of dropped.
   */
  statementRead(reply: Signal<DbResult>): void {
    if (reply instanceof StatementRun && this.spareRuns.length < SPARE_RUNS) this.spareRuns.push(reply);
  }

  /** @internal the statement's start event (run.phase 0) or the end of its service time (1). */
  advance(run: StatementRun): void {
    const statement = run.statement;
    if (run.phase === 1) {
      this.completeStatement(run);
      return;
    }
    if (statement.kind === 'begin') {
      // START TRANSACTION commits a transaction still open on the connection (MySQL 8.0
      // "Statements That Cause an Implicit Commit"); the request flows never leave one open.
      const open = this.transactions.get(run.owner);
      if (open) this.finish(open, 'commit', 'commit');
      const txn = new Transaction(this.nextTxnId++, run.owner, statement.requestTag);
      this.transactions.set(run.owner, txn);
      run.fire({ kind: 'begun', txn: txn.id });
      return;
    }
    const txn = this.transactions.get(run.owner) ?? null;
    run.txn = txn;
    if (txn) txn.busy = true;
    run.phase = 1;
    if (statement.kind !== 'commit' && statement.kind !== 'rollback') {
      const sku = lockedRowOf(statement);
      // A row lock that is free or already ours is taken in place; only a wait needs a process.
      if (sku !== null && !this.takeRowLockNow(sku, run.owner, txn)) {
        run.sim.startNow('database', this.waitingStatement(run, sku));
        return;
      }
    }
    run.sim.schedule(this.serviceTimeUs(), run.step);
  }

  /** After the service time: the statement's effect, unless it must wait for a unique key's owner. */
  private completeStatement(run: StatementRun): void {
    const statement = run.statement;
    if (statement.kind === 'insert-order' && statement.uniqueKey) {
      const holder = this.pendingKeys.get(statement.orderKey);
      if (holder && holder !== run.txn) {
        run.sim.startNow('database', this.waitingStatement(run, null));
        return;
      }
    }
    this.statementEnded(run, this.applyStatement(run));
  }

  /**
   * The rest of a statement that waits: for the row `sku`'s lock first (then its service time),
   * or (sku null) for the owner of its unique order key.
   */
  private *waitingStatement(run: StatementRun, sku: number | null): ProcessGenerator<void> {
    const statement = run.statement;
    let result: DbResult | null = null;
    if (sku !== null) {
      result = yield* this.lockRow(sku, run.owner, run.txn);
      if (result === null) yield this.serviceTimeUs();
    }
    if (result === null && statement.kind === 'insert-order' && statement.uniqueKey) {
      result = yield* this.waitForKeyOwner(statement.orderKey, run.txn);
    }
    this.statementEnded(run, result ?? this.applyStatement(run));
  }

  /** The statement's effect, its autocommit row lock released. */
  private applyStatement(run: StatementRun): DbResult {
    const statement = run.statement;
    const txn = run.txn;
    if (statement.kind === 'commit' || statement.kind === 'rollback') {
      // COMMIT or ROLLBACK outside a transaction does nothing; one the server received before
      // the connection dropped still runs.
      if (txn && this.transactions.get(run.owner) === txn) this.finish(txn, statement.kind, statement.kind);
      return AFFECTED_0;
    }
    const result = this.apply(statement, txn);
    const sku = lockedRowOf(statement);
    if (sku !== null && txn === null && this.rowLocks.get(sku)?.owner === run.owner) this.unlockRow(sku);
    return result;
  }

  /** The statement is over: a transaction doomed while it ran (its client died) rolls back; the caller hears the result. */
  private statementEnded(run: StatementRun, result: DbResult): void {
    const txn = run.txn;
    if (txn) {
      txn.busy = false;
      if (txn.doomed && this.transactions.get(run.owner) === txn) this.finish(txn, 'rollback', 'disconnect');
    }
    run.fire(result);
  }

  /** The row's lock is `owner`'s now without a wait (free, already its own, or no such row): true. */
  private takeRowLockNow(sku: number, owner: string, txn: Transaction | null): boolean {
    const lock = this.rowLocks.get(sku);
    if (!lock || lock.owner === owner) return true;
    if (lock.owner !== null) return false;
    lock.owner = owner;
    txn?.locked.add(sku);
    return true;
  }

  /** Takes the row's lock for `owner`, waiting in line; an error when the wait failed, else null. */
  private *lockRow(sku: number, owner: string, txn: Transaction | null): ProcessGenerator<DbResult | null> {
    if (this.takeRowLockNow(sku, owner, txn)) return null;
    const lock = this.rowLocks.get(sku) as RowLock;
    const waiter = { owner, txn, turn: new Signal<boolean>('row-lock') };
    lock.waiters.push(waiter);
    const r = yield new SignalWait(waiter.turn, LOCK_WAIT_TIMEOUT_US);
    if (r === true) return null;
    lock.waiters = lock.waiters.filter((w) => w !== waiter);
    // Only this statement fails; a transaction around it stays open (innodb_rollback_on_timeout OFF).
    return { kind: 'error', message: r === TIMED_OUT ? LOCK_WAIT_TIMEOUT : 'connection closed' };
  }

  /**
   * An insert whose unique key another open transaction inserted waits for it to end
   * (InnoDB's shared lock on the duplicate index record); an error if that takes longer than
   * the lock wait timeout, else null.
   */
  private *waitForKeyOwner(orderKey: string, txn: Transaction | null): ProcessGenerator<DbResult | null> {
    for (;;) {
      const holder = this.pendingKeys.get(orderKey);
      if (!holder || holder === txn) return null;
      const r = yield new SignalWait(holder.ended, LOCK_WAIT_TIMEOUT_US);
      if (r === TIMED_OUT) return { kind: 'error', message: LOCK_WAIT_TIMEOUT };
    }
  }

  /**
   * A client died: the database notices its dropped connections. Open transactions roll back
   * (after the statement they are running, if any); lock waits of the dead connections end.
   */
  abortOwners(prefix: string): void {
    for (const txn of [...this.transactions.values()]) {
      if (!txn.owner.startsWith(prefix)) continue;
      if (txn.busy) txn.doomed = true;
      else this.finish(txn, 'rollback', 'disconnect');
    }
    for (const lock of this.rowLocks.values()) {
      const gone = lock.waiters.filter((w) => w.owner.startsWith(prefix));
      if (gone.length === 0) continue;
      lock.waiters = lock.waiters.filter((w) => !w.owner.startsWith(prefix));
      for (const w of gone) w.turn.fire(false);
    }
  }

  /** COMMIT publishes the transaction's orders; ROLLBACK restores its rows. Either way its locks go. */
  private finish(txn: Transaction, outcome: 'commit' | 'rollback', cause: TransactionEndCause): void {
    if (this.transactions.get(txn.owner) === txn) this.transactions.delete(txn.owner);
    if (outcome === 'commit') {
      for (const order of txn.orders) this.commitOrder(order);
    } else {
      for (const [sku, before] of txn.undo) {
        const row = this.stock.get(sku);
        if (row) Object.assign(row, before);
      }
    }
    for (const order of txn.orders) if (this.pendingKeys.get(order.orderKey) === txn) this.pendingKeys.delete(order.orderKey);
    for (const sku of txn.undo.keys()) if (this.dirtyBy.get(sku) === txn) this.dirtyBy.delete(sku);
    for (const sku of txn.locked) if (this.rowLocks.get(sku)?.owner === txn.owner) this.unlockRow(sku);
    txn.ended.fire(true);
    this.onTransactionEnd?.({ txn: txn.id, owner: txn.owner, requestTag: txn.requestTag, outcome, cause });
  }

  private unlockRow(sku: number): void {
    const lock = this.rowLocks.get(sku);
    if (!lock) return;
    const next = lock.waiters.shift();
    lock.owner = next ? next.owner : null;
    if (next) {
      next.txn?.locked.add(sku);
      next.turn.fire(true);
    }
  }

  private serviceTimeUs(): number {
    return Math.round(sample(this.params.statementTime, this.rng) * this.slowFactor);
  }

  private commitOrder(order: OrderRow): void {
    this.orderKeys.add(order.orderKey);
    this.committedOrders++;
  }

  /** What `txn` (null: autocommit) reads of a row: its own changes, else the last committed version. */
  private visibleRow(sku: number, row: StockRow, txn: Transaction | null): StockRow {
    const writer = this.dirtyBy.get(sku);
    const committed = writer && writer !== txn ? writer.undo.get(sku) : undefined;
    return { ...(committed ?? row) };
  }

  /** Before `txn` changes a row: keep its before-image for ROLLBACK and other readers. */
  private touch(sku: number, row: StockRow, txn: Transaction | null): void {
    if (txn === null || txn.undo.has(sku)) return;
    txn.undo.set(sku, { ...row });
    this.dirtyBy.set(sku, txn);
  }

  /** Applies a statement's effect at once (its locks and waits are `statement`'s business). */
  apply(s: DbStatement, txn: Transaction | null = null): DbResult {
    if (s.kind === 'begin' || s.kind === 'commit' || s.kind === 'rollback') return AFFECTED_0;
    if (s.kind === 'count-orders') {
      const found = this.orderKeys.has(s.orderKey) || (txn?.hasOrderKey(s.orderKey) ?? false);
      return found ? AFFECTED_1 : AFFECTED_0;
    }
    if (s.kind === 'insert-order') {
      if (s.uniqueKey && (this.orderKeys.has(s.orderKey) || (txn?.hasOrderKey(s.orderKey) ?? false))) {
        return { kind: 'error', message: `Duplicate entry '${s.orderKey}' for key 'uk_order_key'` };
      }
      const order = { sku: s.sku, qty: s.qty, requestTag: s.requestTag, orderKey: s.orderKey };
      if (txn === null) this.commitOrder(order);
      else {
        txn.orders.push(order);
        if (!this.pendingKeys.has(s.orderKey)) this.pendingKeys.set(s.orderKey, txn);
      }
      return AFFECTED_1;
    }
    const row = this.stock.get(s.sku);
    if (!row) return { kind: 'error', message: `no stock row for sku ${s.sku}` };
    switch (s.kind) {
      case 'select-stock':
        if (s.fence !== undefined) {
          if (s.fence < row.maxFence) return { kind: 'error', message: `stale fencing token ${s.fence} < ${row.maxFence}` };
          if (s.fence > row.maxFence) {
            this.touch(s.sku, row, txn);
            row.maxFence = s.fence;
          }
        }
        return { kind: 'row', row: this.visibleRow(s.sku, row, txn) };
      case 'select-for-update':
        // A locking read: the latest version, which no other transaction can be changing.
        return { kind: 'row', row: { ...row } };
      case 'set-stock':
        if (s.fence !== undefined && s.fence < row.maxFence) return AFFECTED_0;
        this.touch(s.sku, row, txn);
        if (s.fence !== undefined) row.maxFence = s.fence;
        row.available = s.available;
        row.version++;
        return AFFECTED_1;
      case 'set-stock-if-version':
        if (row.version !== s.version) return AFFECTED_0;
        this.touch(s.sku, row, txn);
        row.available = s.available;
        row.version++;
        return AFFECTED_1;
      case 'decrement':
        this.touch(s.sku, row, txn);
        row.available -= s.qty;
        row.version++;
        return AFFECTED_1;
      case 'deduct-if-available':
        if (row.available < s.qty) return AFFECTED_0;
        this.touch(s.sku, row, txn);
        row.available -= s.qty;
        row.version++;
        return AFFECTED_1;
    }
  }
}

/** One statement in the database, from its start to its result (the signal the caller waits on). */
class StatementRun extends Signal<DbResult> {
  /** 0: not started; 1: started (its service time under way, or waiting in `waitingStatement`). */
  phase = 0;
  /** The transaction it runs in (null: autocommit), known once it started. */
  txn: Transaction | null = null;
  /** The callback of its events (one per statement rather than one per event). */
  readonly step = (): void => this.db.advance(this);

  constructor(
    private readonly db: Database,
    public sim: Simulation,
    public statement: DbStatement,
    public owner: string,
  ) {
    super('statement');
  }

  /** Refills a statement whose result was fired and read (firing left it without waiters). */
  reuse(sim: Simulation, statement: DbStatement, owner: string): this {
    this.fired = false;
    this.value = undefined;
    this.phase = 0;
    this.txn = null;
    this.sim = sim;
    this.statement = statement;
    this.owner = owner;
    return this;
  }
}
