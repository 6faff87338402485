/** Runs every (selected) variant of a scenario on one seed, each on its default backend (default-backend.ts), and judges its expectations. */
import type { Scenario } from '../spec/scenario.js';
import { judgeExpectations } from '../runner/expectations.js';
import type { RunResult } from '../runner/run.js';
import type { ScenarioResult } from '../runner/scenario-result.js';
import { storyRetention } from '../runner/story-retention.js';
import { runSimulated } from './default-backend.js';

interface RunScenarioOptions {
  seed?: number;
  variants?: readonly string[];
  /**
   * 'all' (default): each run keeps its whole history (timelines, the HTML report, determinism
   * checks). 'story': each run keeps nothing while it runs; one with a violation runs again
   * with its seed keeping what its stories tell (story-retention.ts), so a long run's memory
   * is its concurrency's, and variants do not pile up histories.
   */
  history?: 'all' | 'story';
  /**
   * With history 'all': told each run as soon as it ends (to draw what needs its whole
   * history), after which the run keeps only what its stories tell, so that variants' whole
   * histories are not held together.
   */
  onRun?: (run: RunResult) => void;
}

export function runScenario(scenario: Scenario, options: RunScenarioOptions = {}): ScenarioResult {
  const seed = options.seed ?? scenario.seed;
  const selected = options.variants && options.variants.length > 0
    ? scenario.variants.filter((v) => options.variants?.includes(v.name))
    : scenario.variants;
  const runs = selected.map((v) => {
    if (options.history === 'story') return runForStory(scenario, v, seed);
    const run = runSimulated(scenario, v, seed);
    if (!options.onRun) return run;
    options.onRun(run);
    const keep = storyRetention(run.violations);
    return { ...run, history: keep === null ? [] : run.history.filter(keep) };
  });
  const expectations = judgeExpectations(scenario.expectations, runs);
  return { scenario, seed, runs, expectations, passed: expectations.every((e) => e.passed) };
}

function runForStory(scenario: Scenario, variant: Scenario['variants'][number], seed: number): RunResult {
  const run = runSimulated(scenario, variant, seed, { history: 'none' });
  const keep = storyRetention(run.violations);
  if (keep === null) return run;
  const again = runSimulated(scenario, variant, seed, { history: keep });
  if (again.events !== run.events || again.historyLength !== run.historyLength) {
    throw new Error(`${scenario.name} ${variant.name} seed ${seed}: a second run of the same seed differs (${run.events} vs ${again.events} events); run --check-determinism`);
  }
  return again;
}
