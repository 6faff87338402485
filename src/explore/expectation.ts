/**
 * An `explore:` expectation judged: explore runs on its variant with the expectation's faults,
 * budget and violation (else the scenario's `explore:` block's, else the defaults), stopping at
 * the first violation, and the count it found (0 or 1) is compared with `violations`.
 */
import { compare } from '../runner/expectations.js';
import type { ExploreExpectation, MetricCondition } from '../spec/expectations.js';
import type { Scenario } from '../spec/scenario.js';
import { DEFAULT_EXPLORE_BUDGET, DEFAULT_EXPLORE_FAULTS, exploreScenario } from './explore-scenario.js';
import { boundStatement } from './statement.js';

interface ExploreVerdict {
  expectation: ExploreExpectation;
  /** Violations found: 0 or 1 (the search stops at the first). */
  measured: number;
  passed: boolean;
  /** Schedules run. */
  schedules: number;
  /** What was found, or the bounded statement. */
  detail: string;
  /** The violation found as a replay spec (null: none), and the conditions it broke. */
  replay: string | null;
  conditions: readonly MetricCondition[];
}

export async function judgeExploreExpectation(scenario: Scenario, e: ExploreExpectation, jobs: number): Promise<ExploreVerdict> {
  const maxFaults = e.faults ?? scenario.explore?.faults ?? DEFAULT_EXPLORE_FAULTS;
  const result = await exploreScenario(scenario, {
    variants: [e.variant],
    maxFaults,
    budget: e.budget ?? scenario.explore?.budget ?? DEFAULT_EXPLORE_BUDGET,
    kinds: [],
    conditions: e.violation ?? scenario.explore?.violation ?? [],
    pct: { depth: 1, rounds: 1, seed: 1 },
    merge: true,
    all: false,
    jobs,
    wholeHistory: false,
  });
  const v = result.variants[0];
  const w = v.witnesses[0];
  const measured = v.witnesses.length;
  const detail = w
    ? `violation at schedule ${w.found.schedule.id} of ${v.result.schedules}: ${w.broken.join(', ')}`
    : `${boundStatement(v.result, maxFaults)}`;
  return {
    expectation: e,
    measured,
    passed: compare(measured, e.comparator, e.value),
    schedules: v.result.schedules,
    detail,
    replay: w ? w.replay : null,
    conditions: result.options.conditions,
  };
}
