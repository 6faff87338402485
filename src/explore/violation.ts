/**
 * What counts as a violation for explore: by default a broken safety invariant, the ones that
 * make a run LEAKY or UNSAFE (oversell, negative stock, lost updates, duplicate orders, two
 * holders, a lock lost, a foreign unlock, a stuck lock, stale fencing tokens); or conditions on
 * metrics given instead ("stuck-time > 10s": a crash that leaves a lock one lease behind is not
 * a deadlock), any one of which makes a run a violation.
 */
import type { RunMetrics } from '../checker/check-history.js';
import { compare } from '../runner/expectations.js';
import { metricByName } from '../checker/metric-names.js';
import { parseMetricCondition } from '../scenario/resolve-expectations.js';
import type { MetricCondition } from '../spec/expectations.js';

export type ViolationCondition = MetricCondition;
export const parseViolation = parseMetricCondition;

const SAFETY_METRICS = ['oversold', 'negative-stock', 'lost-updates', 'duplicate-orders', 'double-holders', 'lock-lost', 'foreign-unlocks', 'stuck-time', 'stale-tokens'];

/** The default: any broken safety invariant. */
export const SAFETY_VIOLATION: readonly ViolationCondition[] = SAFETY_METRICS.map((metric) => ({ metric, comparator: '>', value: 0, text: `${metric} > 0` }));

/** The conditions a run's metrics meet (empty: no violation). */
export function brokenBy(conditions: readonly ViolationCondition[], metrics: RunMetrics): string[] {
  const out: string[] = [];
  for (const c of conditions) {
    const def = metricByName.get(c.metric);
    if (def && compare(def.read(metrics), c.comparator, c.value)) out.push(c.text);
  }
  return out;
}

/** How a report names the conditions. */
export function describeViolation(conditions: readonly ViolationCondition[]): string {
  return conditions === SAFETY_VIOLATION || conditions.length === 0 ? 'a broken safety invariant (' + SAFETY_METRICS.map((m) => `${m} > 0`).join(', ') + ')' : conditions.map((c) => c.text).join(' or ');
}
