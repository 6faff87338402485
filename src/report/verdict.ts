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
  return broken;
}

/** UNSAFE: the data is wrong (oversell, negative stock, lost update). LEAKY: the lock broke but the data held. */
export function verdictOf(m: RunMetrics): 'SAFE' | 'LEAKY' | 'UNSAFE' {
  if (m.oversold > 0 || m.negativeStock > 0 || m.lostUpdates > 0) return 'UNSAFE';
  return brokenInvariants(m).length > 0 ? 'LEAKY' : 'SAFE';
}
