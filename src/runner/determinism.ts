/** Compares two runs of the same scenario and seed operation by operation. */
import type { RunResult } from './run.js';

interface Divergence {
  index: number;
  first: string;
  second: string;
}

/** The first operation (or the event count) where two runs differ; null when identical. */
export function firstDivergence(a: RunResult, b: RunResult): Divergence | null {
  const n = Math.max(a.history.length, b.history.length);
  for (let i = 0; i < n; i++) {
    const x = a.history[i] === undefined ? '(none)' : JSON.stringify(a.history[i]);
    const y = b.history[i] === undefined ? '(none)' : JSON.stringify(b.history[i]);
    if (x !== y) return { index: i, first: x, second: y };
  }
  if (a.events !== b.events) return { index: n, first: `${a.events} engine events`, second: `${b.events} engine events` };
  return null;
}
