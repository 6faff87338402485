/** The one-word verdict of a run and the invariants it broke. */
import type { RunMetrics } from '../checker/check.js';

export function brokenInvariants(m: RunMetrics): string[] {
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

/**
 * UNSAFE: the data is wrong (oversell, negative stock, lost update, duplicate order).
 * LEAKY: the lock broke (or its fencing tokens did) but the data held.
 */
export function verdictOf(m: RunMetrics): 'SAFE' | 'LEAKY' | 'UNSAFE' {
  if (m.oversold > 0 || m.negativeStock > 0 || m.lostUpdates > 0 || m.duplicateOrders > 0) return 'UNSAFE';
  return brokenInvariants(m).length > 0 ? 'LEAKY' : 'SAFE';
}
