/**
 * Lock ownership, from what the servers say about lock keys (segments.ts: who held each key
 * on the authoritative server), against what the requests did (the ledger's critical
 * sections and lock work):
 * - lock lost: a critical section during which the key stopped being its request's
 *   (expired, deleted by someone else, or missing on a newly promoted primary), judged when
 *   the section ends (the segments that can matter to it have all begun by then);
 * - foreign unlock: a delete by a request that did not hold the key;
 * - stuck time: the key held by a request that can never release it (its process died, or it
 *   has no TTL and its holder has left the critical section), judged when a segment is final;
 * - orphan time (orphan-story.ts): the key held while no request of its owner works under it,
 *   judged when a segment is final. A request "works under" a key from the invocation of its
 *   acquire until its acquire failed, or until its release completed (ok, refused or
 *   unknown), its request ended, or its process crashed. The owner is the request for token
 *   locks and the thread for locks the server knows by thread (Redisson): then any request of
 *   that thread on the key counts. A hold on a node that is down (killed by primary-crash or
 *   redis-restart, until it is back) is no orphan time: it keeps nobody out, every request to
 *   that node fails for the node, not for the lock. Counting it made the figure depend on how
 *   soon the holder's client gave up on the dead node (a Jedis unlock fails at once and left
 *   the key "orphaned" until the promotion; a Redisson unlock waits its timeout and did not),
 *   and the real backend's key watch reads nothing of a killed server. A key that comes back
 *   with its node (AOF) counts again from then.
 * Times are summed over keys, up to the end of the run (the drain included). The first
 * violation of each kind is the earliest; ties go to the key whose list came first, then (for
 * lock lost) to the section that started first.
 */
import { multiLockKeys } from '../../history/multi-lock.js';
import type { FaultOp, KeyStateOp, Operation, SetupOp } from '../../history/operation.js';
import { Bag } from '../unordered-slots.js';
import type { CriticalSection, LedgerView, LockWork, Observer, RequestFacts } from '../observer.js';
import { SegmentStream, type KeySegments, type Segment } from '../segments.js';
import type { Violation } from '../violations.js';
import { orphanViolationOf } from './orphan-story.js';

type LiveSection = CriticalSection;

/** The lock-ownership figures of RunMetrics (check-history.ts). */
export interface OwnershipFigures {
  lockLost: number;
  foreignUnlocks: number;
  /** Summed over keys, up to the run's end (the drain included). */
  stuckLockUs: number;
  /** Time lock keys were held by an owner none of whose requests worked under them, summed over keys, drain included. */
  orphanLockUs: number;
}

/** A section that lost its lock (its violation is written only for the first: violations()). */
interface LostCandidate {
  lostAt: number;
  startUs: number;
  request: string;
  section: LiveSection;
}

interface OrphanCandidate {
  key: string;
  rank: number;
  seg: Segment;
  fromUs: number;
  work: LockWork | undefined;
}

export class OwnershipObserver implements Observer {
  readonly reads = ['key-state', 'fault'] as const;
  lockLost = 0;
  foreignUnlocks = 0;
  stuckUs = 0;
  orphanUs = 0;
  private firstLost: LostCandidate | null = null;
  private firstForeign: Violation | null = null;
  private firstStuck: { rank: number; violation: Violation } | null = null;
  private firstOrphan: OrphanCandidate | null = null;
  /** Sections of keys no server held yet, judged if one ever does: key -> count and the first. */
  private readonly unheld = new Map<string, { count: number; first: LostCandidate | null }>();
  /** Open critical sections per key (their earliest start bounds what segments are needed). */
  private readonly openByKey = new Map<string, Bag<LiveSection>>();
  /**
   * key -> the lock work under the key, in time order (orphans), when the owner is a thread:
   * an owner's work is the entries of its thread (a few threads, a few entries each: a
   * scan costs less than a Map per key). When the owner is the request, its work is the
   * request's one lock work (RequestFacts.work; a second acquire starts it over), read from
   * its facts.
   */
  private readonly windows = new Map<string, LockWork[]>();
  /** A multi-lock's works: the keys of its cart, under each of which it is listed. */
  private readonly cartKeys = new WeakMap<LockWork, string[]>();
  private byThread = false;
  private ledger: LedgerView | null = null;
  private segments: SegmentStream | null = null;
  private lists: ReadonlyMap<string, KeySegments> = new Map();
  /** Instant of each failover -> the node promoted then (an orphan's story names it). */
  private readonly promotions = new Map<number, string>();
  /**
   * Redis node -> the stretches it was killed (primary-crash, redis-restart; toUs Infinity
   * while still down), ascending. A segment is final once the history has passed its end, so
   * every stretch that began before then is known.
   */
  private readonly nodeDown = new Map<string, Array<{ fromUs: number; toUs: number }>>();

