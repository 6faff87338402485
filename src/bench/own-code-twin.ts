/**
 * `npm run bench`, own code: CPU time per run of the hand-written Lua lock of
 * docs/guides/own-code.md as a user module against the built-in lua-unlock on the same
 * scenario and seeds (scenarios/own-code/twin-lua-unlock.yaml), each variant in a fresh
 * process under the same conditions, at two points of V8's warm-up:
 * - cold: one warm-up run, then the seeds (what a short `check` or a single run sees);
 * - warm: STEADY_WARM_RUNS runs first (seeds of their own), then the seeds (what the later
 *   runs of a long compare see, V8's optimizing compiler done with nearly everything).
 * Each variant runs in its own process because a process's earlier work warms V8 for the
 * built-in lock's code and not for the module's run worker: measured in `npm run bench` on
 * 2026-12-07, the built-in lock in the bench's own process (after the failover.yaml runs) took
 * 0.45 s for 20 seeds, against 0.8-0.9 s in a fresh one, which made the ratio depend on the
 * benchmarks that ran before it. CPU time (process.cpuUsage: every thread of the process, the
 * own-code run worker's and V8's compiler threads included) is read by the process itself,
 * after its warm-up. Runs keep no history (`history: 'none'`), as compare, sweeps and the
 * seed ranges of `check` run them.
 *
 * Wall-clock and CPU-clock reads are fine here: this measures the simulator from outside.
 * Also runnable alone: `node dist/bench/own-code-twin.js [seeds] [pairs]`.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runSimulated } from '../backends/default-backend.js';
import { loadScenario } from '../scenario/load.js';
import { median } from './median.js';

const TWIN = 'scenarios/own-code/twin-lua-unlock.yaml';
/** Warm-up runs of the warm measure: by then V8 optimizes few new functions (trace-opt: 20 in runs 41-60 of the module, 15 of the built-in lock). */
const STEADY_WARM_RUNS = 60;

interface Probe {
  cpuMsPerRun: number;
}

/** CPU ms per run of `variant` in this process: `warmRuns` runs of seeds 1001.., then seeds 1..`seeds`. */
function probeHere(variant: string, warmRuns: number, seeds: number): Probe {
  const scenario = loadScenario(TWIN);
  const v = scenario.variants.find((x) => x.name === variant)!;
  for (let s = 1; s <= warmRuns; s++) runSimulated(scenario, v, 1000 + s, { history: 'none' });
  const c0 = process.cpuUsage(); // lock-sim: wall-clock ok (a CPU clock, read by the bench)
  for (let seed = 1; seed <= seeds; seed++) runSimulated(scenario, v, seed, { history: 'none' });
  const c = process.cpuUsage(c0); // lock-sim: wall-clock ok (the same)
  return { cpuMsPerRun: (c.user + c.system) / 1000 / seeds };
}

/** The same in a fresh process (this file with --probe). */
function probe(variant: string, warmRuns: number, seeds: number): Probe {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--probe', variant, String(warmRuns), String(seeds)], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as Probe;
}

interface Pairs {
  builtinMs: number;
  moduleMs: number;
  /** Built-in CPU / module CPU of each pair (the aim: >= 0.5). */
  ratios: number[];
  ratio: number;
}


/** `pairs` pairs of fresh processes, in turn built-in first and module first, and the median of their ratios. */
function measurePairs(warmRuns: number, seeds: number, pairs: number): Pairs {
  const b: number[] = [];
  const m: number[] = [];
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      b.push(probe('builtin', warmRuns, seeds).cpuMsPerRun);
      m.push(probe('module', warmRuns, seeds).cpuMsPerRun);
    } else {
      m.push(probe('module', warmRuns, seeds).cpuMsPerRun);
      b.push(probe('builtin', warmRuns, seeds).cpuMsPerRun);
    }
  }
  const ratios = b.map((x, i) => x / m[i]);
  return { builtinMs: median(b), moduleMs: median(m), ratios, ratio: median(ratios) };
}

interface TwinBench {
  seeds: number;
  cold: Pairs;
  warm: Pairs;
}

export function ownCodeTwinBench(seeds: number, pairs: number): TwinBench {
  return { seeds, cold: measurePairs(1, seeds, pairs), warm: measurePairs(STEADY_WARM_RUNS, seeds, Math.max(1, pairs - 1)) };
}

export function describeTwinBench(b: TwinBench): string {
  const line = (p: Pairs): string => `built-in lua-unlock ${p.builtinMs.toFixed(1)} ms, the same lock as a user module ${p.moduleMs.toFixed(1)} ms of CPU per run: ${p.ratio.toFixed(2)}x (pairs ${p.ratios.map((r) => r.toFixed(2)).join(', ')})`;
  return `own code, ${TWIN} over ${b.seeds} seeds, each variant in a fresh process (aim >= 0.5x):\n` +
    `  cold (one warm-up run): ${line(b.cold)}\n` +
    `  warm (after ${STEADY_WARM_RUNS} runs): ${line(b.warm)}`;
}

interface LibraryBench {
  seeds: number;
  runsPerS: number;
  cpuMsPerRun: number;
  events: number;
}

/**
 * One real library, unmodified: npm redis-semaphore 5.8.0's Mutex (its setInterval refresh, the
 * acquire's retry sleeps) on scenarios/own-code/semaphore-gc-pause.yaml, variant mutex-10s:
 * runs per second and CPU milliseconds per run (every thread), and the simulated events per run.
 */
export function ownCodeLibraryBench(seeds: number, now: () => number): LibraryBench {
  const scenario = loadScenario('scenarios/own-code/semaphore-gc-pause.yaml');
  const variant = scenario.variants.find((v) => v.name === 'mutex-10s')!;
  runSimulated(scenario, variant, 1); // warm-up
  let events = 0;
  const t0 = now();
  const c0 = process.cpuUsage(); // lock-sim: wall-clock ok (a CPU clock, read by the bench)
  for (let seed = 1; seed <= seeds; seed++) events += runSimulated(scenario, variant, seed, { history: 'none' }).events;
  const c = process.cpuUsage(c0); // lock-sim: wall-clock ok (the same)
  const wallS = (now() - t0) / 1000;
  return { seeds, runsPerS: seeds / wallS, cpuMsPerRun: (c.user + c.system) / 1000 / seeds, events: events / seeds };
}

export function describeLibraryBench(b: LibraryBench): string {
  return `own code, a real library (npm redis-semaphore 5.8.0, semaphore-gc-pause.yaml mutex-10s) over ${b.seeds} seeds: ` +
    `${b.runsPerS.toFixed(1)} runs/s, ${b.cpuMsPerRun.toFixed(1)} ms CPU per run, ${Math.round(b.events)} events per run`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--probe') {
    console.log(JSON.stringify(probeHere(process.argv[3], Number(process.argv[4]), Number(process.argv[5]))));
    process.exit(0);
  }
  const seeds = Number(process.argv[2] ?? 20);
  console.log(describeTwinBench(ownCodeTwinBench(seeds, Number(process.argv[3] ?? 3))));
  console.log(describeLibraryBench(ownCodeLibraryBench(seeds, () => performance.now()))); // lock-sim: wall-clock ok
  process.exit(0);
}
