/**
 * The streaming checker: the same metrics and first violations as checkHistory (check.ts,
 * kept as its test oracle), computed while the run records its history, one operation at a
 * time. It keeps only what is still open: requests in flight, critical sections, lock work,
 * current lock holders per server, unjudged segments, transactions not yet ended, and the
 * instants' buffer of the double-holder sweep; plus counts per distinct latency (exact
 * percentiles) and one bit per request number (order keys already committed, for duplicate
 * orders; dropped requests), see compact.ts.
 *
 * A finished request's facts are dropped `graceUs` after it ended unless a server still names
 * it as a lock holder. Should the history name a dropped request again (a replica applying a
 * lock write long after the request ended, then promoted), the checker cannot judge the run
 * exactly: finish() returns null, having gone on to collect every request so named
 * (rerunKeeping), and the runner re-runs the seed keeping those requests' facts (runs are
 * deterministic). For histories the workload never records (a request invoked twice, a second
 * acquire by one request, operations out of time order) only the full history will do: the
 * runner re-runs the seed keeping it for the batch checker.
 */
import type { FaultOp, Operation, RequestOp, RequestOutcome } from '../history/operation.js';
import type { CheckResult } from './check.js';
import { ValueCounts } from './compact.js';
import { FencingStream } from './fencing.js';
import { clientOfThread, type LockDeparture } from './history-index.js';
import type { RequestStats } from './requests.js';
import { stockCounts, StockStream } from './stock.js';
import { FlashSaleConsumer } from './flash-sale.js';
import { HolderStream, type LiveSection } from './stream-holders.js';
import { OwnershipStream } from './stream-ownership.js';
import { RequestTable, requestNumber } from './request-table.js';
import { RequestTimes, StreamReq } from './stream-request.js';
import { SegmentStream } from './stream-segments.js';
import type { Violation } from './violations.js';

/**
 * One minute of simulated time. Measured over every casebook scenario, variant and seeds 1-50
 * (3,050 runs): no history names a finished request more than 51.0 s after it ended unless a
 * server still names it as holder (redlock-v4-hangs.yaml: a SET held in TCP retransmission
 * through the 40 s partition reaches its master 51 s after it was sent). With a grace of 60 s
 * no run declines; 30 s declines 49 of them, 20 s or less 95. A longer gap (a longer
 * partition: Linux retransmits for about 15 minutes, tcp_retries2 in the kernel's
 * Documentation/networking/ip-sysctl.rst) costs a re-run keeping the requests named
 * (rerunKeeping), never a wrong verdict.
 */
export const DEFAULT_GRACE_US = 60_000_000;

export interface StreamOptions {
  /** How long a finished request's facts are kept after it ended (simulated microseconds). */
  graceUs?: number;
  /** Requests whose facts are never dropped (a re-run's rerunKeeping). */
  keep?: ReadonlySet<string>;
}

/** Thrown inside the checker when the history names a request whose facts were dropped. */
class Forgotten extends Error {}

/** A request's facts (stream-request.ts): its own lock work too, its instants in the checker's column store. */
type Req = StreamReq;

