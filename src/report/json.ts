/**
 * The machine-readable result. Stable: fixed key order, integers for times (microseconds),
 * no wall-clock values, so the same scenario and seed print the same bytes anywhere.
 */
import { tellStory } from '../checker/story.js';
import type { ScenarioResult } from '../runner/scenario-result.js';
import { brokenInvariants, livenessOf, safetyOf, verdictOf } from './verdict-paint.js';

const JSON_FORMAT_VERSION = 1;

export function resultToJson(result: ScenarioResult): unknown {
  const s = result.scenario;
  return {
    format: JSON_FORMAT_VERSION,
    scenario: { name: s.name, file: s.file, seed: result.seed, durationUs: s.durationUs },
    passed: result.passed,
    variants: result.runs.map((run) => {
      const first = run.violations[0];
      const story = first ? tellStory(first, run.history) : null;
      return {
        name: run.variant.name,
        lock: run.variant.lock,
        guard: run.variant.guard,
        leaseMs: run.variant.leaseMs,
        waitMs: run.variant.waitMs === Number.POSITIVE_INFINITY ? 'forever' : run.variant.waitMs,
        verdict: verdictOf(run.metrics),
        safety: safetyOf(run.metrics),
        liveness: livenessOf(run.metrics),
        broken: brokenInvariants(run.metrics),
        metrics: run.metrics,
        events: run.events,
        historyLength: run.historyLength,
        firstViolation: first
          ? { kind: first.kind, timeUs: first.timeUs, subject: first.subject, requests: first.requests, summary: first.summary, story: story?.lines ?? [] }
          : null,
        failures: run.failures,
      };
    }),
    expectations: result.expectations.map((e) => ({
      variant: e.expectation.variant,
      metric: e.expectation.metric,
      comparator: e.expectation.comparator,
      expected: e.expectation.value,
      measured: e.measured,
      passed: e.passed,
      location: e.expectation.location,
    })),
  };
}
