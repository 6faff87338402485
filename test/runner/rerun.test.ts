/**
 * A run the checker cannot judge alone (the history names requests long after it dropped
 * their facts) is run again keeping those requests' facts, and judged exactly as the replay
 * of its whole history judges it. The history: redlock-v4-hangs.yaml, whose v5 SETs
 * sit in TCP retransmission through a partition and reach their masters after it heals; with
 * the partitions at 40 s the last arrives 51 s after its request ended (within the checker's
 * one-minute grace), at 90 s well after.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../src/checker/check-history.js';
import { Checker } from '../../src/checker/checker.js';
import { runVariant } from '../../src/runner/run.js';
import { parseScenario } from '../../src/scenario/load.js';

const hangs = (partitionS: number) => {
  const text = readFileSync('scenarios/redlock-v4-hangs.yaml', 'utf8')
    .replace(/duration: 40s/g, `duration: ${partitionS}s`)
    .replace('duration: 60s', `duration: ${partitionS + 30}s`);
  const scenario = parseScenario(text, 'redlock-v4-hangs.yaml');
  return { scenario, v5: scenario.variants.find((v) => v.name === 'v5')! };
};

describe('a run the checker declines', () => {
  for (const seed of [1, 2]) {
    it(`is re-run keeping the requests named late, and judged as its replay judges it (partition 90 s, seed ${seed})`, () => {
      const { scenario, v5 } = hangs(90);
      const first = new Checker();
      const run = runVariant(scenario, v5, seed, { history: 'none', listen: (op) => first.observe(op) });
      expect(first.finish()).toBeNull();
      const keep = first.rerunKeeping;
      expect(keep?.size).toBeGreaterThan(0);
      const whole = runVariant(scenario, v5, seed, { history: 'all' });
      const oracle = checkHistory(whole.history);
      expect({ metrics: run.metrics, violations: run.violations, failures: run.failures }).toEqual(oracle);
      expect(run.history).toEqual([]);
      // The re-run's checker judges alone: no whole history is needed.
      const again = new Checker({ keep: keep ?? undefined });
      for (const op of whole.history) again.observe(op);
      expect(again.finish()).toEqual(oracle);
    });
  }
  it('is judged at once when the late writes come within the grace (partition 40 s)', () => {
    const { scenario, v5 } = hangs(40);
    const first = new Checker();
    const run = runVariant(scenario, v5, 1, { history: 'none', listen: (op) => first.observe(op) });
    const verdict = first.finish();
    expect(verdict).not.toBeNull();
    expect({ metrics: run.metrics, violations: run.violations, failures: run.failures }).toEqual(verdict);
  });
});
