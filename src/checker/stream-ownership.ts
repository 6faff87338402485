/**
 * Lock ownership and orphaned holds, one operation at a time: the judgements of
 * lock-ownership.ts (lock lost, foreign unlock, stuck time) and orphans.ts (holds nobody works
 * under), made as soon as what they read is final. A critical section is judged when it
 * ends (the segments that can matter to it have all begun by then); a segment when it is
 * final (stuck and orphan time; its holder's facts are kept while it is pending). The first
 * violation of each kind is the one the batch checker would pick: the earliest, ties broken
 * in the batch checker's order of iteration.
 */
import type { KeyStateOp } from '../history/operation.js';
import { Bag } from './bag.js';
import type { LockWork } from './history-index.js';
import { firstMomentNotHeld, foreignUnlockViolation, isForeignDelete, lockLostViolation, stuckViolation, type Segment } from './lock-ownership.js';
import { orphanViolationOf, outsideDown } from './orphans.js';
import type { LiveSection } from './stream-holders.js';
import type { KeySegments } from './stream-segments.js';
import type { Violation } from './violations.js';

/** What the streaming checker knows of a request a segment may name as holder. */
export interface HolderFacts {
  /** Whether the history has its invocation (else it is only a name in lock operations). */
  invoked: boolean;
  client: string;
  invokeUs: number;
  /** Its completion, -1 while it runs. */
  endUs: number;
  /** Its latest lock work. */
  work: LockWork | null;
  /** Its critical section: the one open, or the end and client of the one closed (-1: none). */
  open: LiveSection | null;
  csEndUs: number;
  csClient: string;
}

export interface OwnershipContext {
  lockOwner: 'request' | 'thread';
  /** A request's facts; undefined if the history never named it (or they were dropped: then the checker withholds its verdict). */
  facts(request: string): HolderFacts | undefined;
  /** Crash times per client, ascending. */
  crashes: ReadonlyMap<string, readonly number[]>;
  /** Redis node -> the stretches it was down so far (toUs Infinity: still down), ascending (orphans.ts). */
  nodeDown: ReadonlyMap<string, readonly { fromUs: number; toUs: number }[]>;
  nowUs(): number;
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

export class OwnershipStream {
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
   * request's one lock work (HolderFacts.work; a second acquire is a history the checker
   * declines), read from its facts.
   */
  private readonly windows = new Map<string, LockWork[]>();
  private readonly byThread: boolean;

  constructor(
    private readonly ctx: OwnershipContext,
    private readonly lists: ReadonlyMap<string, KeySegments>,
  ) {
    this.byThread = ctx.lockOwner === 'thread';
  }

  observeKeyState(op: KeyStateOp): void {
    if (op.cause !== 'delete' || !isForeignDelete(op)) return;
    this.foreignUnlocks++;
    this.firstForeign ??= foreignUnlockViolation(op);
  }

  /** Whether this still holds on to `w` (the streaming checker reuses a dropped request's object only when nothing does). */
  refersTo(w: LockWork): boolean {
    if (this.firstOrphan !== null && this.firstOrphan.work === w) return true;
    if (!this.byThread) return false;
    const list = this.windows.get(w.key);
    return list !== undefined && list.includes(w);
  }

  workStarted(w: LockWork): void {
    if (!this.byThread) return;
    const list = this.windows.get(w.key);
    if (list) list.push(w);
    else this.windows.set(w.key, [w]);
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
  keyCreated(k: KeySegments): void {
    const u = this.unheld.get(k.key);
    if (!u) return;
    this.unheld.delete(k.key);
    this.lockLost += u.count;
    if (u.first) this.noteLost(u.first);
  }

  /** The earliest instant an open or future section of `key` starts at. */
  horizonUs(key: string): number {
    let t = this.ctx.nowUs();
    const open = this.openByKey.get(key);
    if (open) for (let i = 0; i < open.size; i++) t = Math.min(t, open.at(i).startUs);
    return t;
  }

  /** A final segment: its stuck time and its orphaned time. */
  judge(k: KeySegments, seg: Segment): void {
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

  /** lock-ownership.ts stuckFrom, from the holder's facts. */
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

  /**
   * A segment is final once the history has passed its end, so every stretch of its node's
   * downtime that began before then is known (one still open lasts past it).
   */
  private noteOrphan(k: KeySegments, seg: Segment, fromUs: number, toUs: number, f: HolderFacts | undefined): void {
    const down = seg.node === undefined ? undefined : this.ctx.nodeDown.get(seg.node);
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
    const horizon = k.lastJudged || !last ? this.ctx.nowUs() : Math.min(this.ctx.nowUs(), last.startUs);
    let n = 0;
    for (let i = 0; i < list.length; i++) if (list[i].toUs > horizon) list[n++] = list[i];
    list.length = n;
  }

  violations(promotions: ReadonlyMap<number, string>): { lost: Violation | null; foreign: Violation | null; stuck: Violation | null; orphan: Violation | null } {
    const o = this.firstOrphan;
    let orphan: Violation | null = null;
    // The holder's lock work object, updated in place until the run ended (its last departure).
    if (o) orphan = orphanViolationOf(o.key, o.seg, o.fromUs, o.work, promotions.get(o.fromUs));
    const lost = this.firstLost === null ? null : lockLostViolation(this.firstLost.section, this.firstLost.lostAt);
    return { lost, foreign: this.firstForeign, stuck: this.firstStuck?.violation ?? null, orphan };
  }
}

function lostCandidate(s: LiveSection, lostAt: number): LostCandidate {
  return { lostAt, startUs: s.startUs, request: s.request, section: s };
}

/** Earliest loss first; ties in the batch checker's order of sections (start, then request). */
function lostBefore(a: LostCandidate, b: LostCandidate): boolean {
  if (a.lostAt !== b.lostAt) return a.lostAt < b.lostAt;
  if (a.startUs !== b.startUs) return a.startUs < b.startUs;
  return a.request < b.request;
}

