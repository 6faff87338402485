/** Scenario -> YAML -> Scenario gives the same scenario, for every file in scenarios/. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenario, parseScenario } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/spec/scenario.js';
import { durationText, rateText, scenarioToYaml } from '../../src/scenario/to-yaml.js';

const placeless = (s: Scenario) => ({
  ...s,
  file: '',
  workloadLocation: '',
  expectations: s.expectations.map((e) => ({ ...e, location: '' })),
  ...(s.exploreExpectations ? { exploreExpectations: s.exploreExpectations.map((e) => ({ ...e, location: '' })) } : {}),
});

describe('scenarioToYaml', () => {
  it.each(readdirSync('scenarios').filter((f) => f.endsWith('.yaml')))('round-trips scenarios/%s', (file) => {
    const original = loadScenario(`scenarios/${file}`);
    const again = parseScenario(scenarioToYaml(original, ['a header']), 'again.yaml');
    expect(placeless(again)).toEqual(placeless(original));
  });

  it.each([...readdirSync('scenarios/real').map((f) => `real/${f}`), ...readdirSync('scenarios/explore').map((f) => `explore/${f}`)].filter((f) => f.endsWith('.yaml')))('round-trips scenarios/%s', (file) => {
    const original = loadScenario(`scenarios/${file}`);
    const again = parseScenario(scenarioToYaml(original, ['a header']), 'again.yaml');
    expect(placeless(again)).toEqual(placeless(original));
  });

  it('round-trips every Redisson option, and leaves out sync-replicas where the version has none', () => {
    const original = parseScenario(`name: r
duration: 10s
stock: { sku: 1, available: 1 }
workload: { arrival: 1/s }
redis: { topology: sentinel }
variants:
  a: { lock: redisson, redisson-version: "3.25", command-retries: 0, command-retry-interval: 250ms, sync-replicas: false }
  b: { lock: redisson, redisson-version: "3.12.4", watchdog-on-error: continue }
`, 'r.yaml');
    const text = scenarioToYaml(original, []);
    expect(placeless(parseScenario(text, 'again.yaml'))).toEqual(placeless(original));
    expect(text).toContain('redisson-version: 3.25.2');
    expect(text.match(/sync-replicas/g)).toHaveLength(1);
  });

  it('writes durations and rates exactly, in the largest unit that fits', () => {
    expect([durationText(2_000_000), durationText(1_500_000), durationText(1_234), durationText(120_000_000), durationText(-5_000_000)]).toEqual(['2s', '1500ms', '1234us', '2m', '-5s']);
    expect([rateText(40), rateText(2 / 60), rateText(1 / 3600), rateText(0.3)]).toEqual(['40/s', '2/m', '1/h', '18/m']);
  });
});
