/**
 * The package's public API as a user's test suite imports it (`from 'lock-sim'`, resolved
 * through package.json's exports to the built dist/), the way the README shows.
 */
import { describe, expect, it } from 'vitest';
import { compare, loadScenario, runScenario, checkScenario, summarise, verdictOf } from 'lock-sim';

describe("import { loadScenario, runScenario, compare } from 'lock-sim'", () => {
  const scenario = loadScenario('scenarios/lease-vs-slow-risk-check.yaml');

  it('runs one seed', () => {
    const result = runScenario(scenario, { variants: ['lease-5s', 'lease-5s+cond'] });
    const byName = Object.fromEntries(result.runs.map((r) => [r.variant.name, r.metrics]));
    expect(byName['lease-5s'].oversold).toBeGreaterThan(0);
    expect(byName['lease-5s+cond'].oversold).toBe(0);
    expect(verdictOf(byName['lease-5s'])).toBe('UNSAFE');
  });

  it('compares variants over seeds', async () => {
    const summary = summarise(await compare(scenario, { seeds: [1, 2, 3], variants: ['lease-5s+cond', 'watchdog'], jobs: 2 }));
    expect(summary.variants.map((v) => [v.variant, v.oversell.estimate])).toEqual([
      ['lease-5s+cond', 0],
      ['watchdog', 0],
    ]);
  });

  it('checks a scenario', async () => {
    const check = await checkScenario(scenario);
    expect(check.passed).toBe(true);
  });
});
