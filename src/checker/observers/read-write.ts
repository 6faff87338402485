/**
 * Read-write exclusion: readers may share a key's critical section, a writer may not share it
 * with anyone. Readers are the sections opened under a read lock (CriticalSection.shared);
 * every other section of the key is a writer's. Two writers at once are the holders
 * observer's double holders (holders.ts leaves readers out); this one counts the stretches
 * when a writer and at least one reader were inside together, each maximal stretch one
 * episode. A sweep over section starts and ends as holders.ts does it: the points of one
 * instant wait until the instant is over, then go ends first (a hand-over at one instant is no
 * overlap), starts by request.
 */
import type { SetupOp } from '../../history/operation.js';
import type { CriticalSection, Observer } from '../observer.js';
import type { Violation } from '../violations.js';

/** The read-write figures of RunMetrics (check-history.ts); absent where no reader ran. */
export interface ReadWriteFigures {
  readWriteOverlaps?: number;
  readWriteOverlapUs?: number;
}

interface KeyState {
  readers: CriticalSection[];
  writers: CriticalSection[];
  /** When the current episode began (-1: none). */
  episodeStartUs: number;
}

const overlapping = (k: KeyState): boolean => k.readers.length > 0 && k.writers.length > 0;

export class ReadWriteObserver implements Observer {
  readonly reads = [] as const;
  private episodes = 0;
  private totalUs = 0;
  private sawReader = false;
  private first: Violation | null = null;
  private readonly keys = new Map<string, KeyState>();
  private readonly points: Array<{ s: CriticalSection; delta: 1 | -1 }> = [];
  private bufferUs = -1;

  /** Nothing to set up: any key of a read-write lock may have readers. */
  setup(): void {}

  appliesTo(op: SetupOp): boolean {
    return op.readWrite === true;
  }

  sectionOpened(s: CriticalSection): void {
    if (s.shared) this.sawReader = true;
    this.add(s, 1, s.startUs);
  }

  sectionClosed(s: CriticalSection): void {
    this.add(s, -1, s.endUs);
  }

  instantEnded(): void {
    this.flush();
  }

  result(): ReadWriteFigures {
    return this.sawReader ? { readWriteOverlaps: this.episodes, readWriteOverlapUs: this.totalUs } : {};
  }

  violations(): Violation[] {
    return this.first ? [this.first] : [];
  }

  private add(s: CriticalSection, delta: 1 | -1, t: number): void {
    if (t !== this.bufferUs) this.flush();
    this.bufferUs = t;
    this.points.push({ s, delta });
  }

  private flush(): void {
    const points = this.points;
    if (points.length === 0) return;
    const t = this.bufferUs;
    points.sort((a, b) => (a.delta !== b.delta ? a.delta - b.delta : a.s.request < b.s.request ? -1 : a.s.request > b.s.request ? 1 : 0));
    for (const { s, delta } of points) this.point(s, delta, t);
    points.length = 0;
  }

  private point(s: CriticalSection, delta: number, t: number): void {
    // A section that ended at the instant it began overlaps nothing.
    if (s.endUs <= s.startUs) return;
    let k = this.keys.get(s.key);
    if (!k) {
      if (delta < 0) return;
      k = { readers: [], writers: [], episodeStartUs: -1 };
      this.keys.set(s.key, k);
    }
    const list = s.shared ? k.readers : k.writers;
    if (delta < 0) {
      const i = list.indexOf(s);
      if (i < 0) return;
      list.splice(i, 1);
      if (k.episodeStartUs >= 0 && !overlapping(k)) {
        this.totalUs += t - k.episodeStartUs;
        k.episodeStartUs = -1;
      }
      return;
    }
    list.push(s);
    if (k.episodeStartUs >= 0 || !overlapping(k)) return;
    k.episodeStartUs = t;
    this.episodes++;
    if (this.first !== null && this.first.timeUs <= t) return;
    const other = s.shared ? k.writers[0] : k.readers[0];
    this.first = {
      kind: 'read-write-overlap',
      timeUs: t,
      subject: s.key,
      requests: [other.request, s.request],
      summary: s.shared
        ? `${s.thread} (${s.request}) took the read lock of ${s.key} while the writer ${other.thread} (${other.request}) was still in its critical section`
        : `${s.thread} (${s.request}) took the write lock of ${s.key} while the reader ${other.thread} (${other.request}) was still in its critical section`,
    };
  }
}
