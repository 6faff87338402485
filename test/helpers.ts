/** Small hand-built worlds for tests: a scenario in YAML text, run through the real pipeline. */
import { parseScenario } from '../src/scenario/load.js';
import { runVariant, type RunResult } from '../src/runner/run.js';

export function runYaml(yaml: string, variant?: string, seed?: number): RunResult {
  const scenario = parseScenario(yaml, 'test.yaml');
  const v = variant ? scenario.variants.find((x) => x.name === variant) : scenario.variants[0];
  if (!v) throw new Error(`no variant ${variant}`);
  return runVariant(scenario, v, seed);
}
