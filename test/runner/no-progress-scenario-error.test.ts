/** A stopped clock becomes a scenario error at the workload: block, with the likely cause. */
import { describe, expect, it } from 'vitest';
import { NoProgressError } from '../../src/engine/no-progress.js';
import { explainNoProgress } from '../../src/runner/no-progress-scenario-error.js';
import { ScenarioError } from '../../src/spec/errors.js';
import { parseScenario } from '../../src/scenario/load.js';

const scenario = parseScenario(`name: t
duration: 10s
stock: { sku: 1, available: 1 }
workload:
  users: 2
  think: 1ms
variants:
  v: { lock: lua-unlock }
`, 'f.yaml');

describe('explainNoProgress', () => {
  it('turns a stopped clock in a user into a located error about closed-loop users', () => {
    const err = explainNoProgress(new NoProgressError(3_000_000, 2_000_000, 'user-2'), scenario, scenario.variants[0], 4);
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as ScenarioError).message).toBe(
      'f.yaml:5:3: workload: variant v, seed 4: simulated time stopped at 3s: over 2000000 events at that one instant (the last of them in user-2). ' +
        'Likely cause: closed-loop users are turned away (overloaded or unavailable) and ask again without their think time advancing the clock; give them a time above 0',
    );
  });

  it('names zero delays when the loop is elsewhere', () => {
    const err = explainNoProgress(new NoProgressError(0, 10, 'client-1/w3'), scenario, scenario.variants[0], 1);
    expect((err as ScenarioError).message).toContain('Likely cause: something retries or loops with zero delays');
  });

  it('passes any other error through unchanged', () => {
    const other = new Error('boom');
    expect(explainNoProgress(other, scenario, scenario.variants[0], 1)).toBe(other);
  });
});
