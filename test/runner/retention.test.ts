/**
 * What a run keeps of its history: everything, nothing (the streaming checker judged it as it
 * went), or what its violations' stories tell (run again with its seed). The verdict and the
 * stories are the same either way.
 */
import { describe, expect, it } from 'vitest';
import { tellStory } from '../../src/checker/story.js';
import { focusViolation } from '../../src/checker/violations.js';
import { runScenario } from '../../src/backends/run-scenario.js';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';

const scenario = loadScenario('scenarios/failover.yaml');

describe('runVariant history retention', () => {
  it('keeps every operation by default', () => {
    const run = runVariant(scenario, scenario.variants[0]);
    expect(run.history.length).toBe(run.historyLength);
    expect(run.historyLength).toBeGreaterThan(1_000);
  });
  it('keeps none with history none, and judges the run the same', () => {
    const all = runVariant(scenario, scenario.variants[0]);
    const none = runVariant(scenario, scenario.variants[0], scenario.seed, { history: 'none' });
    expect(none.history).toEqual([]);
    expect({ metrics: none.metrics, violations: none.violations, historyLength: none.historyLength, events: none.events })
      .toEqual({ metrics: all.metrics, violations: all.violations, historyLength: all.historyLength, events: all.events });
  });
});

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
