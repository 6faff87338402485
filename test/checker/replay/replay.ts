/**
 * Judging a recorded history is replaying it through the same observers (check-history.ts
 * checkHistory): over the casebook (every scenario of scenarios/, every variant, 10 seeds;
 * LOCK_SIM_REPLAY_SEEDS sets another count), the verdict a run gives live must equal its
 * recorded history's replay. Each simulation runs once keeping its history: the run's own
 * checker (the default grace) judged it live, and a second checker that drops every finished
 * request's facts at once (grace 0: the most pruning) listened too; when that one declines,
 * the checkers a runner would try next (checkerAttempts: keeping the requests named again)
 * must judge the same history as the replay does. Each simulation also runs as compare runs
 * it (no history kept, records refilled in place, the objects of one arena reused run after
 * run): the same verdict again. The files replay-N.test.ts each run one part of the casebook
 * (replayPart), so that vitest runs them in parallel.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CheckerArena } from '../../../src/checker/arena.js';
import { checkHistory, type CheckResult } from '../../../src/checker/check-history.js';
import { Checker, RERUNS } from '../../../src/checker/checker.js';
import type { Operation } from '../../../src/history/operation.js';
import { runVariant } from '../../../src/runner/run.js';
import { loadScenario } from '../../../src/scenario/load.js';

export const SEEDS = Number(process.env.LOCK_SIM_REPLAY_SEEDS ?? 10);

/** The casebook's files, in name order. */
export const casebook = (): string[] => readdirSync('scenarios').filter((f) => f.endsWith('.yaml')).sort();

/** The files of part `part` (0-based) of `parts`: every parts-th file, so long ones spread out. */
const partOf = (part: number, parts: number): string[] => casebook().filter((_, i) => i % parts === part);

interface Tally {
  runs: number;
  /** Runs the grace-0 checker could not judge alone (the runner would re-run them). */
  declined: number;
  /** Of those, runs that keeping the requests named again did not judge either (the runner's last checker, which drops nothing, would). */
  keptInVain: number;
}

/** RERUNS more grace-0 checkers over one history, each keeping the requests the one before found named again; null if none judges it. */
function judgeKeeping(history: readonly Operation[], keep: ReadonlySet<string> | null): CheckResult | null {
  for (let pass = 0; keep !== null && pass < RERUNS; pass++) {
    const checker = new Checker({ graceUs: 0, keep });
    for (const op of history) checker.observe(op);
    const verdict = checker.finish();
    if (verdict !== null) return verdict;
    keep = checker.rerunKeeping;
  }
  return null;
}

const arena = new CheckerArena();

function checkReplay(file: string, tally: Tally): void {
  const scenario = loadScenario(`scenarios/${file}`, { budget: { maxRequests: 10_000_000 } });
  for (let seed = 1; seed <= SEEDS; seed++) {
    for (const variant of scenario.variants) {
      const eager = new Checker({ graceUs: 0 });
      const run = runVariant(scenario, variant, seed, { history: 'all', listen: (op) => eager.observe(op) });
      const replay = checkHistory(run.history);
      const where = `${file} ${variant.name} seed ${seed}`;
      expect({ where, metrics: run.metrics, violations: run.violations, failures: run.failures }).toEqual({ where, ...replay });
      const lean = runVariant(scenario, variant, seed, { history: 'none', arena });
      expect({ where, lean: true, metrics: lean.metrics, violations: lean.violations, failures: lean.failures }).toEqual({ where, lean: true, ...replay });
      tally.runs++;
      const early = eager.finish();
      if (early !== null) {
        expect({ where, ...early }).toEqual({ where, ...replay });
        continue;
      }
      tally.declined++;
      const kept = judgeKeeping(run.history, eager.rerunKeeping);
      if (kept === null) tally.keptInVain++;
      else expect({ where, keeping: true, ...kept }).toEqual({ where, keeping: true, ...replay });
    }
  }
}

/** The suite of part `n` (1-based) of `parts`: each file's runs, then how often the most pruning checker declined. */
export function replayPart(n: number, parts = 4): void {
  describe(`live verdict vs replayed history, casebook part ${n}/${parts}`, () => {
    const tally: Tally = { runs: 0, declined: 0, keptInVain: 0 };
    for (const file of partOf(n - 1, parts)) it(file, () => checkReplay(file, tally));
    it('judges nearly every run alone even when it drops finished requests at once', () => {
      expect(tally.runs).toBeGreaterThan(0);
      console.log(`part ${n}: ${tally.runs} runs, ${tally.declined} declined at grace 0, ${tally.keptInVain} of them not judged by checkers keeping the requests named again`);
      expect(tally.declined).toBeLessThanOrEqual(tally.runs / 10);
      expect(tally.keptInVain).toBe(0);
    });
  });
}
