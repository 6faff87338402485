/**
 * The ledger's facts of one request (LedgerEntry), with its six instants kept out of the
 * object, in a column store of the ledger's (RequestTimes, from the checker's arena): a slot
 * of six doubles per request held.
 *
 * Why: a JavaScript object's number field holds a small integer in place only while every
 * value it ever held fits in 31 bits; past 2^31 us (35.8 simulated minutes) V8 gives the field
 * a double representation, and then every object of that shape holds a separate 16-byte heap
 * number for it (a box, allocated with the object, copied by every scavenge that moves it).
 * `toUs` starts at Infinity, so it was a box from the first request. The checker holds a
 * minute of requests (DEFAULT_GRACE_US), about 60,000 objects at 1000 requests/s. Measured with
 * `node --trace-gc dist/bench/scale-probe.js 3600` (1 hour at 1000 requests/s, Node 20): the
 * live heap after each major GC went from 35.8-36.1 MB to 39.5-40.8 MB once times passed
 * 2^31 us, and the old generation grows to a few times its live size between major GCs (the
 * run's peak RSS 282 MB); with the instants here, 32.8-34.5 MB throughout (peak 259 MB). In a
 * Float64Array the instants take 48 bytes a request whatever their size, outside the objects
 * the GC copies and traces.
 */
import type { CriticalSection, LockDeparture, RequestFacts } from './observer.js';

/** Doubles per slot, in this order. */
const TIMES = 6;
const INVOKE = 0;
const END = 1;
const CS_END = 2;
const FROM = 3;
const TO = 4;
const DEPARTURE = 5;

/** Slots per chunk (48 KB of instants): a short run (a casebook scenario) holds a few hundred requests. */
const CHUNK_SLOTS = 1024;
const CHUNK_SHIFT = 10;
const CHUNK_MASK = CHUNK_SLOTS - 1;

/**
 * Six instants per slot, row by row (a request's six in one or two cache lines), in chunks
 * of CHUNK_SLOTS slots: a request holds its chunk (LedgerEntry.cell), which never moves, and
 * the store grows by a chunk without copying the others (an hour's run holds about 60 chunks).
 * Slots freed go on a stack and are given again first.
 */
export class RequestTimes {
  private readonly chunks: Float64Array[] = [];
  private readonly free: number[] = [];
  /** Slots ever given (the next one never given). */
  private next = 0;

  /** Slots in use. */
  get used(): number {
    return this.next - this.free.length;
  }

  /** The slots its chunks have room for. */
  get capacity(): number {
    return this.chunks.length * CHUNK_SLOTS;
  }

  /** A free slot, its instants those of a request not yet invoked (a new request's). */
  take(): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      if (this.next === this.capacity) this.chunks.push(new Float64Array(CHUNK_SLOTS * TIMES));
      slot = this.next++;
    }
    const us = this.cell(slot);
    const b = (slot & CHUNK_MASK) * TIMES;
    us[b + INVOKE] = 0;
    us[b + END] = -1;
    us[b + CS_END] = -1;
    us[b + FROM] = 0;
    us[b + TO] = Infinity;
    us[b + DEPARTURE] = 0;
    return slot;
  }

  /** The chunk that holds a slot's instants. */
  cell(slot: number): Float64Array {
    return this.chunks[slot >> CHUNK_SHIFT];
  }

  give(slot: number): void {
    this.free.push(slot);
  }

  /** Every slot free again (a judged run's store, for the next checker). */
  clear(): void {
    this.free.length = 0;
    this.next = 0;
  }
}

/** A detached request's own instants: one slot's worth, at slot 0. */
const OWN_CELL = TIMES;
const NO_CELL = new Float64Array(0);

/**
 * A request's facts, and its own lock work too (`work` is the request itself once it invoked
 * an acquire, null before): one object a request instead of two, most of them kept a minute
 * after the request ended (the grace). The instants are accessors over its slot of a RequestTimes.
 */
