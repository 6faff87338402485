/** The runs of a scenario's (selected) variants on one seed and its judged expectations: a simulated or a real run's. */
import type { Scenario } from '../spec/scenario.js';
import type { ExpectationResult } from './expectations.js';
import type { RunResult } from './run.js';

export interface ScenarioResult {
  scenario: Scenario;
  seed: number;
  runs: RunResult[];
  expectations: ExpectationResult[];
  passed: boolean;
}
