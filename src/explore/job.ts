/**
 * One schedule of explore: the scenario with its faults placed at exact instants and, for a
 * PCT schedule, the order of same-instant events; run on the variant's default backend
 * (backends/default-backend.ts), keeping no history, its operations read as they are recorded
 * for the critical instants (when the schedule will be extended) and the abstract states. Plain data in and out: the worker pool runs it too.
 */
import { CheckerArena } from '../checker/arena.js';
import type { PctSchedule } from '../engine/pct.js';
import { runSimulated } from '../backends/default-backend.js';
import type { FaultSpec } from '../spec/faults.js';
import type { Scenario } from '../spec/scenario.js';
import { StateTracker } from './abstract-state.js';
import { InstantRecorder, type CriticalInstant } from './instants.js';
import { brokenBy, type ViolationCondition } from './violation.js';

export interface Job {
  /** The schedule's number (1-based, in explore's order). */
  id: number;
  variant: string;
  faults: FaultSpec[];
  order: PctSchedule | null;
  /** Record the run's critical instants (a schedule that will get another fault). */
  wantInstants: boolean;
  conditions: readonly ViolationCondition[];
  /** Write states with clients unnamed (they are interchangeable). */
  symmetric: boolean;
}

export interface Outcome {
  id: number;
  /** The violation conditions the run met (empty: none). */
  broken: string[];
  /** The checker's first violation, for the report ("double-holder on lock:stock:1 at 20.002s"). */
  firstViolation: { kind: string; timeUs: number; summary: string } | null;
  instants: CriticalInstant[] | null;
  /** Fingerprints of the abstract state after each instant, consecutive repeats dropped. */
  trajectory: Array<{ atUs: number; state: string }>;
  events: number;
  ordering: { threads: number; steps: number } | null;
}

/** The scenario a schedule runs: the same world with exactly these faults. */
export function withFaults(scenario: Scenario, faults: FaultSpec[]): Scenario {
  return { ...scenario, faults, randomFaults: [] };
}

/** This thread's checkers' arena (checker/arena.ts): the main thread's, or a pool worker's, for every schedule it runs. */
const arena = new CheckerArena();

export function runJob(scenario: Scenario, job: Job): Outcome {
  const variant = scenario.variants.find((v) => v.name === job.variant);
  if (!variant) throw new Error(`explore: no variant ${job.variant}`);
  const instants = job.wantInstants ? new InstantRecorder() : null;
  const states = new StateTracker(job.symmetric);
  const run = runSimulated(withFaults(scenario, job.faults), variant, scenario.seed, {
    history: 'none',
    arena,
    listen: (op) => {
      instants?.observe(op);
      states.observe(op);
    },
    ...(job.order === null ? {} : { order: job.order }),
  });
  states.finish();
  const broken = brokenBy(job.conditions, run.metrics);
  const v = run.violations[0];
  return {
    id: job.id,
    broken,
    firstViolation: broken.length > 0 && v ? { kind: v.kind, timeUs: v.timeUs, summary: v.summary } : null,
    instants: instants?.instants() ?? null,
    trajectory: states.trajectory,
    events: run.events,
    ordering: run.ordering ?? null,
  };
}
