/** Scenario -> YAML -> Scenario gives the same scenario, for every file in scenarios/. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenario, parseScenario } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';
import { durationText, rateText, scenarioToYaml } from '../../src/scenario/to-yaml.js';

const placeless = (s: Scenario) => ({ ...s, file: '', expectations: s.expectations.map((e) => ({ ...e, location: '' })) });

describe('scenarioToYaml', () => {
  it.each(readdirSync('scenarios').filter((f) => f.endsWith('.yaml')))('round-trips scenarios/%s', (file) => {
    const original = loadScenario(`scenarios/${file}`);
    const again = parseScenario(scenarioToYaml(original, ['a header']), 'again.yaml');
    expect(placeless(again)).toEqual(placeless(original));
  });

  it('writes durations and rates exactly, in the largest unit that fits', () => {
    expect([durationText(2_000_000), durationText(1_500_000), durationText(1_234), durationText(120_000_000), durationText(-5_000_000)]).toEqual(['2s', '1500ms', '1234us', '2m', '-5s']);
    expect([rateText(40), rateText(2 / 60), rateText(1 / 3600), rateText(0.3)]).toEqual(['40/s', '2/m', '1/h', '18/m']);
  });
});
