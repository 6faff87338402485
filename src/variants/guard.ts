/**
 * Database write guards: what the request reads and the statement that deducts stock.
 * - `none`: read, then write back read - qty (read-modify-write: lost updates when two
 *   requests overlap);
 * - `decrement`: `available = available - qty` with no condition ("No master key for data safety" 1.3: stock goes
 *   negative);
 * - `conditional`: `... WHERE available >= qty` (the final SQL of "From setnx to Redisson": no oversell whatever
 *   the lock does);
 * - `version-cas`: `... WHERE version = <read>`; a conflict is retried a few times with
 *   backoff and jitter ("No master key for data safety" 4.1 and 4.4);
 * - `for-update`: SELECT ... FOR UPDATE in a transaction that holds the row lock until the
 *   request commits, or rolls back when a statement in it failed (MySQL 8.0 "Locking Reads",
 *   https://dev.mysql.com/doc/refman/8.0/en/innodb-locking-reads.html);
 * - `fenced-write`: writes carry the lock's fencing token and the storage refuses a token
 *   lower than the highest it has processed (Kleppmann, "How to do distributed locking",
 *   https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html: "the
 *   storage server remembers that it has already processed a write with a higher token
 *   number"); with `fence-check: reads-and-writes` reads carry it too, and are checked and
 *   raise the row's highest token like writes.
 */
import type { FenceCheck } from '../spec/variant.js';
import type { DbStatement, StockRow } from '../world/database.js';

export interface GuardContext {
  /** The fencing token of the lock held, if the lock hands them out. */
  fence: number | null;
  /** fenced-write: which statements carry the token. */
  fenceCheck: FenceCheck;
}

/** What zero affected rows means for this guard. */
type ZeroRowsMeaning = 'sold-out' | 'conflict' | 'fenced';

export interface Guard {
  readonly name: string;
  readonly summary: string;
  /** Whether deduct needs a read first (the read step is then mandatory). */
  readonly needsRead: boolean;
  /**
   * The read opens a transaction that holds the row lock until the request ends: COMMIT
   * before the unlock, ROLLBACK instead when a statement in it failed.
   */
  readonly transactional: boolean;
  readonly onZeroRows: ZeroRowsMeaning;
  /** Conflicts are retried (re-read, then write again) with backoff. */
  readonly retriesConflicts: boolean;
  readStatement(sku: number, ctx: GuardContext): DbStatement;
  deductStatement(sku: number, qty: number, read: StockRow | null, ctx: GuardContext): DbStatement;
}

function requireRead(guard: string, read: StockRow | null): StockRow {
  if (read === null) throw new Error(`guard ${guard} needs a read before deduct`);
  return read;
}

const plainRead = (sku: number): DbStatement => ({ kind: 'select-stock', sku });

const base = { needsRead: true, transactional: false, onZeroRows: 'sold-out' as ZeroRowsMeaning, retriesConflicts: false, readStatement: plainRead };

export const noGuard: Guard = {
  ...base,
  name: 'none',
  summary: 'read, then UPDATE stock SET available = <read - qty> (read-modify-write)',
  deductStatement(sku, qty, read) {
    return { kind: 'set-stock', sku, available: requireRead('none', read).available - qty };
  },
};

export const decrementGuard: Guard = {
  ...base,
  name: 'decrement',
  summary: 'UPDATE stock SET available = available - qty (no condition: can go negative)',
  needsRead: false,
  deductStatement(sku, qty) {
    return { kind: 'decrement', sku, qty };
  },
};

export const conditionalGuard: Guard = {
  ...base,
  name: 'conditional',
  summary: 'UPDATE stock SET available = available - qty WHERE available >= qty',
  needsRead: false,
  deductStatement(sku, qty) {
    return { kind: 'deduct-if-available', sku, qty };
  },
};

export const versionCasGuard: Guard = {
  ...base,
  name: 'version-cas',
  summary: 'UPDATE ... SET available = <read - qty>, version = version + 1 WHERE version = <read>; retry on conflict',
  onZeroRows: 'conflict',
  retriesConflicts: true,
  deductStatement(sku, qty, read) {
    const row = requireRead('version-cas', read);
    return { kind: 'set-stock-if-version', sku, available: row.available - qty, version: row.version };
  },
};

export const forUpdateGuard: Guard = {
  ...base,
  name: 'for-update',
  summary: 'BEGIN; SELECT ... FOR UPDATE; UPDATE available = <read - qty>; COMMIT at the end of the request (ROLLBACK if a statement failed)',
  transactional: true,
  readStatement: (sku) => ({ kind: 'select-for-update', sku }),
  deductStatement(sku, qty, read) {
    return { kind: 'set-stock', sku, available: requireRead('for-update', read).available - qty };
  },
};

export const fencedWriteGuard: Guard = {
  ...base,
  name: 'fenced-write',
  summary: 'writes (fence-check: reads-and-writes: reads too) carry the fencing token; storage refuses tokens below the highest processed',
  onZeroRows: 'fenced',
  readStatement: (sku, ctx) => (ctx.fenceCheck === 'reads-and-writes' ? { kind: 'select-stock', sku, fence: ctx.fence ?? 0 } : plainRead(sku)),
  deductStatement(sku, qty, read, ctx) {
    return { kind: 'set-stock', sku, available: requireRead('fenced-write', read).available - qty, fence: ctx.fence ?? 0 };
  },
};
