/** The one-word verdict of a run and the invariants it broke. */
import type { RunMetrics } from '../checker/check.js';

export type Verdict = 'SAFE' | 'DEGRADED' | 'LEAKY' | 'UNSAFE';

/** Safety invariants of the data and of the lock, in the order stories list them. */
function brokenSafety(m: RunMetrics): string[] {
  const broken: string[] = [];
  if (m.oversold > 0) broken.push('oversell');
  if (m.negativeStock > 0) broken.push('negative stock');
  if (m.doubleHolders > 0) broken.push('double holders');
  if (m.lostUpdates > 0) broken.push('lost updates');
  if (m.lockLost > 0) broken.push('lock lost');
  if (m.foreignUnlocks > 0) broken.push('foreign unlock');
  if (m.stuckLockUs > 0) broken.push('stuck lock');
  if (m.duplicateOrders > 0) broken.push('duplicate orders');
  if (m.staleTokens > 0) broken.push('stale fencing tokens');
  return broken;
}

/** Everything a run broke: the safety invariants, then availability (orphaned locks). */
export function brokenInvariants(m: RunMetrics): string[] {
  const broken = brokenSafety(m);
  if (m.orphanLockUs > 0) broken.push('orphaned lock');
  return broken;
}

/**
 * UNSAFE: the data is wrong (oversell, negative stock, lost update, duplicate order).
 * LEAKY: the lock broke (or its fencing tokens did) but the data held.
 * DEGRADED: nothing broke, but a lock was orphaned: held on the server while none of its
 * owner's requests worked under it (an acquire that timed out but executed, a lost unlock, a
 * reentrant count left above zero), so requests were turned away for nothing.
 */
export function verdictOf(m: RunMetrics): Verdict {
  if (m.oversold > 0 || m.negativeStock > 0 || m.lostUpdates > 0 || m.duplicateOrders > 0) return 'UNSAFE';
  if (brokenSafety(m).length > 0) return 'LEAKY';
  return m.orphanLockUs > 0 ? 'DEGRADED' : 'SAFE';
}

/** The verdicts explained, for the legend under a report's table. */
export const VERDICT_LEGEND =
  'SAFE: no invariant broken. DEGRADED: safe, but a lock was orphaned (held with nobody working under it). LEAKY: the lock broke, the data held. UNSAFE: wrong data (oversell, lost update, negative stock, duplicate order).';
