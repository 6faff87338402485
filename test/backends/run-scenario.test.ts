/**
 * What a scenario's runs keep of their histories (runScenario): everything, or what each run's
 * violations' stories tell (run again with its seed). The verdict and the stories are the same
 * either way.
 */
import { describe, expect, it } from 'vitest';
import { tellStory } from '../../src/checker/story.js';
import { focusViolation } from '../../src/checker/violations.js';
import { runScenario } from '../../src/backends/run-scenario.js';
import { loadScenario } from '../../src/scenario/load.js';

const scenario = loadScenario('scenarios/failover.yaml');

describe('runScenario story retention', () => {
  const full = runScenario(scenario, { history: 'all' });
  const story = runScenario(scenario, { history: 'story' });
  it('tells the same stories from a fraction of the history', () => {
    const violating = full.runs.filter((r) => r.violations.length > 0);
    expect(violating.length).toBeGreaterThan(0);
    for (const [i, run] of full.runs.entries()) {
      const kept = story.runs[i];
      expect(kept.metrics).toEqual(run.metrics);
      expect(kept.historyLength).toBe(run.historyLength);
      for (const v of [run.violations[0], focusViolation(run.violations)]) {
        if (v) expect(tellStory(v, kept.history)).toEqual(tellStory(v, run.history));
      }
      expect(kept.history.length).toBeLessThan(run.history.length / 2);
    }
  });
  it('keeps nothing of a run without violations', () => {
    const clean = story.runs.filter((r) => r.violations.length === 0);
    expect(clean.length).toBeGreaterThan(0);
    for (const run of clean) expect(run.history).toEqual([]);
  });
  it('tells onRun each whole history before keeping only the stories', () => {
    const told: number[] = [];
    const drawn = runScenario(scenario, { history: 'all', onRun: (run) => told.push(run.history.length) });
    expect(told).toEqual(full.runs.map((r) => r.history.length));
    expect(drawn.runs.map((r) => r.history.length)).toEqual(story.runs.map((r) => r.history.length));
  });
});