  setup(op: SetupOp, ledger: LedgerView): void {
    this.ledger = ledger;
    this.byThread = (op.lockOwner ?? 'request') === 'thread';
    this.segments = new SegmentStream(op.primary, op.lockNodes, op.quorum, {
      judge: (k, seg) => this.judge(k, seg),
      created: (k) => this.keyCreated(k),
      pin: (holder) => ledger.pin(holder, 1),
      unpin: (holder) => ledger.pin(holder, -1),
      horizonUs: (key) => this.horizonUs(key),
    });
    this.lists = this.segments.lists;
  }

  observe(op: Operation): void {
    if (op.f === 'key-state') this.keyState(op);
    else if (op.f === 'fault' && op.fault === 'failover') this.failover(op);
    else if (op.f === 'fault' && (op.fault === 'primary-crash' || op.fault === 'redis-restart')) this.nodeFault(op);
  }

  private nodeFault(op: FaultOp): void {
    let list = this.nodeDown.get(op.target);
    if (!list) this.nodeDown.set(op.target, (list = []));
    const last = list[list.length - 1];
    if (op.phase === 'start') list.push({ fromUs: op.timeUs, toUs: Infinity });
    else if (op.phase === 'end' && last && last.toUs === Infinity) last.toUs = op.timeUs;
  }

  private keyState(op: KeyStateOp): void {
    this.segments?.keyState(op);
    if (op.cause !== 'delete' || !isForeignDelete(op)) return;
    this.foreignUnlocks++;
    this.firstForeign ??= foreignUnlockViolation(op);
  }

  private failover(op: FaultOp): void {
    this.promotions.set(op.timeUs, op.target);
    this.segments?.failover(op);
  }

  runEnded(endUs: number): void {
    this.segments?.finish(endUs);
  }

  private get ctx(): LedgerView {
    return this.ledger as LedgerView;
  }

  /** Whether this still holds on to `w` (the ledger reuses a dropped request's object only when nothing does). */
  refersTo(w: RequestFacts): boolean {
    if (this.firstOrphan !== null && this.firstOrphan.work === w) return true;
    if (!this.byThread) return false;
    for (const key of this.cartKeys.get(w) ?? [w.key]) {
      const list = this.windows.get(key);
      if (list !== undefined && list.includes(w)) return true;
    }
    return false;
  }

  workStarted(w: LockWork): void {
    if (!this.byThread) return;
    // A multi-lock works under every key of its cart (its invocation names them: history/multi-lock.ts).
    const keys = multiLockKeys(w.detail);
    if (keys !== null) this.cartKeys.set(w, keys);
    for (const key of keys ?? [w.key]) {
      const list = this.windows.get(key);
      if (list) list.push(w);
      else this.windows.set(key, [w]);
    }
  }

  sectionOpened(s: LiveSection): void {
    let set = this.openByKey.get(s.key);
    if (!set) this.openByKey.set(s.key, (set = new Bag()));
    set.add(s);
  }

  /** Lock lost: judged when the section ends, against the key's segments so far. */
  sectionClosed(s: LiveSection): void {
    this.openByKey.get(s.key)?.delete(s);
    const k = this.lists.get(s.key);
    if (!k) {
      // No server has held this key yet; if one ever does, the section lost it from its start.
      if (s.endUs <= s.startUs) return;
      let u = this.unheld.get(s.key);
      if (!u) this.unheld.set(s.key, (u = { count: 0, first: null }));
      u.count++;
      const c = lostCandidate(s, s.startUs);
      if (u.first === null || lostBefore(c, u.first)) u.first = c;
      return;
    }
    const lostAt = firstMomentNotHeld(s, k.segments, k.head);
    if (lostAt === null) return;
    this.lockLost++;
    this.noteLost(lostCandidate(s, lostAt));
  }

  private noteLost(c: LostCandidate): void {
    if (this.firstLost === null || lostBefore(c, this.firstLost)) this.firstLost = c;
  }

