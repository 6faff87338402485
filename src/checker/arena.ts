/**
 * What the checkers of one thread hand on from one run to the next: the objects of requests'
 * facts, emptied request tables and instants' stores. The thread that runs the runs owns the
 * arena (a sweep's worker, a compare on the main thread) and hands it to each checker; a
 * checker given none starts empty and leaves nothing behind. Runs of one thread follow one
 * another, and a checker takes from the arena only while it runs and gives back once it has
 * judged, so one arena serves every checker of its thread.
 *
 * Why reuse at all: a request's facts are kept a minute after it ended (ledger.ts
 * DEFAULT_GRACE_US), so nearly every object outlived a few of V8's young-generation
 * scavenges, each of which copied it, and ended in the old generation; a refilled object is
 * copied by none. Measured on `compare scenarios/failover.yaml` (load average 7-13, medians of
 * interleaved runs of 10 seeds): a grace of 3 s instead of 60 s (objects dying young) made a
 * run about 12% cheaper in CPU time. A new table's ring was about a tenth of what a short
 * run's checker allocated, and a short run's store (a chunk of 1,024 slots, 48 KB) costs no
 * new array when it is reused.
 */
import { LedgerEntry, RequestTimes } from './ledger-entry.js';
import { RequestTable } from './request-table.js';

/** Facts' objects kept for refilling, at most. */
const MAX_SPARE = 65_536;
/** Tables and stores kept, at most (a thread runs one run at a time; a second is for a checker made before the first gave back). */
const MAX_TABLES = 2;
/**
 * A store that grew past this (a long run's, 768 KB and more) is left to the GC rather than
 * kept for runs that may never need it.
 */
const MAX_STORE_SLOTS = 16_384;

export class CheckerArena {
  private readonly spare: LedgerEntry[] = [];
  private readonly tables: Array<RequestTable<LedgerEntry>> = [];
  private readonly stores: RequestTimes[] = [];

  /** An object for a new request's facts (refill it). */
  entry(): LedgerEntry {
    return this.spare.pop() ?? new LedgerEntry();
  }

  /** An object nothing refers to any more (it holds no slot: released or parked). */
  giveEntry(e: LedgerEntry): void {
    if (this.spare.length < MAX_SPARE) this.spare.push(e);
  }

  table(): RequestTable<LedgerEntry> {
    return this.tables.pop() ?? new RequestTable<LedgerEntry>();
  }

  /** A judged run's table: emptied and kept if it is still small enough to be worth clearing. */
  giveTable(t: RequestTable<LedgerEntry>): void {
    if (!t.reusable || this.tables.length >= MAX_TABLES) return;
    t.clear();
    this.tables.push(t);
  }

  store(): RequestTimes {
    return this.stores.pop() ?? new RequestTimes();
  }

  /** A judged run's store, every slot free again (its entries are parked first). */
  giveStore(s: RequestTimes): void {
    if (s.capacity > MAX_STORE_SLOTS || this.stores.length >= MAX_TABLES) return;
    s.clear();
    this.stores.push(s);
  }

  /** Objects kept for reuse (for tests). */
  get spareEntries(): number {
    return this.spare.length;
  }
}
