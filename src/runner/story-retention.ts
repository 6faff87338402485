/**
 * What a violation's story reads (checker/story.ts): the history up to the violation of the
 * requests involved, of the lock key concerned, and the faults. A run that keeps nothing while
 * it runs is run again with its seed (runs are deterministic) keeping only these operations,
 * so that telling a story costs memory for the story, not for the run.
 */
import type { Operation } from '../history/operation.js';
import { focusViolation, type Violation } from '../checker/violations.js';

/** The violations a report tells: the first (JSON) and the focus (text, HTML). */
function toldViolations(violations: readonly Violation[]): Violation[] {
  const told = new Set<Violation>();
  if (violations[0]) told.add(violations[0]);
  const focus = focusViolation(violations);
  if (focus) told.add(focus);
  return [...told];
}

/** Keeps every operation up to a told violation that concerns it; null when there is nothing to tell. */
export function storyRetention(violations: readonly Violation[]): ((op: Operation) => boolean) | null {
  const told = toldViolations(violations).map((v) => ({ timeUs: v.timeUs, subject: v.subject, requests: new Set(v.requests) }));
  if (told.length === 0) return null;
  const untilUs = Math.max(...told.map((v) => v.timeUs));
  return (op) => {
    if (op.timeUs > untilUs) return false;
    if (op.f === 'setup' || op.f === 'fault') return true;
    for (const v of told) {
      if (op.timeUs > v.timeUs) continue;
      if ('request' in op && v.requests.has(op.request)) return true;
      if ('key' in op && op.key === v.subject) return true;
    }
    return false;
  };
}