export class StreamingChecker {
  private readonly graceUs: number;
  private readonly keep: ReadonlySet<string>;
  private incomplete: string | null = null;
  /** Set when keeping more requests' facts would not help (a history the workload never records). */
  private hopeless = false;
  /** Set once it gave up or gave its verdict: it hears nothing more. */
  private stopped = false;
  /** Requests the history named after their facts were dropped. */
  private readonly namedAgain = new Set<string>();
  private nowUs = 0;
  private endUs = 0;
  private durationUs = 0;
  private seen = 0;
  private lockOwner: 'request' | 'thread' = 'request';
  private stock: StockStream | null = null;
  /** Per-request consumers (request-consumer.ts), fed as each request ends. */
  private flashSale: FlashSaleConsumer | null = null;
  private readonly fencing = new FencingStream();
  private readonly holders = new HolderStream();
  private segments: SegmentStream | null = null;
  private ownership: OwnershipStream | null = null;
  /**
   * Requests by name (in flight, holding a lock, or finished within the grace), and the names
   * dropped: the thread's spare table (TABLES) if there is one, given back once the run is judged.
   */
  private reqs: RequestTable<Req> = TABLES.pop() ?? new RequestTable<Req>();
  /** The instants of the requests held, a slot each: the thread's spare store (STORES) if there is one. */
  private readonly times: RequestTimes = STORES.pop() ?? new RequestTimes();
  /**
   * Finished requests in the order they may be dropped, and when (a list of numbers beside
   * it: the check made each time time moves on reads no request, whose object is long out of
   * the processor's cache by then).
   */
  private readonly retiring = new RetireQueue<Req>();
  /** The verdict once finish() gave it (the requests' objects have gone back to SPARE then). */
  private finished: { verdict: CheckResult | null } | null = null;
  private readonly crashes = new Map<string, number[]>();
  /** Redis node -> the stretches it was killed (primary-crash, redis-restart), as history-index.ts nodeDown. */
  private readonly nodeDown = new Map<string, Array<{ fromUs: number; toUs: number }>>();
  private readonly clients = new Map<string, string>();
  private readonly promotions = new Map<number, string>();
  private requests = 0;
  private readonly outcomes: RequestStats['outcomes'] = {
    ordered: 0, 'sold-out': 0, 'lock-busy': 0, 'lock-error': 0, conflict: 0, fenced: 0, duplicate: 0, 'already-ordered': 0, 'db-error': 0,
    overloaded: 0, unavailable: 0, unknown: 0,
  };
  private readonly latencies = new ValueCounts();
  private timeouts = 0;
  private renewals = 0;
  private renewalFailures = 0;

  constructor(options: StreamOptions = {}) {
    this.graceUs = options.graceUs ?? DEFAULT_GRACE_US;
    this.keep = options.keep ?? new Set();
  }

  /** Requests whose facts are held now (in flight, holding a lock, or finished within the grace). */
  get heldRequests(): number {
    return this.reqs.size;
  }

  /** Why the checker could not judge the run exactly (then finish() returns null). */
  get incompleteBecause(): string | null {
    return this.incomplete;
  }

  /**
   * After a decline, the requests a re-run must keep (StreamOptions.keep) to judge the same
   * history alone: the ones it was given and the ones the history named after their facts were
   * dropped; null when it judged the run, or when only the full history will do.
   */
  get rerunKeeping(): ReadonlySet<string> | null {
    if (this.hopeless || this.incomplete === null) return null;
    return new Set([...this.keep, ...this.namedAgain]);
  }

  /** Takes the next operation of the history (history order). */
  observe(op: Operation): void {
    if (this.stopped) return;
    try {
      this.take(op);
    } catch (err) {
      this.giveUp(err);
    }
  }

  private giveUp(err: unknown): void {
    // Once the verdict is withheld the checker goes on only to find the requests a re-run must
    // keep, on state that may be wrong: anything it trips over then ends that search too.
    if (!(err instanceof Forgotten) && this.incomplete === null) throw err;
    this.incomplete ??= err instanceof Error ? err.message : String(err);
    this.hopeless = true;
    this.stopped = true;
  }

  private take(op: Operation): void {
    // One read of each field an operation of any kind has (records of a dozen shapes: every
    // read here is a megamorphic lookup).
    const t = op.timeUs;
    if (t < this.nowUs) throw new Forgotten('the history goes back in time (it is judged in time order)');
    if (t > this.nowUs) {
      this.holders.flush();
      this.nowUs = t;
      this.retire();
    }
    this.endUs = Math.max(this.endUs, t);
    if (op.f === 'setup') return this.setup(op);
    if (this.seen++ === 0) this.setupMissing();
    // The stock and fencing checks hear only the kinds they read (each is independent of the
    // rest: the order in which they hear an operation does not matter).
    switch (op.f) {
      case 'request':
        return this.request(op);
      case 'acquire':
        if (op.type === 'info') this.timeouts++;
        if (op.type === 'invoke') return this.acquireInvoked(op.request, op.process, op.key, op.timeUs, op.detail);
        if (op.type === 'ok') {
          this.fencing.observe(op);
          this.openSection(op.request, op.process, op.key, op.timeUs);
          this.depart(op.request, 'kept', op.timeUs, op.detail);
        } else {
          this.stopWorking(op.request, op.timeUs);
          this.depart(op.request, op.type === 'info' ? 'acquire-unknown' : 'acquire-failed', op.timeUs, op.detail);
        }
        return;
      case 'release':
        if (op.type === 'info') this.timeouts++;
        if (op.type === 'invoke') return this.close(op.request, op.timeUs);
        this.stopWorking(op.request, op.timeUs);
        this.depart(op.request, op.type === 'ok' ? 'released' : op.type === 'info' ? 'release-unknown' : 'release-failed', op.timeUs, op.detail);
        return;
      case 'fault':
        return this.fault(op);
      case 'key-state':
        this.segments?.keyState(op);
        this.ownership?.observeKeyState(op);
        return;
      case 'renew':
        if (op.type === 'ok') this.renewals++;
        else this.renewalFailures++;
        return;
      case 'read-stock':
      case 'write-stock':
      case 'order':
      case 'txn':
        (this.stock as StockStream).observe(op);
        return;
      default:
        return;
    }
  }

