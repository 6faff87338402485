/**
 * Mutual exclusion: for each lock key, the stretches of time when more requests were inside
 * their critical sections at once than the lock admits (two or more for a mutex; more than N
 * for a semaphore of N permits, setup's `permits`); each maximal stretch is one episode. A sweep over
 * the starts and ends of sections as the ledger tells them, with ends before starts at one
 * instant (a hand-over at one instant is no overlap): the points of the current instant wait
 * in a buffer until the instant is over, then go in that order. Only the sections still
 * open are kept.
 */
import type { SetupOp } from '../../history/operation.js';
import { Bag } from '../unordered-slots.js';
import type { CriticalSection, Observer } from '../observer.js';
import type { Violation } from '../violations.js';

type LiveSection = CriticalSection;

/**
 * The double-holder figures of RunMetrics (check-history.ts): of a mutex (a semaphore of one
 * permit included), or, for a semaphore of two or more, the permits-exceeded ones instead.
 */
export interface HolderFigures {
  doubleHolders: number;
  doubleHolderUs: number;
  /** When the first and last double-holder episodes began (-1: none). */
  firstDoubleHolderUs: number;
  lastDoubleHolderUs: number;
  maxHolders: number;
  /** A semaphore of N >= 2 permits: episodes of more than N holders at once, and their time (absent for a mutex). */
  permitsExceeded?: number;
  permitsExceededUs?: number;
}

interface KeyState {
  inside: Bag<LiveSection>;
  episodeStartUs: number;
  /** The key's first section (start, request): the first episode's ties go to the key that ranks first. */
  rankUs: number;
  rankRequest: string;
}

/** Points of one instant up to which an insertion sort orders them. */
const INSERTION_SORT_UP_TO = 16;

/** Ends before starts; starts by request (the order of points at one instant). */
function before(a: LiveSection, aDelta: number, b: LiveSection, bDelta: number): boolean {
  if (aDelta !== bDelta) return aDelta < bDelta;
  return aDelta > 0 && a.request < b.request;
}

export class HoldersObserver implements Observer {
  readonly reads = [] as const;
  episodes = 0;
  totalUs = 0;
  maxHolders = 0;
  firstStartUs = -1;
  lastStartUs = -1;
  first: Violation | null = null;
  /** How many requests may be inside at once: 1, or a semaphore's permits. */
  private limit = 1;
  private firstKey: KeyState | null = null;
  private readonly keys = new Map<string, KeyState>();
  /** The points of the current instant: a section and whether it starts (1) or ends (-1), kept in place (no object per point). */
  private readonly buffer: LiveSection[] = [];
  private readonly deltas: number[] = [];
  /** Points in the buffer (the arrays keep their length: setting it to 0 gave their storage back, to be grown again at the next instant). */
  private count = 0;
  private bufferUs = -1;

  setup(op: SetupOp): void {
    this.limit = op.permits ?? 1;
  }

  // A reader (a read lock's section) shares the key with other readers: read-write.ts judges it.
  sectionOpened(s: LiveSection): void {
    if (!s.shared) this.add(s, 1, s.startUs);
  }

  sectionClosed(s: LiveSection): void {
    if (!s.shared) this.add(s, -1, s.endUs);
  }

  instantEnded(): void {
    this.flush();
  }

  result(): HolderFigures {
    if (this.limit === 1) {
      return { doubleHolders: this.episodes, doubleHolderUs: this.totalUs, firstDoubleHolderUs: this.firstStartUs, lastDoubleHolderUs: this.lastStartUs, maxHolders: this.maxHolders };
    }
    // Two holders of a semaphore of N >= 2 permits are what it is for: only more than N count.
    return { doubleHolders: 0, doubleHolderUs: 0, firstDoubleHolderUs: -1, lastDoubleHolderUs: -1, maxHolders: this.maxHolders, permitsExceeded: this.episodes, permitsExceededUs: this.totalUs };
  }

  violations(): Violation[] {
    return this.first ? [this.first] : [];
  }

