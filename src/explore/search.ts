/**
 * The search. Level 0 is the run without faults: its critical instants (instants.ts) are
 * where level 1 places one fault of each template (placements.ts); each run of level L that
 * reached states no earlier run went through after its last fault is a parent of level L + 1,
 * which places one more fault at or after the last one, at that run's own instants (a fault
 * moves what follows it). Every schedule of a level runs in the order events were scheduled
 * (FIFO); then each parent of the level runs `rounds` PCT schedules (engine/pct.ts), which
 * reorder the events that share an instant. Levels go from 0 faults up to `maxFaults`, so
 * small fault counts come first, and within a level the placements near the fault's own host
 * and near the previous fault come first.
 *
 * The search stops at the first violation (or, with `all`, runs its whole budget and keeps
 * the first schedule of every distinct violation), when the budget of schedules is spent, when
 * `outOfTime` says so, or when every level is done. Outcomes are read in schedule order, so
 * the result does not depend on the pool's threads.
 */
import type { PctSchedule } from '../engine/pct.js';
import type { Scenario } from '../spec/scenario.js';
import { fingerprint } from './abstract-state.js';
import { INSTANT_KINDS, type CriticalInstant, type InstantKind } from './instants.js';
import type { Job, Outcome } from './job.js';
import { placementsFor, type Placement } from './placements.js';
import { templatesOf, type FaultTemplate } from './templates.js';
import type { ViolationCondition } from './violation.js';

export interface ExploreSettings {
  variant: string;
  maxFaults: number;
  /** Schedules at most. */
  budget: number;
  /** Fault kinds to place (empty: every kind of the templates). */
  kinds: readonly string[];
  conditions: readonly ViolationCondition[];
  pct: { depth: number; rounds: number; seed: number };
  /** Extend only one of the runs that went through the same states after their last fault. */
  merge: boolean;
  /** Keep going after the first violation: the first schedule of every distinct one. */
  all: boolean;
}

interface Runner {
  run(batch: readonly Job[]): Promise<Outcome[]>;
}

export type PlacedFault = Placement;

interface ScheduleRecord {
  /** 1-based, in the order the search ran them. */
  id: number;
  level: number;
  faults: PlacedFault[];
  order: PctSchedule | null;
}

export interface Found {
  schedule: ScheduleRecord;
  broken: string[];
  firstViolation: Outcome['firstViolation'];
  /** Schedules that showed this violation (with `all`). */
  count: number;
}

export interface LevelStats {
  faults: number;
  /** FIFO schedules of this level: placed, and run. */
  placements: number;
  tried: number;
  /** Runs of this level not extended: their states after the last fault were seen before. */
  merged: number;
  /** PCT schedules of this level: planned (parents x rounds), and run. */
  pctPlanned: number;
  pctTried: number;
}

export interface PctStats {
  depth: number;
  rounds: number;
  seed: number;
  schedules: number;
  /** The smallest 1 / (n k^(d-1)) over the PCT schedules run (null: none ran). */
  minProbability: number | null;
  maxThreads: number;
  maxSteps: number;
  /** PCT schedules that ran more events than their change points were drawn from (k). */
  overSteps: number;
}

export interface ExploreResult {
  variant: string;
  templates: FaultTemplate[];
  /** Templates from the scenario's faults (false: the default set for its topology). */
  fromScenario: boolean;
  /** Clients written without their numbers in states (interchangeable). */
  symmetric: boolean;
  baseInstants: { total: number; byKind: Record<InstantKind, number> };
  schedules: number;
  distinctStates: number;
  levels: LevelStats[];
  pct: PctStats;
  found: Found[];
  stoppedBy: 'violation' | 'budget' | 'time' | 'complete';
}

/**
 * k, the steps PCT draws its change points from: twice the events of the same placement's run in
 * scheduling order (a reordered run may take more events; PCT's bound needs k at least the
 * steps of the run, and counts the schedules where it was not: PctStats.overSteps). Depth 1
 * draws no change point, and k is then the run's events, which the bound does not use.
 */