  private setup(op: Extract<Operation, { f: 'setup' }>): void {
    if (this.seen++ > 0 || this.stock !== null) throw new Forgotten('the setup is not the first operation');
    const stock = new Map<number, number>();
    for (const s of op.stock) stock.set(s.sku, (stock.get(s.sku) ?? 0) + s.available);
    this.stock = new StockStream(stock);
    this.durationUs = op.durationUs;
    let stockUnits = 0;
    for (const n of stock.values()) stockUnits += n;
    this.flashSale = new FlashSaleConsumer({ stockUnits, durationUs: op.durationUs });
    this.lockOwner = op.lockOwner ?? 'request';
    const ownership: { o: OwnershipStream | null } = { o: null };
    this.segments = new SegmentStream(op.primary, op.lockNodes, op.quorum, {
      judge: (k, seg) => ownership.o?.judge(k, seg),
      created: (k) => ownership.o?.keyCreated(k),
      pin: (holder) => this.pin(holder, 1),
      unpin: (holder) => this.pin(holder, -1),
      horizonUs: (key) => ownership.o?.horizonUs(key) ?? this.nowUs,
    });
    this.ownership = ownership.o = new OwnershipStream(
      { lockOwner: this.lockOwner, facts: (request) => this.facts(request), crashes: this.crashes, nodeDown: this.nodeDown, nowUs: () => this.nowUs },
      this.segments.lists,
    );
  }

  private setupMissing(): void {
    throw new Forgotten('the history does not begin with its setup');
  }

  /** A request's facts, or undefined if the history never named it. */
  private facts(request: string): Req | undefined {
    const r = this.reqs.get(request);
    if (r === undefined && this.reqs.wasDropped(request)) {
      // No exact verdict now; the run goes on as if the name were new, to find every request
      // a re-run must keep (rerunKeeping).
      this.namedAgain.add(request);
      this.incomplete ??= `${request} is named again after its facts were dropped`;
    }
    return r;
  }

  private reqOf(request: string): Req {
    return this.facts(request) ?? this.newReq(request);
  }

  private newReq(request: string): Req {
    const r = SPARE.pop() ?? new StreamReq();
    r.refill(this.times, request, requestNumber(request));
    this.reqs.add(r);
    return r;
  }

  private pin(holder: string, delta: 1 | -1): void {
    const r = delta > 0 ? this.reqOf(holder) : this.reqs.get(holder);
    if (r) r.pins += delta;
  }

  private request(op: RequestOp): void {
    if (op.type === 'invoke') {
      let r = this.reqs.get(op.request);
      if (r?.invoked || this.reqs.wasDropped(op.request)) throw new Forgotten(`${op.request} is invoked twice`);
      r ??= this.newReq(op.request);
      r.invoked = true;
      r.client = op.process;
      r.invokeUs = op.timeUs;
      r.qty = op.qty;
      this.requests++;
      return;
    }
    const r = this.facts(op.request);
    if (r?.invoked) {
      if (r.endUs >= 0) throw new Forgotten(`${op.request} completes twice`);
      r.endUs = op.timeUs;
      if (op.type === 'info' || op.outcome === undefined) this.outcomes.unknown++;
      else {
        countOutcome(this.outcomes, op.outcome);
        this.latencies.add(op.timeUs - r.invokeUs);
      }
      // request-consumer.ts finished(), without an object per request.
      if (op.type === 'info' || op.outcome === undefined) this.flashSale?.answer(r.qty, r.invokeUs, null, 'unknown');
      else this.flashSale?.answer(r.qty, r.invokeUs, op.timeUs, op.outcome);
      this.retiring.push(r, op.timeUs + this.graceUs);
    }
    if (r === undefined) return;
    this.closeOf(r, op.timeUs);
    this.stopWorkingOf(r, op.timeUs);
    // Lost with its process while holding the lock or waiting for it (a SET that executed).
    const w = r.work;
    if (op.type === 'info' && w && (w.departure === 'kept' || w.departure === 'acquiring')) this.depart(op.request, 'died', op.timeUs);
  }

