/** `check --reporter json`: the same as data (stable key order, no wall-clock values). */
import type { ScenarioCheck } from '../sweep/check-scenario.js';

export function checkToJson(checks: readonly ScenarioCheck[]): unknown {
  return {
    format: 1,
    kind: 'check',
    passed: checks.every((c) => c.passed),
    scenarios: checks.map((c) => ({
      file: c.scenario.file,
      name: c.scenario.name,
      seeds: c.seeds,
      seedsLabel: c.seedsLabel,
      passed: c.passed,
      empty: c.empty,
      expectations: c.expectations.map((e) => ({
        variant: e.expectation.variant,
        expectation: e.expectation.text,
        statistic: e.expectation.statistic,
        metric: e.expectation.metric,
        comparator: e.expectation.comparator,
        expected: e.expectation.value,
        measured: e.measured,
        runs: e.runs,
        failedRuns: e.failedRuns,
        passed: e.passed,
        location: e.expectation.location,
        replay: e.replay,
        implicit: e.implicit,
        ...(e.detail === undefined ? {} : { detail: e.detail }),
      })),
    })),
  };
}
