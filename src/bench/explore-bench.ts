/**
 * `npm run bench`, explore: for each scenario of scenarios/explore/, runs until the first
 * violation by `lock-sim explore` (the schedule that found it) against random seeds, as
 * `compare` samples them (seed 1, 2, 3, ... of the same file, whose faults at a rate draw
 * the same fault kinds at random instants): the first violating seed, and how many of N
 * seeds violate (N / violations estimates the runs a random search needs on average, which
 * one first seed does badly). Also schedules per CPU-second of explore, both variants' random
 * violations (the variant that holds must have none that explore's bound missed), and the
 * violations random seeds find within explore's own budget. CPU time is process.cpuUsage
 * (this thread runs everything: jobs 1). Figures, never assertions. Also runnable alone:
 * `node dist/bench/explore-bench.js [seeds]`. (lock-sim: wall-clock ok, CPU clock reads only,
 * outside any simulation.)
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exploreScenario } from '../explore/explore-scenario.js';
import { brokenBy, SAFETY_VIOLATION } from '../explore/violation.js';
import { runSimulated } from '../backends/default-backend.js';
import { loadScenario } from '../scenario/load.js';
import type { Scenario } from '../spec/scenario.js';

interface ExploreBenchLine {
  file: string;
  failing: string;
  holding: string;
  /** Schedule number of explore's first violation (null: none within the budget). */
  exploreRuns: number | null;
  budget: number;
  /** The first violating seed of 1..seeds (null: none). */
  randomFirst: number | null;
  randomHits: number;
  /** Violating seeds among the first `budget` (what random seeds find with explore's budget). */
  randomHitsWithinBudget: number;
  /** The holding variant: its random violations over the seeds, and explore's schedules for the bound. */
  holdingRandomHits: number;
  holdingSchedules: number;
  holdingBound: boolean;
  seeds: number;
  schedulesPerCpuS: number;
  randomRunsPerCpuS: number;
}

const cpuS = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function randomSeeds(s: Scenario, variant: string, seeds: number, budget: number): { first: number | null; hits: number; withinBudget: number } {
  const v = s.variants.find((x) => x.name === variant);
  if (!v) throw new Error(`no variant ${variant}`);
  const conditions = s.explore?.violation && s.explore.violation.length > 0 ? s.explore.violation : SAFETY_VIOLATION;
  let first: number | null = null;
  let hits = 0;
  let withinBudget = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    if (brokenBy(conditions, runSimulated(s, v, seed, { history: 'none' }).metrics).length === 0) continue;
    hits++;
    first ??= seed;
    if (seed <= budget) withinBudget++;
  }
  return { first, hits, withinBudget };
}

export async function exploreBench(seeds: number): Promise<ExploreBenchLine[]> {
  const lines: ExploreBenchLine[] = [];
  for (const name of readdirSync('scenarios/explore').filter((f) => f.endsWith('.yaml')).sort()) {
    const file = `scenarios/explore/${name}`;
    const s = loadScenario(file);
    const failing = s.exploreExpectations?.find((e) => e.comparator === '>=')?.variant ?? s.variants[0].name;
    const holding = s.exploreExpectations?.find((e) => e.comparator === '==')?.variant ?? s.variants[s.variants.length - 1].name;
    const budget = s.explore?.budget ?? 1000;
    const options = { maxFaults: s.explore?.faults ?? 1, budget, kinds: [], conditions: s.explore?.violation ?? [], pct: { depth: 1, rounds: 1, seed: 1 }, merge: true, all: false, jobs: 1, wholeHistory: false };
    const t0 = cpuS();
    const explored = await exploreScenario(s, { ...options, variants: [failing, holding] });
    const exploreCpuS = cpuS() - t0;
    const [f, h] = explored.variants;
    const t1 = cpuS();
    const random = randomSeeds(s, failing, seeds, budget);
    const holdingRandom = randomSeeds(s, holding, seeds, budget);
    const randomCpuS = cpuS() - t1;
    lines.push({
      file,
      failing,
      holding,
      exploreRuns: f.witnesses[0]?.found.schedule.id ?? null,
      budget,
      randomFirst: random.first,
      randomHits: random.hits,
      randomHitsWithinBudget: random.withinBudget,
      holdingRandomHits: holdingRandom.hits,
      holdingSchedules: h.result.schedules,
      holdingBound: h.witnesses.length === 0 && h.result.stoppedBy === 'complete',
      seeds,
      schedulesPerCpuS: (f.result.schedules + h.result.schedules) / exploreCpuS,
      randomRunsPerCpuS: (2 * seeds) / randomCpuS,
    });
  }
  return lines;
}

export function describeExploreBench(l: ExploreBenchLine): string {
  const rand = l.randomFirst === null ? `no violating seed in 1..${l.seeds}` : `first violating seed ${l.randomFirst}, ${l.randomHits} of ${l.seeds} seeds (about ${Math.round(l.seeds / l.randomHits)} runs each)`;
  const ratio = l.exploreRuns === null ? 'explore found none' : l.randomFirst === null ? `>= ${Math.floor(l.seeds / l.exploreRuns)}x (first seed)` : `${(l.randomFirst / l.exploreRuns).toFixed(0)}x by first seed, ${l.randomHits === 0 ? '-' : (l.seeds / l.randomHits / l.exploreRuns).toFixed(0)}x by rate`;
  return (
    `explore ${l.file}: ${l.failing}: explore's first violation at schedule ${l.exploreRuns ?? '-'}; random seeds: ${rand}; ${ratio}; ` +
    `random seeds within explore's budget of ${l.budget}: ${l.randomHitsWithinBudget} violating; ` +
    `${l.holding}: ${l.holdingBound ? 'bound' : 'NO BOUND'} after ${l.holdingSchedules} schedules, ${l.holdingRandomHits} of ${l.seeds} random seeds violating; ` +
    `${l.schedulesPerCpuS.toFixed(0)} schedules per CPU-second (random seeds: ${l.randomRunsPerCpuS.toFixed(0)} runs per CPU-second)`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await exploreBench(Number(process.argv[2] ?? 10_000))) console.log(describeExploreBench(line));
}