  private acquireInvoked(request: string, thread: string, key: string, atUs: number, detail: string | undefined): void {
    const r = this.reqOf(request);
    if (r.work !== null) throw new Forgotten(`${request} invokes a second acquire`);
    r.thread = thread;
    r.key = key;
    r.fromUs = atUs;
    r.toUs = Infinity;
    r.departure = 'acquiring';
    r.departureUs = atUs;
    r.detail = detail;
    r.work = r;
    this.ownership?.workStarted(r);
  }

  private openSection(request: string, thread: string, key: string, atUs: number): void {
    const r = this.reqOf(request);
    if (r.open !== null || r.csEndUs >= 0) throw new Forgotten(`${request} enters a second critical section`);
    const s: LiveSection = { request, thread, client: this.clientOf(thread), key, startUs: atUs, endUs: NaN };
    r.open = s;
    this.holders.start(s);
    this.ownership?.sectionOpened(s);
  }

  /** clientOfThread, one string per thread rather than one per section. */
  private clientOf(thread: string): string {
    let client = this.clients.get(thread);
    if (client === undefined) this.clients.set(thread, (client = clientOfThread(thread)));
    return client;
  }

  private close(request: string, atUs: number): void {
    const r = this.reqs.get(request);
    if (r !== undefined) this.closeOf(r, atUs);
  }

  /** Ends a request's open critical section, if it has one. */
  private closeOf(r: Req, atUs: number): void {
    const s = r.open;
    if (s === null) return;
    s.endUs = atUs;
    r.open = null;
    r.csEndUs = atUs;
    r.csClient = s.client;
    this.holders.end(s);
    this.ownership?.sectionClosed(s);
  }

  private stopWorking(request: string, atUs: number): void {
    const r = this.reqs.get(request);
    if (r !== undefined) this.stopWorkingOf(r, atUs);
  }

  /** Ends a request's lock work, if it is working (its work's end is open until then). */
  private stopWorkingOf(r: Req, atUs: number): void {
    const w = r.work;
    if (w !== null && w.toUs === Infinity) w.toUs = atUs;
  }

  private depart(request: string, departure: LockDeparture, atUs: number, detail?: string): void {
    const w = this.facts(request)?.work;
    if (!w) return;
    w.departure = departure;
    w.departureUs = atUs;
    w.detail = detail;
  }

  private fault(op: FaultOp): void {
    if (op.fault === 'crash' && op.phase === 'start') {
      const list = this.crashes.get(op.target);
      if (list) list.push(op.timeUs);
      else this.crashes.set(op.target, [op.timeUs]);
      // Sections and lock work of the crashed client end (in any order: the sweep and the
      // ownership checks do not depend on it).
      const held = this.reqs.list();
      for (const r of held) if (r.open !== null && r.open.client === op.target) this.closeOf(r, op.timeUs);
      for (const r of held) if (r.work !== null && r.work.toUs === Infinity && this.clientOf(r.work.thread) === op.target) this.stopWorkingOf(r, op.timeUs);
    } else if (op.fault === 'failover') {
      this.promotions.set(op.timeUs, op.target);
      this.segments?.failover(op);
    } else if (op.fault === 'primary-crash' || op.fault === 'redis-restart') {
      let list = this.nodeDown.get(op.target);
      if (!list) this.nodeDown.set(op.target, (list = []));
      const last = list[list.length - 1];
      if (op.phase === 'start') list.push({ fromUs: op.timeUs, toUs: Infinity });
      else if (op.phase === 'end' && last && last.toUs === Infinity) last.toUs = op.timeUs;
    }
  }

