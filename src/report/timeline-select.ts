/** Which key and window a run's timeline shows: given, or around its first double holder (or first violation). */
import { focusViolation } from '../checker/violations.js';
import type { RunResult } from '../runner/run.js';
import { buildTimeline, keyOfViolation, windowAround, type TimelineModel, type TimelineWindow } from './timeline-model.js';

/** Why a run has no timeline to draw. */
export type TimelineGap = 'no-key' | 'no-violation' | 'bad-window';

/** The gap in the command line's words (`run --timeline`): which flag would draw one. */
export const CLI_GAP_TEXT: Record<TimelineGap, string> = {
  'no-key': 'no lock key in this run to draw (give --key)',
  'no-violation': 'no violation to zoom on: give --from and --to',
  'bad-window': '--to must be after --from',
};

/** The model, or why there is none (each report words it for its reader). */
export function timelineOf(run: RunResult, w: TimelineWindow): TimelineModel | TimelineGap {
  const violation = focusViolation(run.violations);
  const key =
    w.key ??
    (violation ? keyOfViolation(violation) : null) ??
    run.history.find((op) => op.f === 'key-state')?.key ??
    null;
  if (key === null) return 'no-key';
  if (!violation && w.fromUs === undefined && w.toUs === undefined) return 'no-violation';
  const around = violation ? windowAround(run.history, violation) : { fromUs: 0, toUs: run.history[run.history.length - 1]?.timeUs ?? 0 };
  const fromUs = w.fromUs ?? around.fromUs;
  const toUs = w.toUs ?? around.toUs;
  if (!(toUs > fromUs)) return 'bad-window';
  return buildTimeline(run.history, key, fromUs, toUs);
}