  /** A server now holds a key that sections had already been inside of. */
  private keyCreated(k: KeySegments): void {
    const u = this.unheld.get(k.key);
    if (!u) return;
    this.unheld.delete(k.key);
    this.lockLost += u.count;
    if (u.first) this.noteLost(u.first);
  }

  /** The earliest instant an open or future section of `key` starts at. */
  private horizonUs(key: string): number {
    let t = this.ctx.nowUs;
    const open = this.openByKey.get(key);
    if (open) for (let i = 0; i < open.size; i++) t = Math.min(t, open.at(i).startUs);
    return t;
  }

  /** A final segment: its stuck time and its orphaned time. */
  private judge(k: KeySegments, seg: Segment): void {
    if (seg.endUs > seg.startUs) {
      this.judgeStuck(k, seg);
      this.judgeOrphan(k, seg);
    }
    this.pruneWindows(k);
  }

  private judgeStuck(k: KeySegments, seg: Segment): void {
    const from = this.stuckFrom(seg);
    const start = Math.max(seg.startUs, from);
    if (start >= seg.endUs) return;
    this.stuckUs += seg.endUs - start;
    const best = this.firstStuck;
    if (best === null || start < best.violation.timeUs || (start === best.violation.timeUs && k.rank < best.rank)) {
      this.firstStuck = { rank: k.rank, violation: stuckViolation(k.key, seg, start) };
    }
  }

  /**
   * From when a holder can no longer release its lock: its process died while the key was
   * held, before its request had finished (a request the crash cut short ends there: the
   * workload records it as lost, type info, at the crash); or the key has no TTL and its
   * holder has left its critical section (or never entered it).
   */
  private stuckFrom(seg: Segment): number {
    const f = this.ctx.facts(seg.holder);
    const request = f?.invoked ? f : undefined;
    let from = Infinity;
    const since = request ? request.invokeUs : seg.startUs;
    const client = f?.open ? f.open.client : f && f.csEndUs >= 0 ? f.csClient : request ? request.client : '';
    const crash = this.ctx.crashes.get(client)?.find((t) => t >= since);
    const finishedBefore = (t: number): boolean => request !== undefined && request.endUs >= 0 && request.endUs < t;
    if (crash !== undefined && !finishedBefore(crash)) from = crash;
    if (!seg.hasTtl) {
      // A section still open ends after this segment does, whenever it ends.
      const left = f?.open ? Infinity : f && f.csEndUs >= 0 ? f.csEndUs : request && request.endUs >= 0 ? request.endUs : Infinity;
      from = Math.min(from, left);
    }
    return from;
  }

  private judgeOrphan(k: KeySegments, seg: Segment): void {
    const f = this.ctx.facts(seg.holder);
    let t = seg.startUs;
    if (this.byThread) {
      const owner = f?.work?.thread ?? seg.holder;
      const covered = this.windows.get(k.key) ?? [];
      for (let i = 0; i < covered.length; i++) {
        const w = covered[i];
        if (w.thread !== owner) continue;
        if (w.fromUs >= seg.endUs) break;
        if (w.fromUs > t) this.noteOrphan(k, seg, t, w.fromUs, f);
        t = Math.max(t, w.toUs);
      }
    } else {
      // The request's own work, if it is under this key (pruning it once it ended before the
      // segment, as the thread lists are, would change nothing: it covers nothing then).
      const w = f?.work;
      if (w && w.key === k.key && w.fromUs < seg.endUs) {
        if (w.fromUs > t) this.noteOrphan(k, seg, t, w.fromUs, f);
        t = Math.max(t, w.toUs);
      }
    }
    if (t < seg.endUs) this.noteOrphan(k, seg, t, seg.endUs, f);
  }

  private noteOrphan(k: KeySegments, seg: Segment, fromUs: number, toUs: number, f: RequestFacts | undefined): void {
    const down = seg.node === undefined ? undefined : this.nodeDown.get(seg.node);
    for (const [from, to] of outsideDown(fromUs, toUs, down)) {
      this.orphanUs += to - from;
      const best = this.firstOrphan;
      if (best === null || from < best.fromUs || (from === best.fromUs && k.rank < best.rank)) {
        this.firstOrphan = { key: k.key, rank: k.rank, seg: { ...seg }, fromUs: from, work: f?.work ?? undefined };
      }
    }
  }

