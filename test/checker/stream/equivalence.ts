/**
 * The streaming checker against the batch one (the oracle) on the casebook: every scenario of
 * scenarios/, every variant, 10 seeds (50 with `npm run equivalence`). Each simulation runs once, keeping its history; the
 * run's own verdict (the streaming checker's, default grace) and a second streaming checker
 * that drops every finished request's facts at once (grace 0: the most pruning) are compared
 * with checkHistory on the same history. The files that call this split the casebook so that
 * vitest runs them in parallel.
 */
import { readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { checkHistory } from '../../../src/checker/check.js';
import { StreamingChecker } from '../../../src/checker/stream.js';
import { runVariant } from '../../../src/runner/run.js';
import { loadScenario } from '../../../src/scenario/load.js';

/**
 * Seeds per scenario and variant: 10 in `npm test` (CI's 15-minute budget), 50 with
 * `npm run equivalence` (the full proof; LOCK_SIM_EQ_SEEDS sets any other count).
 */
export const SEEDS = Number(process.env.LOCK_SIM_EQ_SEEDS ?? 10);

/** The casebook's files, in name order. */
export const casebook = (): string[] => readdirSync('scenarios').filter((f) => f.endsWith('.yaml')).sort();

/** The files of part `part` (0-based) of `parts`: every parts-th file, so long ones spread out. */
export const partOf = (part: number, parts: number): string[] => casebook().filter((_, i) => i % parts === part);

export interface Tally {
  runs: number;
  /** Runs the grace-0 checker could not judge alone (the runner would re-run them). */
  fallbacks: number;
}

export function checkEquivalence(file: string, tally: Tally): void {
  const scenario = loadScenario(`scenarios/${file}`, { budget: { maxRequests: 10_000_000 } });
  for (let seed = 1; seed <= SEEDS; seed++) {
    for (const variant of scenario.variants) {
      const eager = new StreamingChecker({ graceUs: 0 });
      const run = runVariant(scenario, variant, seed, { history: 'all', listen: (op) => eager.observe(op) });
      const oracle = checkHistory(run.history);
      const where = `${file} ${variant.name} seed ${seed}`;
      expect({ where, metrics: run.metrics, violations: run.violations }).toEqual({ where, ...oracle });
      const early = eager.finish();
      tally.runs++;
      if (early === null) tally.fallbacks++;
      else expect({ where, ...early }).toEqual({ where, ...oracle });
    }
  }
}