  /** Drops the facts of requests finished `graceUs` ago that nothing open names any more. */
  private retire(): void {
    const q = this.retiring;
    while (q.size > 0 && q.firstAtUs() <= this.nowUs) {
      const r = q.shift();
      if (r.pins > 0 || r.open !== null || (r.work !== null && r.work.toUs === Infinity)) {
        q.push(r, this.nowUs + Math.max(1, this.graceUs));
        continue;
      }
      if (this.keep.size > 0 && this.keep.has(r.id)) continue;
      this.reqs.drop(r);
      if (this.ownership?.refersTo(r) ?? false) r.detach(this.times);
      else {
        r.release(this.times);
        spare(r);
      }
    }
  }

  /** The verdict, or null when the run must be judged from its full history (incompleteBecause). */
  finish(): CheckResult | null {
    if (this.finished !== null) return this.finished.verdict;
    if (this.hopeless) return null;
    let verdict: CheckResult | null = null;
    // Every request held at the end (the verdict adds none and drops none).
    const held = this.reqs.list();
    try {
      verdict = this.verdict(held);
    } catch (err) {
      this.giveUp(err);
    }
    verdict = this.incomplete === null ? verdict : null;
    if (verdict !== null) {
      // Judged: nothing reads the requests' facts any more (the violations are written), and
      // the next run's checker refills their objects and uses the table again.
      this.finished = { verdict };
      this.stopped = true;
      // Their slots too: the store is emptied at once (a dropped request something still read
      // had moved its instants to a cell of its own: StreamReq.detach), and the objects let go
      // of its chunks (park), which a store not kept would otherwise outlive in them.
      for (let i = 0; i < held.length; i++) {
        held[i].park();
        spare(held[i]);
      }
      if (this.times.capacity <= MAX_STORE_SLOTS && STORES.length < MAX_TABLES) {
        this.times.clear();
        STORES.push(this.times);
      }
      const table = this.reqs;
      this.reqs = new RequestTable<Req>(1);
      if (table.reusable && TABLES.length < MAX_TABLES) {
        table.clear();
        TABLES.push(table);
      }
    }
    return verdict;
  }

