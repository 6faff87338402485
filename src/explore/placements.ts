/**
 * Where a fault is tried: just before and just after each critical instant (one microsecond,
 * the clock's resolution), so that it ends just before or just after one (a pause, a
 * partition, a node down: start = instant - span), and midway between consecutive instants.
 * The list is ordered: instants concerning the fault's own host first (a crash of client-1
 * near client-1's commands, a primary crash near the primary's writes), before/after before
 * end-aligned before midpoints, and then by time, or, for a second or later fault, by the
 * distance from the fault before it (nearby first).
 */
import type { CriticalInstant } from './instants.js';
import type { FaultTemplate } from './templates.js';

export interface Placement {
  template: number;
  atUs: number;
  /** Why here: "just after redis-0: lock:stock:1 held by r1 (write)". */
  why: string;
}

/** The clock's resolution: the engine counts integer microseconds. */
const NUDGE_US = 1;

interface Candidate extends Placement {
  relevant: boolean;
  rank: number;
}

interface PlacementWindow {
  /** Faults may start at this time or later (the previous fault's time; 0 for the first). */
  fromUs: number;
  /** ... and up to this time (the scenario's duration: a fault may not start after the run). */
  untilUs: number;
  /** The previous fault (its template and time), or null for the first. */
  previous: { template: number; atUs: number } | null;
}

const isRelevant = (t: FaultTemplate, c: CriticalInstant): boolean => t.host === '' || c.hosts.includes(t.host);

export function placementsFor(templates: readonly FaultTemplate[], instants: readonly CriticalInstant[], w: PlacementWindow): Placement[] {
  const out = new Map<string, Candidate>();
  const offer = (t: FaultTemplate, atUs: number, why: string, relevant: boolean, rank: number): void => {
    if (atUs < w.fromUs || atUs > w.untilUs) return;
    // Faults are sets in time order: a second fault at the first's instant comes after it in template order.
    if (w.previous !== null && atUs === w.previous.atUs && t.id <= w.previous.template) return;
    const key = `${t.id}@${atUs}`;
    const had = out.get(key);
    if (had !== undefined && (had.relevant || !relevant) && had.rank <= rank) return;
    out.set(key, { template: t.id, atUs, why, relevant: relevant || (had?.relevant ?? false), rank: Math.min(rank, had?.rank ?? rank) });
  };
  const times = [...new Set(instants.map((c) => c.atUs))].sort((a, b) => a - b);
  for (const t of templates) {
    for (const c of instants) {
      const relevant = isRelevant(t, c);
      offer(t, c.atUs - NUDGE_US, `just before ${c.what}`, relevant, 0);
      offer(t, c.atUs + NUDGE_US, `just after ${c.what}`, relevant, 0);
      if (t.spanUs > 0) {
        offer(t, c.atUs - t.spanUs - NUDGE_US, `ending just before ${c.what}`, relevant, 1);
        offer(t, c.atUs - t.spanUs + NUDGE_US, `ending just after ${c.what}`, relevant, 1);
      }
    }
    for (let i = 1; i < times.length; i++) {
      const mid = Math.floor((times[i - 1] + times[i]) / 2);
      if (mid > times[i - 1] + NUDGE_US && mid < times[i] - NUDGE_US) offer(t, mid, 'midway between two instants', false, 2);
    }
  }
  const prev = w.previous;
  const order = (a: Candidate): number => (prev === null ? a.atUs : Math.abs(a.atUs - prev.atUs));
  return [...out.values()]
    .sort((a, b) => Number(b.relevant) - Number(a.relevant) || a.rank - b.rank || order(a) - order(b) || a.atUs - b.atUs || a.template - b.template)
    .map(({ template, atUs, why }) => ({ template, atUs, why }));
}
