/** The one-word verdict of a run and the invariants it broke (judged in checker/verdict.ts), and how a terminal paints it. */
import type { ChalkInstance } from 'chalk';
import type { Verdict } from '../checker/verdict.js';

export { brokenInvariants, livenessOf, safetyOf, VERDICT_LEGEND, verdictOf } from '../checker/verdict.js';

export const PAINT: Record<Verdict, (c: ChalkInstance) => ChalkInstance> = {
  SAFE: (c) => c.green,
  DEGRADED: (c) => c.cyan,
  STALLED: (c) => c.magenta,
  UNAVAILABLE: (c) => c.magenta,
  LEAKY: (c) => c.yellow,
  UNSAFE: (c) => c.red,
};
