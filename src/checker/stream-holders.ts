/**
 * Double holders, one operation at a time: the same sweep as double-holders.ts, fed with the
 * starts and ends of critical sections as they are recorded. The batch sweep sorts every
 * point by time with ends before starts at one instant; here the points of the current
 * instant wait in a buffer until time moves on, then go in that order. Only the sections
 * still open are kept.
 */
import type { Violation } from './violations.js';

/** A critical section as the streaming checker tracks it (endUs NaN while it is open). */
export interface LiveSection {
  request: string;
  thread: string;
  client: string;
  key: string;
  startUs: number;
  endUs: number;
}

interface KeyState {
  inside: Set<LiveSection>;
  episodeStartUs: number;
  /** The key's first section (start, request): the batch sweep visits keys in that order. */
  rankUs: number;
  rankRequest: string;
}

interface Point {
  s: LiveSection;
  delta: 1 | -1;
}

const byRequest = (a: Point, b: Point): number => a.delta - b.delta || (a.delta < 0 ? 0 : a.s.request < b.s.request ? -1 : 1);

export class HolderStream {
  episodes = 0;
  totalUs = 0;
  maxHolders = 0;
  firstStartUs = -1;
  lastStartUs = -1;
  first: Violation | null = null;
  private firstKey: KeyState | null = null;
  private readonly keys = new Map<string, KeyState>();
  private buffer: Point[] = [];
  private bufferUs = -1;

  start(s: LiveSection): void {
    this.add({ s, delta: 1 }, s.startUs);
  }

  end(s: LiveSection): void {
    this.add({ s, delta: -1 }, s.endUs);
  }

  private add(p: Point, t: number): void {
    if (t !== this.bufferUs) this.flush();
    this.bufferUs = t;
    this.buffer.push(p);
  }

  /** Takes in the points of the instant in the buffer. */
  flush(): void {
    if (this.buffer.length === 0) return;
    const points = this.buffer;
    const t = this.bufferUs;
    this.buffer = [];
    points.sort(byRequest);
    for (const p of points) {
      // A section that ended at the instant it began never overlaps anything (it still ranks its key).
      const empty = p.s.endUs <= p.s.startUs;
      let k = this.keys.get(p.s.key);
      if (!k) {
        if (p.delta < 0) continue;
        // Sections sort by (start, request): the first start seen at the first instant ranks the key.
        k = { inside: new Set(), episodeStartUs: -1, rankUs: t, rankRequest: p.s.request };
        this.keys.set(p.s.key, k);
      }
      if (empty) continue;
      if (p.delta > 0) this.enter(k, p.s, t);
      else {
        if (k.inside.size === 2) this.totalUs += t - k.episodeStartUs;
        k.inside.delete(p.s);
        if (k.inside.size === 0) k.episodeStartUs = -1;
      }
    }
  }

  private enter(k: KeyState, s: LiveSection, t: number): void {
    k.inside.add(s);
    if (k.inside.size === 2) {
      k.episodeStartUs = t;
      this.episodes++;
      this.lastStartUs = Math.max(this.lastStartUs, t);
      if (this.first === null || t < this.first.timeUs || (t === this.first.timeUs && this.firstKey !== null && ranksBefore(k, this.firstKey))) {
        this.firstStartUs = t;
        this.firstKey = k;
        let other = s;
        for (const x of k.inside) if (x !== s) { other = x; break; }
        this.first = {
          kind: 'double-holder',
          timeUs: t,
          subject: s.key,
          requests: [other.request, s.request],
          summary: `${s.thread} (${s.request}) entered the critical section of ${s.key} while ${other.thread} (${other.request}) was still in it`,
        };
      }
    }
    this.maxHolders = Math.max(this.maxHolders, k.inside.size);
  }
}

function ranksBefore(a: KeyState, b: KeyState): boolean {
  return a.rankUs < b.rankUs || (a.rankUs === b.rankUs && a.rankRequest < b.rankRequest);
}