export class LedgerEntry implements RequestFacts {
  // What retire() reads of a request finished a minute ago (num, pins, open, work, its slot)
  // comes first, in the object's first cache line: by then the object is cold, and these
  // fields spread over the object cost a cache miss each (the line that checks them was about
  // a third of take()'s self time when the object had 21 fields).
  /** requestNumber(id), for the table (RequestTable's slot and dropped bit). */
  num = -1;
  pins = 0;
  open: CriticalSection | null = null;
  work: LedgerEntry | null = null;
  /** The chunk of its slot's instants (its own six after detach; none until refill). */
  cell: Float64Array = NO_CELL;
  slot = -1;
  id = '';
  qty = 0;
  invoked = false;
  client = '';
  csClient = '';
  thread = '';
  key = '';
  departure: LockDeparture = 'acquiring';
  detail: string | undefined = undefined;
  firstError: string | undefined = undefined;

  /** LockWork's name of the request: its own (a field less a request held). */
  get request(): string {
    return this.id;
  }

  get invokeUs(): number {
    return this.cell[(this.slot & CHUNK_MASK) * TIMES + INVOKE];
  }

  set invokeUs(us: number) {
    this.cell[(this.slot & CHUNK_MASK) * TIMES + INVOKE] = us;
  }

  /** Its completion, -1 while it runs. */
  get endUs(): number {
    return this.cell[(this.slot & CHUNK_MASK) * TIMES + END];
  }

  set endUs(us: number) {
    this.cell[(this.slot & CHUNK_MASK) * TIMES + END] = us;
  }

  get csEndUs(): number {
    return this.cell[(this.slot & CHUNK_MASK) * TIMES + CS_END];
  }

  set csEndUs(us: number) {
    this.cell[(this.slot & CHUNK_MASK) * TIMES + CS_END] = us;
  }

  get fromUs(): number {
    return this.cell[(this.slot & CHUNK_MASK) * TIMES + FROM];
  }

  set fromUs(us: number) {
    this.cell[(this.slot & CHUNK_MASK) * TIMES + FROM] = us;
  }

  get toUs(): number {
    return this.cell[(this.slot & CHUNK_MASK) * TIMES + TO];
  }

  set toUs(us: number) {
    this.cell[(this.slot & CHUNK_MASK) * TIMES + TO] = us;
  }

  get departureUs(): number {
    return this.cell[(this.slot & CHUNK_MASK) * TIMES + DEPARTURE];
  }

  set departureUs(us: number) {
    this.cell[(this.slot & CHUNK_MASK) * TIMES + DEPARTURE] = us;
  }

  /** Gives its slot back to the store it was taken from (it holds none until it is refilled). */
  release(times: RequestTimes): void {
    if (this.cell.length !== OWN_CELL) times.give(this.slot);
    this.park();
  }

  /**
   * Holds no slot and no chunk: a spared object kept a minute or a run must not keep a chunk
   * of a store that was dropped (a long run's, MAX_STORE_SLOTS in arena.ts) alive with it.
   */
  park(): void {
    this.slot = -1;
    this.cell = NO_CELL;
  }

  /**
   * Moves its instants to a cell of its own and gives its slot back: for a request dropped
   * from the checker's table that something still reads (the first orphan's lock work, a
   * thread's lock work not yet pruned). It is never refilled; the GC takes it with its cell.
   */
  detach(times: RequestTimes): void {
    const own = new Float64Array(OWN_CELL);
    const b = (this.slot & CHUNK_MASK) * TIMES;
    for (let k = 0; k < TIMES; k++) own[k] = this.cell[b + k];
    this.release(times);
    this.cell = own;
    this.slot = 0;
  }

  /** Fills a new object, or one given back (spare), for a new request, with a slot of `times`. */
  refill(times: RequestTimes, request: string, num: number): void {
    this.num = num;
    this.pins = 0;
    this.open = null;
    this.work = null;
    this.slot = times.take();
    this.cell = times.cell(this.slot);
    this.id = request;
    this.qty = 0;
    this.invoked = false;
    this.client = '';
    this.csClient = '';
    this.thread = '';
    this.key = '';
    this.departure = 'acquiring';
    this.detail = undefined;
    this.firstError = undefined;
  }
}
