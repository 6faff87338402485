/**
 * Mutual exclusion: for each lock key, the stretches of time when two or more requests were
 * inside their critical sections at once. Each maximal stretch is one episode.
 */
import type { CriticalSection } from './history-index.js';
import type { Violation } from './violations.js';

export interface DoubleHolderStats {
  episodes: number;
  totalUs: number;
  maxHolders: number;
  first: Violation | null;
  /** When the first and the last episode began (-1: none). */
  firstStartUs: number;
  lastStartUs: number;
}

export function findDoubleHolders(sections: readonly CriticalSection[]): DoubleHolderStats {
  const byKey = new Map<string, CriticalSection[]>();
  for (const s of sections) {
    const list = byKey.get(s.key) ?? [];
    list.push(s);
    byKey.set(s.key, list);
  }
  const stats: DoubleHolderStats = { episodes: 0, totalUs: 0, maxHolders: 0, first: null, firstStartUs: -1, lastStartUs: -1 };
  for (const [key, list] of byKey) {
    // Ends sort before starts at the same instant: a hand-over at one instant is not an overlap.
    const points: Array<{ t: number; delta: number; s: CriticalSection }> = [];
    for (const s of list) {
      if (s.endUs <= s.startUs) continue;
      points.push({ t: s.startUs, delta: 1, s }, { t: s.endUs, delta: -1, s });
    }
    points.sort((a, b) => a.t - b.t || a.delta - b.delta);
    const inside = new Set<CriticalSection>();
    let episodeStart = -1;
    for (const p of points) {
      if (p.delta > 0) {
        inside.add(p.s);
        if (inside.size === 2) {
          episodeStart = p.t;
          stats.episodes++;
          stats.lastStartUs = Math.max(stats.lastStartUs, p.t);
          if (stats.first === null || p.t < stats.first.timeUs) {
            stats.firstStartUs = p.t;
            const other = [...inside].find((x) => x !== p.s) as CriticalSection;
            stats.first = {
              kind: 'double-holder',
              timeUs: p.t,
              subject: key,
              requests: [other.request, p.s.request],
              summary: `${p.s.thread} (${p.s.request}) entered the critical section of ${key} while ${other.thread} (${other.request}) was still in it`,
            };
          }
        }
        stats.maxHolders = Math.max(stats.maxHolders, inside.size);
      } else {
        if (inside.size === 2) stats.totalUs += p.t - episodeStart;
        inside.delete(p.s);
      }
    }
  }
  return stats;
}
