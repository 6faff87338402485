/**
 * Every scenario of scenarios/explore/: explore finds its failure within the budget its file
 * gives, and the failure sits in a window under 5 ms (the same faults 5 ms earlier or later do
 * not break it). Each file's variant that holds is judged by `lock-sim check scenarios/`
 * (its `explore: { violations: 0 }` expectation), the last step of npm test.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exploreScenario } from '../../src/explore/explore-scenario.js';
import { runJob } from '../../src/explore/job.js';
import { faultSpecs } from '../../src/explore/witness.js';
import { loadScenario } from '../../src/scenario/load.js';

const FILES = readdirSync('scenarios/explore').filter((f) => f.endsWith('.yaml'));

describe('scenarios/explore', () => {
  it('has the four windowed failures', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(4);
  });

  it.each(FILES)('%s: explore finds the windowed failure within its budget', async (file) => {
    const s = loadScenario(`scenarios/explore/${file}`);
    const expectations = s.exploreExpectations ?? [];
    expect(expectations.map((e) => `${e.comparator} ${e.value}`).sort()).toEqual(['== 0', '>= 1']);
    const failing = expectations.find((e) => e.comparator === '>=');
    if (!failing) throw new Error('no failing variant');
    const result = await exploreScenario(s, {
      variants: [failing.variant],
      maxFaults: failing.faults ?? s.explore?.faults ?? 1,
      budget: failing.budget ?? s.explore?.budget ?? 1000,
      kinds: [],
      conditions: s.explore?.violation ?? [],
      pct: { depth: 1, rounds: 1, seed: 1 },
      merge: true,
      all: false,
      jobs: 1,
      wholeHistory: false,
    });
    const { result: r, witnesses } = result.variants[0];
    expect(r.stoppedBy).toBe('violation');
    expect(witnesses).toHaveLength(1);
    const w = witnesses[0];
    expect(w.faults).toHaveLength(1);
    // The window: the same fault 5 ms either side breaks nothing.
    for (const shiftUs of [-5000, 5000]) {
      const moved = w.faults.map((f) => ({ ...f, atUs: f.atUs + shiftUs }));
      const o = runJob(s, { id: 0, variant: failing.variant, faults: faultSpecs(r.templates, moved), order: w.order, wantInstants: false, conditions: result.conditions, symmetric: false });
      expect(o.broken, `${file}: ${shiftUs} us from ${w.faults[0].atUs}`).toEqual([]);
    }
  });
});
