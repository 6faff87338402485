/** The scenario fields explore reads: faults of every kind at a rate, the explore: block, and explore expectations. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { scenarioToYaml } from '../../src/scenario/to-yaml.js';
import { runVariant } from '../../src/runner/run.js';

const base = (extra: string) => `name: t
duration: 60s
stock: { sku: 1, available: 10 }
workload: { clients: 2, arrival: 2/s }
redis: { topology: sentinel }
${extra}
variants:
  v: { lock: lua-unlock, lease: 5s }
  w: { lock: set-nx-px, lease: 5s }
`;

function errorOf(text: string): string {
  try {
    parseScenario(text, 'f.yaml');
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the scenario to be rejected');
}

describe('faults at a rate, of every kind', () => {
  it('accepts a rate for the instant kinds and draws their times from the seed', () => {
    const s = parseScenario(base(`faults:
  - { kind: crash, client: all, rate: 2/m, restart-after: 1s }
  - { kind: primary-crash, rate: 1/m, restart-after: 5s }
  - { kind: clock-jump, target: client-1, rate: 1/m, by: +2s }
  - { kind: redis-restart, node: redis-1, rate: 1/m }`), 'f.yaml');
    expect(s.faults).toEqual([]);
    expect(s.randomFaults.map((r) => r.template.kind)).toEqual(['crash', 'crash', 'primary-crash', 'clock-jump', 'redis-restart']);
    const run = runVariant(s, s.variants[0], 3, { history: 'all' });
    const kinds = new Set(run.history.filter((o) => o.f === 'fault' && o.phase === 'start').map((o) => (o.f === 'fault' ? o.fault : '')));
    expect(kinds.has('crash')).toBe(true);
    expect(kinds.has('primary-crash')).toBe(true);
  });
});

describe('explore: block and expect explore', () => {
  it('reads them, locates the expectations, and writes them back', () => {
    const text = base(`explore: { faults: 2, budget: 50, violation: "stuck-time > 10s" }
expect:
  v: { oversold: 0, explore: { violations: ">= 1", budget: 20 } }
  w: { explore: { violations: 0, violation: [ "double-holders > 0", "oversold > 0" ] } }`);
    const s = parseScenario(text, 'f.yaml');
    expect(s.explore).toEqual({ faults: 2, budget: 50, violation: [{ metric: 'stuck-time', comparator: '>', value: 10_000_000, text: 'stuck-time > 10s' }] });
    expect(s.expectations.map((e) => e.text)).toEqual(['oversold == 0']);
    const [v, w] = s.exploreExpectations ?? [];
    expect([v.variant, v.comparator, v.value, v.budget, v.violation, v.text]).toEqual(['v', '>=', 1, 20, null, 'explore violations >= 1']);
    expect([w.variant, w.comparator, w.value, w.violation?.map((c) => c.text)]).toEqual(['w', '==', 0, ['double-holders > 0', 'oversold > 0']]);
    expect(v.location).toMatch(/^f\.yaml:\d+:\d+$/);
    const again = parseScenario(scenarioToYaml(s), 'f.yaml');
    expect(again.explore).toEqual(s.explore);
    expect(again.exploreExpectations?.map(({ location: _, ...e }) => e)).toEqual(s.exploreExpectations?.map(({ location: _, ...e }) => e));
  });

  it('names what is wrong, where', () => {
    expect(errorOf(base('explore: { violation: "stuck-tme > 1s" }'))).toContain('explore.violation: unknown metric "stuck-tme" (did you mean "stuck-time"?)');
    expect(errorOf(base('explore: { violation: "stuck-time > 10" }'))).toContain('this metric is a time');
    expect(errorOf(base('explore: { faults: 9 }'))).toContain('explore.faults');
    expect(errorOf(base('expect:\n  v: { explore: { budget: 5 } }'))).toContain('expect.v.explore.violations');
    expect(errorOf(base('expect:\n  v: { explore: { violations: "lots" } }'))).toContain('expect.v.explore.violations: expected a number after "=="');
    expect(errorOf(base('expect:\n  v: { oversold: { violations: 0 } }'))).toContain('expect.v.oversold');
    expect(errorOf(base('expect:\n  v: { explore: { violations: 0, budgte: 3 } }'))).toContain('budgte');
  });
});
