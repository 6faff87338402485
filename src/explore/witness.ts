/**
 * A violation explore found, made small and shown: its faults are dropped one at a time while
 * the run still breaks the same conditions (every fault left is needed: without any one of
 * them the run passes, as `lock-sim shrink` leaves a schedule), then it runs once more keeping
 * its history for the story and the timeline. A schedule is written as a replay spec,
 * `T@US[,T@US...][/pct:SEED:DEPTH:STEPS]` (template number at an exact microsecond, and the
 * PCT schedule if it had one), which `lock-sim explore --replay` runs again.
 */
import type { PctSchedule } from '../engine/pct.js';
import type { RunResult } from '../runner/run.js';
import { runSimulated } from '../backends/default-backend.js';
import type { FaultSpec } from '../spec/faults.js';
import type { Scenario } from '../spec/scenario.js';
import type { VariantSpec } from '../spec/variant.js';
import { storyRetention } from '../runner/story-retention.js';
import { runJob, withFaults } from './job.js';
import type { Found, PlacedFault } from './search.js';
import type { FaultTemplate } from './templates.js';
import type { ViolationCondition } from './violation.js';

export interface Witness {
  found: Found;
  /** The faults left after minimising, in time order. */
  faults: PlacedFault[];
  /** How many the schedule had. */
  placedFaults: number;
  order: PctSchedule | null;
  /** The conditions the minimal schedule breaks. */
  broken: string[];
  /** Its run, keeping what its story tells (or its whole history, when asked). */
  run: RunResult;
  replay: string;
}

export function faultSpecs(templates: readonly FaultTemplate[], faults: readonly PlacedFault[]): FaultSpec[] {
  return faults.map((f) => {
    const t = templates.find((x) => x.id === f.template);
    if (!t) throw new Error(`explore: no fault template #${f.template}`);
    return { ...t.spec, atUs: f.atUs };
  });
}

export function replaySpec(faults: readonly PlacedFault[], order: PctSchedule | null): string {
  const head = faults.length === 0 ? 'none' : faults.map((f) => `${f.template}@${f.atUs}`).join(',');
  return order === null ? head : `${head}/pct:${order.seed}:${order.depth}:${order.steps}`;
}

type ParsedReplay = { ok: true; faults: PlacedFault[]; order: PctSchedule | null } | { ok: false; message: string };

export function parseReplaySpec(text: string, templates: readonly FaultTemplate[], durationUs: number): ParsedReplay {
  const m = /^\s*(none|\d+@\d+(?:,\d+@\d+)*)(?:\/pct:([0-9.]+):(\d+):(\d+))?\s*$/.exec(text);
  if (!m) return { ok: false, message: `expected T@US[,T@US...][/pct:SEED:DEPTH:STEPS] (a fault template's number at a microsecond, as explore prints it), found "${text}"` };
  const faults: PlacedFault[] = [];
  if (m[1] !== 'none') {
    for (const part of m[1].split(',')) {
      const [t, us] = part.split('@').map(Number);
      if (!templates.some((x) => x.id === t)) return { ok: false, message: `no fault template #${t}; this explore has ${templates.map((x) => `#${x.id}`).join(', ') || 'none'}` };
      if (us > durationUs) return { ok: false, message: `${part}: the fault would start after the end of the run (${durationUs} us)` };
      faults.push({ template: t, atUs: us, why: 'replayed' });
    }
  }
  faults.sort((a, b) => a.atUs - b.atUs || a.template - b.template);
  const order = m[2] === undefined ? null : { seed: m[2], depth: Number(m[3]), steps: Number(m[4]) };
  if (order !== null && (order.depth < 1 || order.depth > 8 || order.steps < 1)) return { ok: false, message: `a PCT schedule has a depth from 1 to 8 and at least 1 step, found depth ${order.depth}, ${order.steps} steps` };
  return { ok: true, faults, order };
}

/** Runs one schedule; `whole` keeps its whole history (timelines, the HTML report), else what its story tells. */
export function runSchedule(scenario: Scenario, variant: VariantSpec, templates: readonly FaultTemplate[], faults: readonly PlacedFault[], order: PctSchedule | null, whole: boolean): RunResult {
  const s = withFaults(scenario, faultSpecs(templates, faults));
  const orderOption = order === null ? {} : { order };
  if (whole) return runSimulated(s, variant, scenario.seed, { history: 'all', ...orderOption });
  const first = runSimulated(s, variant, scenario.seed, { history: 'none', ...orderOption });
  const keep = storyRetention(first.violations);
  return keep === null ? first : runSimulated(s, variant, scenario.seed, { history: keep, ...orderOption });
}

export function makeWitness(
  scenario: Scenario,
  variant: VariantSpec,
  templates: readonly FaultTemplate[],
  found: Found,
  conditions: readonly ViolationCondition[],
  whole: boolean,
): Witness {
  const order = found.schedule.order;
  let faults = [...found.schedule.faults];
  let broken = found.broken;
  const sameFailure = (candidate: PlacedFault[]): string[] | null => {
    const o = runJob(scenario, { id: 0, variant: variant.name, faults: faultSpecs(templates, candidate), order, wantInstants: false, conditions, symmetric: false });
    return o.broken.length > 0 && o.broken.every((b) => found.broken.includes(b)) ? o.broken : null;
  };
  for (let changed = true; changed && faults.length > 1; ) {
    changed = false;
    for (let i = 0; i < faults.length; i++) {
      const fewer = faults.filter((_, j) => j !== i);
      const still = sameFailure(fewer);
      if (still !== null) {
        faults = fewer;
        broken = still;
        changed = true;
        break;
      }
    }
  }
  const run = runSchedule(scenario, variant, templates, faults, order, whole);
  return { found, faults, placedFaults: found.schedule.faults.length, order, broken, run, replay: replaySpec(faults, order) };
}
