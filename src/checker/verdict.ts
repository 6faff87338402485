/**
 * The verdict of a run: a safety class from the invariants it broke, a liveness class from
 * whether it kept working once the faults were over (observers/liveness.ts), and the one
 * word a report prints. Safety comes first (TigerBeetle's order: a run that broke safety is
 * told as such, whatever else it did); a safe run that stopped working is told by its
 * liveness class, so that a variant that refuses every request never prints SAFE.
 */
import type { RunMetrics } from './check-history.js';
import type { LivenessVerdict } from './observers/liveness.js';

export type SafetyVerdict = 'SAFE' | 'DEGRADED' | 'LEAKY' | 'UNSAFE';
export type { LivenessVerdict };
export type Verdict = SafetyVerdict | Exclude<LivenessVerdict, 'LIVE'>;

/** Every verdict, from the best to the worst (compare's "worst over seeds" is the last one met). */
export const VERDICTS: readonly Verdict[] = ['SAFE', 'DEGRADED', 'STALLED', 'UNAVAILABLE', 'LEAKY', 'UNSAFE'];
/** The liveness classes, from the best to the worst. */
export const LIVENESS_CLASSES: readonly LivenessVerdict[] = ['LIVE', 'STALLED', 'UNAVAILABLE'];

/** Safety invariants of the data and of the lock, in the order stories list them. */
function brokenSafety(m: RunMetrics): string[] {
  const broken: string[] = [];
  if (m.oversold > 0) broken.push('oversell');
  if (m.negativeStock > 0) broken.push('negative stock');
  if (m.doubleHolders > 0) broken.push('double holders');
  if ((m.permitsExceeded ?? 0) > 0) broken.push('permits exceeded');
  if ((m.readWriteOverlaps ?? 0) > 0) broken.push('read-write exclusion');
  if (m.lostUpdates > 0) broken.push('lost updates');
  if (m.lockLost > 0) broken.push('lock lost');
  if (m.foreignUnlocks > 0) broken.push('foreign unlock');
  if (m.stuckLockUs > 0) broken.push('stuck lock');
  if ((m.permitsLeaked ?? 0) > 0) broken.push('leaked permits');
  if (m.duplicateOrders > 0) broken.push('duplicate orders');
  if (m.staleTokens > 0) broken.push('stale fencing tokens');
  return broken;
}

/** Everything a run broke: the safety invariants, then availability (orphaned locks), then liveness. */
export function brokenInvariants(m: RunMetrics): string[] {
  const broken = brokenSafety(m);
  if (m.orphanLockUs > 0) broken.push('orphaned lock');
  if ((m.fifoOvertakes ?? 0) > 0) broken.push('fair order (grants out of arrival order)');
  if ((m.starvedWaiters ?? 0) > 0) broken.push('starved waiters');
  if ((m.partialHoldsGivenBack ?? 0) > 0) broken.push('partial holds given back');
  const live = livenessOf(m);
  if (live === 'STALLED') broken.push('progress (stalled)');
  if (live === 'UNAVAILABLE') broken.push('availability (most requests failed)');
  return broken;
}

/** A fair lock granted out of arrival order or starved a waiter (observers/fairness.ts). */
/** A lock that broke no invariant but let its users down: a fair lock out of order, a multi-lock's locks held for nothing. */
const letDown = (m: RunMetrics): boolean => (m.fifoOvertakes ?? 0) > 0 || (m.starvedWaiters ?? 0) > 0 || (m.partialHoldsGivenBack ?? 0) > 0;

/**
 * UNSAFE: the data is wrong (oversell, negative stock, lost update, duplicate order).
 * LEAKY: the lock broke (or its fencing tokens did; a semaphore let in more than its permits
 * or lost permits for good; a read-write lock let a writer in beside a reader) but the data held.
 * DEGRADED: nothing broke, but a lock was orphaned: held on the server while none of its
 * owner's requests worked under it (an acquire that timed out but executed, a lost unlock, a
 * reentrant count left above zero), so requests were turned away for nothing; or a fair lock
 * broke its order (granted out of arrival order, or left a waiter waiting while the lock went
 * to later arrivals or sat free); or a multi-lock held some of its locks while it waited for
 * the rest and gave them back without the lock (observers/partial-holds.ts): held for nothing.
 */
export function safetyOf(m: RunMetrics): SafetyVerdict {
  if (m.oversold > 0 || m.negativeStock > 0 || m.lostUpdates > 0 || m.duplicateOrders > 0) return 'UNSAFE';
  if (brokenSafety(m).length > 0) return 'LEAKY';
  return m.orphanLockUs > 0 || letDown(m) ? 'DEGRADED' : 'SAFE';
}

/** LIVE, STALLED or UNAVAILABLE (observers/liveness.ts). */
export function livenessOf(m: RunMetrics): LivenessVerdict {
  return m.liveness.verdict;
}

/** The one word: the safety class when the lock or the data broke, else the liveness class when the run stopped working, else the safety class. */
export function verdictOf(m: RunMetrics): Verdict {
  const safety = safetyOf(m);
  if (safety === 'LEAKY' || safety === 'UNSAFE') return safety;
  const live = livenessOf(m);
  return live === 'LIVE' ? safety : live;
}

/** The verdicts explained, for the legend under a report's table. */
export const VERDICT_LEGEND =
  'SAFE: no invariant broken. DEGRADED: safe, but a lock was orphaned (held with nobody working under it), a fair lock broke its order, or a multi-lock held locks for nothing. ' +
  'STALLED / UNAVAILABLE: safe, but it stopped selling, or most requests failed, once the faults were over. ' +
  'LEAKY: the lock broke, the data held. UNSAFE: wrong data (oversell, lost update, negative stock, duplicate order).';
