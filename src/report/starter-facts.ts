/**
 * What a starter scenario's own run shows, for its header: `lock-sim init` runs the starter on
 * its seed before writing it, so that every claim of the header is one the file's run makes
 * (test/report/starter-facts.test.ts runs every combination again and compares).
 */
import type { FaultOp } from '../history/operation.js';
import { runSimulated } from '../backends/default-backend.js';
import { wrapComment } from '../scenario/starter.js';
import type { Scenario } from '../spec/scenario.js';
import { formatMicros } from '../engine/time.js';
import { verdictOf } from './verdict-paint.js';

/** One variant's outcome on the starter's seed, as the header states it. */
interface StarterOutcome {
  variant: string;
  verdict: string;
  orders: number;
}

/** The run's facts: the first promotion (a failover's `failover` event), if any, and each variant's outcome. */
interface StarterFacts {
  failoverAtUs: number | null;
  outcomes: StarterOutcome[];
}

export function starterFacts(scenario: Scenario): StarterFacts {
  let failoverAtUs: number | null = null;
  const outcomes = scenario.variants.map((variant) => {
    const run = runSimulated(scenario, variant, scenario.seed, { history: (op) => op.f === 'fault' && (op as FaultOp).fault === 'failover' });
    const promotion = run.history.find((op) => op.f === 'fault' && op.phase === 'event');
    if (promotion !== undefined && failoverAtUs === null) failoverAtUs = promotion.timeUs;
    return { variant: variant.name, verdict: verdictOf(run.metrics), orders: run.metrics.orders };
  });
  return { failoverAtUs, outcomes };
}

/** The header lines (comments) that state the facts. */
export function starterFactLines(scenario: Scenario, facts: StarterFacts): string[] {
  const failover = facts.failoverAtUs === null ? '' : `the failover promotes a replica at ${formatMicros(facts.failoverAtUs)}; `;
  const outcomes = facts.outcomes.map((o) => `${o.variant}: ${o.verdict}, ${o.orders} orders`).join('; ');
  return wrapComment(`Its run on seed ${scenario.seed} (lock-sim run <this file>): ${failover}${outcomes}.`);
}
