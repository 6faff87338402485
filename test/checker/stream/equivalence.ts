/**
 * The streaming checker against the batch one (the oracle) on the casebook: every scenario of
 * scenarios/, every variant, 10 seeds (50 with `npm run equivalence`). Each simulation runs once, keeping its history; the
 * run's own verdict (the streaming checker's, default grace) and a second streaming checker
 * that drops every finished request's facts at once (grace 0: the most pruning) are compared
 * with checkHistory on the same history; when the grace-0 checker declines, passes over the
 * same history keeping the requests it found named again (what the runner's re-runs keep)
 * must judge it, equal to checkHistory. Each simulation also runs a second time as compare
 * runs it (history 'none': records refilled in place, request objects reused), and its verdict
 * must equal checkHistory's too. The files that call this split the casebook so that
 * vitest runs them in parallel.
 */
import { readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { checkHistory, type CheckResult } from '../../../src/checker/check.js';
import { StreamingChecker } from '../../../src/checker/stream.js';
import { RERUNS, runVariant } from '../../../src/runner/run.js';
import type { Operation } from '../../../src/history/operation.js';
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
  /** Of those, runs a second or third pass keeping the requests named again could not judge either (the runner would keep the whole history). */
  wholeHistory: number;
}

/** RERUNS more passes of the grace-0 checker over one history, each keeping the requests the one before found named again (the runner's re-runs); null if none judges it. */
export function judgeKeeping(history: readonly Operation[], keep: ReadonlySet<string> | null): CheckResult | null {
  for (let pass = 0; keep !== null && pass < RERUNS; pass++) {
    const checker = new StreamingChecker({ graceUs: 0, keep });
    for (const op of history) checker.observe(op);
    const verdict = checker.finish();
    if (verdict !== null) return verdict;
    keep = checker.rerunKeeping;
  }
  return null;
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
      // The same run as compare runs it: no history kept, records refilled in place
      // (history/records.ts recycleRecords) and request objects reused: the same verdict.
      const lean = runVariant(scenario, variant, seed, { history: 'none' });
      expect({ where, lean: true, metrics: lean.metrics, violations: lean.violations }).toEqual({ where, lean: true, ...oracle });
      const early = eager.finish();
      tally.runs++;
      if (early !== null) {
        expect({ where, ...early }).toEqual({ where, ...oracle });
        continue;
      }
      tally.fallbacks++;
      const kept = judgeKeeping(run.history, eager.rerunKeeping);
      if (kept === null) tally.wholeHistory++;
      else expect({ where, keeping: true, ...kept }).toEqual({ where, keeping: true, ...oracle });
    }
  }
}
