/** What "fails the same way" means for shrinking: the most severe broken invariant of a run. */
import type { RunMetrics } from '../checker/check-history.js';

/** Most severe first: wrong data, then a broken lock, then a lock nobody can take, then a lock nobody uses. */
const FAILURES = [
  { kind: 'oversell', metric: 'oversold', read: (m: RunMetrics) => m.oversold },
  { kind: 'negative-stock', metric: 'negative-stock', read: (m: RunMetrics) => m.negativeStock },
  { kind: 'lost-update', metric: 'lost-updates', read: (m: RunMetrics) => m.lostUpdates },
  { kind: 'duplicate-order', metric: 'duplicate-orders', read: (m: RunMetrics) => m.duplicateOrders },
  { kind: 'double-holder', metric: 'double-holders', read: (m: RunMetrics) => m.doubleHolders },
  { kind: 'stale-token', metric: 'stale-tokens', read: (m: RunMetrics) => m.staleTokens },
  { kind: 'foreign-unlock', metric: 'foreign-unlocks', read: (m: RunMetrics) => m.foreignUnlocks },
  { kind: 'lock-lost', metric: 'lock-lost', read: (m: RunMetrics) => m.lockLost },
  { kind: 'stuck-lock', metric: 'stuck-time', read: (m: RunMetrics) => m.stuckLockUs },
  { kind: 'orphaned-lock', metric: 'orphan-time', read: (m: RunMetrics) => m.orphanLockUs },
] as const;

export type Failure = (typeof FAILURES)[number];
export const FAILURE_KINDS: readonly string[] = FAILURES.map((f) => f.kind);

export function failureByKind(kind: string): Failure | undefined {
  return FAILURES.find((f) => f.kind === kind);
}

/** The most severe failure a run shows, or null for a clean run. */
export function worstFailure(m: RunMetrics): Failure | null {
  return FAILURES.find((f) => f.read(m) > 0) ?? null;
}