  private verdict(held: readonly Req[]): CheckResult {
    if (this.stock === null || this.segments === null || this.ownership === null) throw new Forgotten('the history has no setup');
    const endUs = this.endUs;
    // Indexed loops: this runs once a run, before V8 optimizes it, and a for-of over an array
    // there allocates an iterator result per element.
    for (let i = 0; i < held.length; i++) this.closeOf(held[i], endUs);
    this.holders.flush();
    for (let i = 0; i < held.length; i++) this.stopWorkingOf(held[i], endUs);
    this.segments.finish(endUs);
    for (let i = 0; i < held.length; i++) {
      const r = held[i];
      if (!r.invoked || r.endUs >= 0) continue;
      this.outcomes.unknown++;
      this.flashSale?.answer(r.qty, r.invokeUs, null, 'unknown');
    }
    const stock = this.stock.finish();
    const own = this.ownership;
    const found = own.violations(this.promotions);
    const violations: Violation[] = [...stock.violations];
    for (const v of [found.lost, found.foreign, found.stuck]) if (v) violations.push(v);
    violations.push(...this.fencing.stats.violations);
    if (this.holders.first) violations.push(this.holders.first);
    if (found.orphan) violations.push(found.orphan);
    violations.sort((a, b) => a.timeUs - b.timeUs || (a.kind < b.kind ? -1 : 1));
    const latencies = this.latencies;
    const seconds = this.durationUs / 1e6;
    const h = this.holders;
    return {
      metrics: {
        requests: this.requests,
        orders: this.outcomes.ordered,
        unitsSold: stock.unitsOrdered,
        outcomes: this.outcomes,
        timeouts: this.timeouts,
        ...stockCounts(stock),
        staleTokens: this.fencing.stats.staleTokens,
        doubleHolders: h.episodes,
        doubleHolderUs: h.totalUs,
        firstDoubleHolderUs: h.firstStartUs,
        lastDoubleHolderUs: h.lastStartUs,
        maxHolders: h.maxHolders,
        lockLost: own.lockLost,
        foreignUnlocks: own.foreignUnlocks,
        stuckLockUs: own.stuckUs,
        orphanLockUs: own.orphanUs,
        renewals: this.renewals,
        renewalFailures: this.renewalFailures,
        throughputPerS: seconds > 0 ? round2(this.outcomes.ordered / seconds) : 0,
        requestsPerS: seconds > 0 ? round2(latencies.length / seconds) : 0,
        latencyP50Us: latencies.percentile(0.5),
        latencyP99Us: latencies.percentile(0.99),
        lostUnits: stock.lostUnits,
        flashSale: (this.flashSale as FlashSaleConsumer).result(),
      },
      violations,
    };
  }
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * `outcomes[outcome]++` as a switch: a keyed increment with a dozen different names goes
 * megamorphic in V8 (measured in Node 20 on this project's machine, a million increments:
 * about 100 ns each against a few for the switch).
 */
function countOutcome(c: RequestStats['outcomes'], outcome: RequestOutcome): void {
  switch (outcome) {
    case 'ordered':
      c.ordered++;
      return;
    case 'sold-out':
      c['sold-out']++;
      return;
    case 'lock-busy':
      c['lock-busy']++;
      return;
    case 'lock-error':
      c['lock-error']++;
      return;
    case 'conflict':
      c.conflict++;
      return;
    case 'fenced':
      c.fenced++;
      return;
    case 'duplicate':
      c.duplicate++;
      return;
    case 'already-ordered':
      c['already-ordered']++;
      return;
    case 'db-error':
      c['db-error']++;
      return;
    case 'overloaded':
      c.overloaded++;
      return;
    case 'unavailable':
      c.unavailable++;
      return;
    default:
      // A name the workload never records (a hand-written history): counted as before.
      c[outcome as keyof RequestStats['outcomes']]++;
  }
}

/**
 * Requests' objects no checker refers to any more, refilled by newReq: those dropped after
 * the grace that nothing else holds (OwnershipStream.refersTo), and every one a judged run
 * held at its end. A request's facts are kept a minute after it ended, so nearly every object
 * outlived a few of V8's young-generation scavenges, each of which copied it, and ended in the
 * old generation; a refilled object is copied by none. Measured on `compare
 * scenarios/failover.yaml` (load average 7-13, medians of interleaved runs of 10 seeds): a
 * grace of 3 s instead of 60 s (objects dying young) made a run about 12% cheaper in CPU time.
 * Shared by the checkers of one thread (runs follow one another), at most MAX_SPARE objects.
 */
const SPARE: Req[] = [];
const MAX_SPARE = 65_536;

/**
 * Request tables of judged runs, emptied, for the thread's next checkers: a new table's ring
 * (RequestTable) was about a tenth of what a short run's checker allocated.
 */
const TABLES: Array<RequestTable<Req>> = [];
const MAX_TABLES = 2;

/**
 * Instants' stores of judged runs, emptied, for the thread's next checkers (up to MAX_TABLES,
 * as the tables): a short run's store (a chunk of 1,024 slots, 48 KB) costs no new array then.
 * One that grew past MAX_STORE_SLOTS (a long run's, 768 KB and more) is left to the GC rather
 * than kept for runs that may never need it.
 */
const STORES: RequestTimes[] = [];
const MAX_STORE_SLOTS = 16_384;

function spare(r: Req): void {
  if (SPARE.length < MAX_SPARE) SPARE.push(r);
}

/** A FIFO of requests with the instants they may be dropped at: a ring that doubles when full (no array copied as it drains). */
class RetireQueue<T> {
  // 64 at first: a short run's queue stays short, and doubling costs a long one little.
  private items: Array<T | null> = new Array<T | null>(64).fill(null);
  private atUs = new Float64Array(64);
  private head = 0;
  size = 0;

  push(item: T, atUs: number): void {
    if (this.size === this.items.length) this.grow();
    const i = (this.head + this.size) & (this.items.length - 1);
    this.items[i] = item;
    this.atUs[i] = atUs;
    this.size++;
  }

  /** When the first item may be dropped (the queue is not empty). */
  firstAtUs(): number {
    return this.atUs[this.head];
  }

  /** Takes the first item (the queue is not empty). */
  shift(): T {
    const item = this.items[this.head] as T;
    this.items[this.head] = null;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.size--;
    return item;
  }

  private grow(): void {
    const n = this.items.length;
    const items = new Array<T | null>(n * 2).fill(null);
    const atUs = new Float64Array(n * 2);
    for (let k = 0; k < n; k++) {
      const i = (this.head + k) & (n - 1);
      items[k] = this.items[i];
      atUs[k] = this.atUs[i];
    }
    this.items = items;
    this.atUs = atUs;
    this.head = 0;
  }
}

