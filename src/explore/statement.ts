/**
 * What an explore claims, in words: the bounded statement of a search that found nothing, the
 * PCT guarantee its schedules carry, and what it leaves unclaimed.
 *
 * The guarantee is the one Burckhardt, Kothari, Musuvathi and Nagarakatte prove for PCT ("A
 * Randomized Scheduler with Probabilistic Guarantees of Finding Bugs", ASPLOS 2010): for a program of at most n threads and k steps, one schedule finds a bug of depth d with
 * probability at least 1 / (n k^(d-1)). Here n is the threads the schedule saw (processes and
 * callback chains, engine/same-instant.ts) and k the steps its change points were drawn from
 * (the events of the same placement's run in scheduling order); the bound printed is the
 * smallest over the PCT schedules run. It is a statement about orders of same-instant events
 * at the fault placements tried, nothing more.
 */
import type { ExploreResult, LevelStats, PctStats } from './search.js';

/** A time to the microsecond: 10.000001s, 49ms, 7us. */
export function exactTime(us: number): string {
  if (us >= 1_000_000) return `${(us / 1_000_000).toFixed(6).replace(/\.?0+$/, '')}s`;
  if (us >= 1000) return `${(us / 1000).toFixed(3).replace(/\.?0+$/, '')}ms`;
  return `${us}us`;
}

/** 8.3%, 0.048%, 4.8e-7%. */
function formatPercent(p: number): string {
  const percent = p * 100;
  return `${percent >= 1 ? percent.toFixed(1) : percent >= 0.001 ? percent.toPrecision(2) : percent.toExponential(1)}%`;
}

/** 1/12 (8.3%), 1/2076 (0.048%). */
function formatProbability(p: number): string {
  return `1/${Math.round(1 / p)} (${formatPercent(p)})`;
}

const levelComplete = (l: LevelStats): boolean => l.tried >= l.placements && l.pctTried >= l.pctPlanned;

/** The most faults every placement of which was tried (-1: not even the run without faults). */
export function boundedFaults(r: ExploreResult, maxFaults: number): number {
  if (r.stoppedBy === 'complete') return maxFaults;
  let k = -1;
  for (const l of r.levels) {
    if (!levelComplete(l)) break;
    k = l.faults;
  }
  return k;
}

function pctText(pct: PctStats): string {
  if (pct.schedules === 0 || pct.minProbability === null) return 'orderings: as scheduled only';
  const over = pct.overSteps > 0 ? `; ${pct.overSteps} schedule(s) ran more than k events, whose later events the bound does not cover` : '';
  return `orderings: PCT depth ${pct.depth}, probability >= ${formatProbability(pct.minProbability)} per schedule${over}`;
}

/** One sentence on how the guarantee reads, for the line under a statement. */
export function pctGuarantee(pct: PctStats): string | null {
  if (pct.schedules === 0 || pct.minProbability === null) return null;
  const bound = pct.depth === 1 ? `a schedule of n <= ${pct.maxThreads} threads finds an ordering bug of depth 1 with probability >= 1/n` : `a schedule of n <= ${pct.maxThreads} threads and k <= ${pct.maxSteps} steps finds an ordering bug of depth ${pct.depth} with probability >= 1/(n k^${pct.depth - 1})`;
  const perPlacement = 1 - (1 - pct.minProbability) ** pct.rounds;
  const rounds = pct.rounds === 1 ? 'one PCT schedule' : `${pct.rounds} PCT schedules`;
  return `PCT (Burckhardt et al., ASPLOS 2010): ${bound}; with ${rounds} per placement, >= ${formatPercent(perPlacement)} at each placement`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function kindsText(r: ExploreResult): string {
  return r.templates.map((t) => t.label).join(', ');
}

/**
 * The bounded statement of a search without a violation:
 * "no violation with at most K faults of kinds ... at the N critical instants of this run
 * (M schedules, S distinct states; orderings: PCT depth d, probability >= p per schedule)".
 */
export function boundStatement(r: ExploreResult, maxFaults: number): string {
  const k = boundedFaults(r, maxFaults);
  const counts = `${plural(r.schedules, 'schedule')}, ${plural(r.distinctStates, 'distinct state')}; ${pctText(r.pct)}`;
  if (k < 0) return `no bound: the search stopped before the run without faults was judged (${counts})`;
  const where = k === 0 ? 'in the run without faults' : `of kinds ${kindsText(r)} at the ${r.baseInstants.total} critical instants of this run`;
  const claim = `no violation with at most ${plural(k, 'fault')} ${where} (${counts})`;
  if (k >= maxFaults) return claim;
  const open = r.levels.find((l) => l.faults === k + 1);
  const why = r.stoppedBy === 'time' ? '--time ran out' : 'the budget ran out';
  const progress = open === undefined ? '' : ` (${open.tried} of ${open.placements} placements, ${open.pctTried} of ${open.pctPlanned} PCT schedules)`;
  return `${claim}; ${why} among ${k + 1}-fault placements${progress}: nothing is claimed for ${k + 1} or more`;
}

/** What the statement does not claim. */
export function notClaimed(maxFaults: number, pct: PctStats): string {
  const orders = pct.schedules > 0 ? `orders of same-instant events beyond PCT depth ${pct.depth}` : 'other orders of same-instant events';
  return (
    `not claimed: other seeds (this run's arrivals and latencies only), fault instants between the ones tried, other fault parameters, ` +
    `more than ${plural(maxFaults, 'fault')}, ${orders}; merged runs (the same abstract states after their last fault) were extended once`
  );
}

/** Per level: placements tried, merged, PCT schedules. */
export function levelsText(r: ExploreResult): string {
  return r.levels
    .map((l) => {
      const fifo = l.faults === 0 ? 'the run without faults' : `${plural(l.faults, 'fault')}: ${l.tried} of ${l.placements} placements${l.merged > 0 ? ` (${l.merged} merged)` : ''}`;
      return l.pctPlanned > 0 ? `${fifo}, ${l.pctTried} of ${l.pctPlanned} PCT` : fifo;
    })
    .join('; ');
}

export function instantsText(r: ExploreResult): string {
  const kinds = Object.entries(r.baseInstants.byKind).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
  return `${r.baseInstants.total} critical instants in the run without faults${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}`;
}
