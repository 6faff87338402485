/** Variant names given on the command line, against the scenario's: an unknown one is located at its variants. */
import { ScenarioError } from '../spec/errors.js';
import type { Scenario } from '../spec/scenario.js';

export function checkVariantNames(scenario: Scenario, names: readonly string[]): void {
  const unknown = names.filter((v) => !scenario.variants.some((s) => s.name === v));
  if (unknown.length > 0) {
    throw new ScenarioError(scenario.file, [
      { path: ['variants'], message: `no variant named ${unknown.map((u) => `"${u}"`).join(', ')}; variants are ${scenario.variants.map((v) => v.name).join(', ')}` },
    ]);
  }
}
