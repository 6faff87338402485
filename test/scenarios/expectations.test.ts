/** Every scenario in scenarios/ is a regression test through its expect: block. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/runner/run-scenario.js';

const files = readdirSync('scenarios').filter((f) => f.endsWith('.yaml')).sort();

describe.each(files)('scenarios/%s', (file) => {
  it('holds its expectations', () => {
    const scenario = loadScenario(join('scenarios', file));
    expect(scenario.expectations.length).toBeGreaterThan(0);
    const result = runScenario(scenario);
    const failed = result.expectations.filter((e) => !e.passed).map((e) => `${e.expectation.variant}: ${e.expectation.text} (measured ${e.measured})`);
    expect(failed).toEqual([]);
  });
});
