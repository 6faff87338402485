/**
 * What a run keeps of its history: everything, or nothing (the streaming checker judged it as
 * it went); the verdict is the same either way. What a scenario's runs keep of their stories:
 * test/backends/run-scenario.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';

const scenario = loadScenario('scenarios/failover.yaml');

describe('runVariant history retention', () => {
  it('keeps every operation by default', () => {
    const run = runVariant(scenario, scenario.variants[0]);
    expect(run.history.length).toBe(run.historyLength);
    expect(run.historyLength).toBeGreaterThan(1_000);
  });
  it('keeps none with history none, and judges the run the same', () => {
    const all = runVariant(scenario, scenario.variants[0]);
    const none = runVariant(scenario, scenario.variants[0], scenario.seed, { history: 'none' });
    expect(none.history).toEqual([]);
    expect({ metrics: none.metrics, violations: none.violations, historyLength: none.historyLength, events: none.events })
      .toEqual({ metrics: all.metrics, violations: all.violations, historyLength: all.historyLength, events: all.events });
  });
});