  /**
   * Work that ended before anything a pending or future segment of the key covers is dropped
   * (it covers nothing of those segments: later segments of a key start no earlier).
   */
  private pruneWindows(k: KeySegments): void {
    const list = this.windows.get(k.key);
    if (!list) return;
    const last = k.segments[k.segments.length - 1];
    const horizon = k.lastJudged || !last ? this.ctx.nowUs : Math.min(this.ctx.nowUs, last.startUs);
    let n = 0;
    for (let i = 0; i < list.length; i++) if (list[i].toUs > horizon) list[n++] = list[i];
    list.length = n;
  }

  result(): OwnershipFigures {
    return { lockLost: this.lockLost, foreignUnlocks: this.foreignUnlocks, stuckLockUs: this.stuckUs, orphanLockUs: this.orphanUs };
  }

  /** The first violation of each kind (lock lost, foreign unlock, stuck lock, orphaned lock). */
  violations(): Violation[] {
    const out: Violation[] = [];
    if (this.firstLost !== null) out.push(lockLostViolation(this.firstLost.section, this.firstLost.lostAt));
    if (this.firstForeign !== null) out.push(this.firstForeign);
    if (this.firstStuck !== null) out.push(this.firstStuck.violation);
    const o = this.firstOrphan;
    // The holder's lock work object, updated in place until the run ended (its last departure).
    if (o) out.push(orphanViolationOf(o.key, o.seg, o.fromUs, o.work, this.promotions.get(o.fromUs)));
    return out;
  }
}

function lostCandidate(s: LiveSection, lostAt: number): LostCandidate {
  return { lostAt, startUs: s.startUs, request: s.request, section: s };
}

/** Earliest loss first; ties by the sections' order (start, then request). */
function lostBefore(a: LostCandidate, b: LostCandidate): boolean {
  if (a.lostAt !== b.lostAt) return a.lostAt < b.lostAt;
  if (a.startUs !== b.startUs) return a.startUs < b.startUs;
  return a.request < b.request;
}

function lockLostViolation(cs: Pick<CriticalSection, 'thread' | 'request' | 'key'>, lostAt: number): Violation {
  return {
    kind: 'lock-lost',
    timeUs: lostAt,
    subject: cs.key,
    requests: [cs.request],
    summary: `${cs.thread} (${cs.request}) was inside its critical section but ${cs.key} on the primary was no longer its lock`,
  };
}

function foreignUnlockViolation(op: KeyStateOp): Violation {
  return {
    kind: 'foreign-unlock',
    timeUs: op.timeUs,
    subject: op.key,
    requests: [op.previousHolder as string, op.by],
    summary: `${op.by}'s unlock deleted ${op.key} on ${op.node}, which belonged to ${op.previousHolder}`,
  };
}

function stuckViolation(key: string, seg: Segment, start: number): Violation {
  return {
    kind: 'stuck-lock',
    timeUs: start,
    subject: key,
    requests: [seg.holder],
    summary: `${key} stayed held by ${seg.holder}, which could never release it${seg.hasTtl ? ' (until its TTL ran out)' : ' (no TTL)'}`,
  };
}

function isForeignDelete(op: KeyStateOp): boolean {
  return op.previousHolder !== null && op.by !== '' && op.by !== op.previousHolder;
}

/** Segments are in time order and do not overlap; those before `from` are not looked at. */
function firstMomentNotHeld(cs: Pick<CriticalSection, 'startUs' | 'endUs' | 'request'>, list: readonly Segment[], from = 0): number | null {
  let t = cs.startUs; // the request held the key from the section's start until t
  for (let i = from; i < list.length; i++) {
    const seg = list[i];
    if (t >= cs.endUs) return null;
    if (seg.endUs <= t) continue;
    if (seg.startUs > t || seg.holder !== cs.request) return t; // a gap, or someone else's
    t = seg.endUs;
  }
  return t < cs.endUs ? t : null;
}

/** The stretches of [fromUs, toUs) outside `down` (ascending; a stretch still open ends at Infinity). */
function outsideDown(fromUs: number, toUs: number, down: readonly { fromUs: number; toUs: number }[] | undefined): Array<[number, number]> {
  if (down === undefined || down.length === 0) return [[fromUs, toUs]];
  const pieces: Array<[number, number]> = [];
  let t = fromUs;
  for (const d of down) {
    if (d.toUs <= t) continue;
    if (d.fromUs >= toUs) break;
    if (d.fromUs > t) pieces.push([t, d.fromUs]);
    t = Math.max(t, d.toUs);
    if (t >= toUs) break;
  }
  if (t < toUs) pieces.push([t, toUs]);
  return pieces;
}