  private add(s: LiveSection, delta: 1 | -1, t: number): void {
    if (t !== this.bufferUs) this.flush();
    this.bufferUs = t;
    const i = this.count++;
    if (i < this.buffer.length) {
      this.buffer[i] = s;
      this.deltas[i] = delta;
    } else {
      this.buffer.push(s);
      this.deltas.push(delta);
    }
  }

  /** Takes in the points of the instant in the buffer. */
  flush(): void {
    const points = this.buffer;
    const deltas = this.deltas;
    const n = this.count;
    if (n === 0) return;
    const t = this.bufferUs;
    if (n > INSERTION_SORT_UP_TO) this.sortMany();
    // A stable insertion sort (the points of one instant are few), as Array.prototype.sort is.
    else for (let i = 1; i < n; i++) {
      const s = points[i];
      const d = deltas[i];
      let j = i - 1;
      while (j >= 0 && before(s, d, points[j], deltas[j])) {
        points[j + 1] = points[j];
        deltas[j + 1] = deltas[j];
        j--;
      }
      points[j + 1] = s;
      deltas[j + 1] = d;
    }
    this.count = 0;
    for (let i = 0; i < n; i++) this.point(points[i], deltas[i], t);
  }

  /** The buffer's order for many points at one instant (a crash ending every section of a client). */
  private sortMany(): void {
    const order = Array.from({ length: this.count }, (_, i) => i);
    const { buffer, deltas } = this;
    order.sort((a, b) => (before(buffer[a], deltas[a], buffer[b], deltas[b]) ? -1 : before(buffer[b], deltas[b], buffer[a], deltas[a]) ? 1 : 0));
    const sections = order.map((i) => buffer[i]);
    const ds = order.map((i) => deltas[i]);
    for (let i = 0; i < order.length; i++) {
      buffer[i] = sections[i];
      deltas[i] = ds[i];
    }
  }

  private point(s: LiveSection, delta: number, t: number): void {
    // A section that ended at the instant it began never overlaps anything (it still ranks its key).
    const empty = s.endUs <= s.startUs;
    let k = this.keys.get(s.key);
    if (!k) {
      if (delta < 0) return;
      // Keys rank by their first section (start, request): the first start heard at the first instant.
      k = { inside: new Bag(), episodeStartUs: -1, rankUs: t, rankRequest: s.request };
      this.keys.set(s.key, k);
    }
    if (empty) return;
    if (delta > 0) this.enter(k, s, t);
    else {
      if (k.inside.size === this.limit + 1) this.totalUs += t - k.episodeStartUs;
      k.inside.delete(s);
      if (k.inside.size === 0) k.episodeStartUs = -1;
    }
  }

  private enter(k: KeyState, s: LiveSection, t: number): void {
    const inside = k.inside;
    inside.add(s);
    if (inside.size === this.limit + 1) {
      k.episodeStartUs = t;
      this.episodes++;
      this.lastStartUs = Math.max(this.lastStartUs, t);
      if (this.first === null || t < this.first.timeUs || (t === this.first.timeUs && this.firstKey !== null && ranksBefore(k, this.firstKey))) {
        this.firstStartUs = t;
        this.firstKey = k;
        let other = s;
        for (let i = 0; i < inside.size; i++) if (inside.at(i) !== s) { other = inside.at(i); break; }
        this.first = this.limit === 1
          ? {
            kind: 'double-holder',
            timeUs: t,
            subject: s.key,
            requests: [other.request, s.request],
            summary: `${s.thread} (${s.request}) entered the critical section of ${s.key} while ${other.thread} (${other.request}) was still in it`,
          }
          : {
            kind: 'permits-exceeded',
            timeUs: t,
            subject: s.key,
            requests: [other.request, s.request],
            summary: `${s.thread} (${s.request}) entered the critical section of ${s.key} while its ${this.limit} permits were all held (${other.thread} (${other.request}) among them): ${inside.size} holders`,
          };
      }
    }
    this.maxHolders = Math.max(this.maxHolders, inside.size);
  }
}

function ranksBefore(a: KeyState, b: KeyState): boolean {
  return a.rankUs < b.rankUs || (a.rankUs === b.rankUs && a.rankRequest < b.rankRequest);
}
