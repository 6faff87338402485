/** Which key and window a run's timeline shows: given, or around its first double holder (or first violation). */
import type { Violation } from '../checker/violations.js';
import type { RunResult } from '../runner/run.js';
import { buildTimeline, keyOfViolation, windowAround, type TimelineModel, type TimelineWindow } from './timeline-model.js';

/** Two holders at once is what a timeline shows best; otherwise the first violation. */
export function focusViolation(run: RunResult): Violation | undefined {
  return run.violations.find((v) => v.kind === 'double-holder') ?? run.violations[0];
}

/** The model, or why there is none. */
export function timelineOf(run: RunResult, w: TimelineWindow): TimelineModel | string {
  const violation = focusViolation(run);
  const key =
    w.key ??
    (violation ? keyOfViolation(violation) : null) ??
    run.history.find((op) => op.f === 'key-state')?.key ??
    null;
  if (key === null) return 'no lock key in this run to draw (give --key)';
  let fromUs = w.fromUs;
  let toUs = w.toUs;
  if (fromUs === undefined || toUs === undefined) {
    if (!violation) {
      if (fromUs === undefined && toUs === undefined) return 'no violation to zoom on: give --from and --to';
    } else {
      const around = windowAround(run.history, violation);
      fromUs ??= around.fromUs;
      toUs ??= around.toUs;
    }
    const endUs = run.history[run.history.length - 1]?.timeUs ?? 0;
    fromUs ??= 0;
    toUs ??= endUs;
  }
  if (!(toUs > fromUs)) return `--to must be after --from`;
  return buildTimeline(run.history, key, fromUs, toUs);
}