function pctSteps(events: number, depth: number): number {
  return Math.max(1, depth > 1 ? 2 * events : events);
}

/** Schedules sent to the pool at once: large enough to keep every thread busy, small enough to waste little after a violation. */
const CHUNK = 16;

interface Node {
  record: ScheduleRecord;
  instants: CriticalInstant[] | null;
  events: number;
}

/**
 * Clients are interchangeable unless a script sends each its own requests: then which client
 * holds what decides what comes next.
 */
function clientsInterchangeable(scenario: Scenario): boolean {
  return scenario.workload.arrival.kind !== 'script' && scenario.workload.clients > 1;
}

export async function explore(scenario: Scenario, settings: ExploreSettings, runner: Runner, outOfTime: () => boolean = () => false): Promise<ExploreResult> {
  const { templates, fromScenario } = templatesOf(scenario, settings.kinds);
  const byId = new Map(templates.map((t) => [t.id, t]));
  const symmetric = clientsInterchangeable(scenario);
  const states = new Set<string>();
  const seenAfterFault = new Set<string>();
  const found = new Map<string, Found>();
  const levels: LevelStats[] = [];
  const pct: PctStats = { depth: settings.pct.depth, rounds: settings.pct.rounds, seed: settings.pct.seed, schedules: 0, minProbability: null, maxThreads: 0, maxSteps: 0, overSteps: 0 };
  let nextId = 1;
  let stoppedBy: ExploreResult['stoppedBy'] | null = null;
  let baseInstants: CriticalInstant[] = [];

  const jobOf = (r: ScheduleRecord, wantInstants: boolean): Job => ({
    id: r.id,
    variant: settings.variant,
    faults: r.faults.map((f) => ({ ...(byId.get(f.template) as FaultTemplate).spec, atUs: f.atUs })),
    order: r.order,
    wantInstants,
    conditions: settings.conditions,
    symmetric,
  });

  /** Runs `records` in chunks, in order; calls `take` with each outcome until the search stops. */
  const runAll = async (records: Iterable<Omit<ScheduleRecord, 'id'>>, wantInstants: boolean, take: (r: ScheduleRecord, o: Outcome) => void): Promise<void> => {
    let chunk: ScheduleRecord[] = [];
    const flush = async (): Promise<void> => {
      if (chunk.length === 0) return;
      const outcomes = await runner.run(chunk.map((r) => jobOf(r, wantInstants)));
      for (let i = 0; i < chunk.length && stoppedBy === null; i++) {
        const o = outcomes[i];
        for (const s of o.trajectory) states.add(s.state);
        if (o.broken.length > 0) {
          const signature = `${o.broken.join(' & ')}|${o.firstViolation?.kind ?? ''}`;
          const had = found.get(signature);
          if (had) had.count++;
          else found.set(signature, { schedule: chunk[i], broken: o.broken, firstViolation: o.firstViolation, count: 1 });
        }
        take(chunk[i], o);
        if (o.broken.length > 0 && !settings.all) stoppedBy = 'violation';
      }
      chunk = [];
      if (stoppedBy === null && outOfTime()) stoppedBy = 'time';
    };
    for (const r of records) {
      if (stoppedBy !== null) return;
      if (nextId > settings.budget) {
        await flush();
        if (stoppedBy === null) stoppedBy = 'budget';
        return;
      }
      chunk.push({ ...r, id: nextId++ });
      if (chunk.length >= CHUNK) await flush();
    }
    await flush();
  };

  const pctRounds = async (parents: readonly Node[], stats: LevelStats): Promise<void> => {
    stats.pctPlanned = parents.length * settings.pct.rounds;
    const records = function* (): Generator<Omit<ScheduleRecord, 'id'>> {
      for (let round = 1; round <= settings.pct.rounds; round++) {
        for (const p of parents) {
          yield {
            level: p.record.level,
            faults: p.record.faults,
            order: { seed: `${settings.pct.seed}.${p.record.id}.${round}`, depth: settings.pct.depth, steps: pctSteps(p.events, settings.pct.depth) },
          };
        }
      }
    };
    await runAll(records(), false, (r, o) => {
      stats.pctTried++;
      pct.schedules++;
      const order = r.order as PctSchedule;
      const n = Math.max(1, o.ordering?.threads ?? 1);
      const p = 1 / (n * order.steps ** (settings.pct.depth - 1));
      pct.minProbability = pct.minProbability === null ? p : Math.min(pct.minProbability, p);
      pct.maxThreads = Math.max(pct.maxThreads, n);
      pct.maxSteps = Math.max(pct.maxSteps, order.steps);
      // Without change points (depth 1) the bound does not depend on k.
      if (settings.pct.depth > 1 && (o.ordering?.steps ?? 0) > order.steps) pct.overSteps++;
    });
  };

  /** A FIFO run: counted, and kept as a parent unless its states after its last fault were seen. */
  const admit = (into: Node[], stats: LevelStats) => (r: ScheduleRecord, o: Outcome): void => {
    stats.tried++;
    const lastUs = r.faults.length === 0 ? 0 : r.faults[r.faults.length - 1].atUs;
    const key = fingerprint(o.trajectory.filter((s) => s.atUs >= lastUs).map((s) => s.state).join(','));
    if (r.level > 0 && settings.merge && seenAfterFault.has(key)) {
      stats.merged++;
      return;
    }
    seenAfterFault.add(key);
    if (o.broken.length > 0) return; // a violation is not extended: it is found
    into.push({ record: r, instants: o.instants, events: o.events });
  };

  // Level 0: the run without faults.
  const level0: LevelStats = { faults: 0, placements: 1, tried: 0, merged: 0, pctPlanned: 0, pctTried: 0 };
  levels.push(level0);
  let parents: Node[] = [];
  await runAll([{ level: 0, faults: [], order: null }], true, (r, o) => {
    baseInstants = o.instants ?? [];
    admit(parents, level0)(r, o);
  });
  if (stoppedBy === null) await pctRounds(parents, level0);

  for (let level = 1; level <= settings.maxFaults && stoppedBy === null && parents.length > 0; level++) {
    const stats: LevelStats = { faults: level, placements: 0, tried: 0, merged: 0, pctPlanned: 0, pctTried: 0 };
    levels.push(stats);
    const children: Node[] = [];
    // Every parent's placements, counted up front (the statement says how many a level has).
    const planned = parents.map((p) => {
      const last = p.record.faults[p.record.faults.length - 1];
      const placements = placementsFor(templates, p.instants ?? [], {
        fromUs: last?.atUs ?? 0,
        untilUs: scenario.durationUs,
        previous: last === undefined ? null : { template: last.template, atUs: last.atUs },
      });
      p.instants = null;
      return { parent: p, placements };
    });
    stats.placements = planned.reduce((n, p) => n + p.placements.length, 0);
    const records = function* (): Generator<Omit<ScheduleRecord, 'id'>> {
      for (const { parent, placements } of planned) {
        for (const pl of placements) yield { level, faults: [...parent.record.faults, pl], order: null };
      }
    };
    await runAll(records(), level < settings.maxFaults, admit(children, stats));
    if (stoppedBy === null && settings.pct.rounds > 0) await pctRounds(children, stats);
    parents = children;
  }
  if (stoppedBy === null) stoppedBy = 'complete';

  const byKind = Object.fromEntries(INSTANT_KINDS.map((k) => [k, 0])) as Record<InstantKind, number>;
  for (const c of baseInstants) byKind[c.kind]++;
  const schedules = levels.reduce((n, l) => n + l.tried + l.pctTried, 0);
  return {
    variant: settings.variant,
    templates,
    fromScenario,
    symmetric,
    baseInstants: { total: new Set(baseInstants.map((c) => c.atUs)).size, byKind },
    schedules,
    distinctStates: states.size,
    levels,
    pct,
    found: [...found.values()],
    stoppedBy,
  };
}
