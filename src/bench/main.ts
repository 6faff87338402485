/**
 * `npm run bench`: figures, never assertions. Wall-clock reads are fine here (not in the
 * simulation): this file measures the simulator from outside.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../scenario/load.js';
import { runSimulated } from '../backends/default-backend.js';
import { CheckerArena } from '../checker/arena.js';
import { describeExploreBench, exploreBench } from './explore-bench.js';
import { describeLibraryBench, describeTwinBench, ownCodeLibraryBench, ownCodeTwinBench } from './own-code-twin.js';
import { pingPong } from './ping-pong.js';
import { cliStart, describeCliStart } from './cli-start.js';
import { median } from './median.js';

const now = (): number => performance.now(); // lock-sim: wall-clock ok
let peakRssBytes = 0;
const sampleMemory = (): void => {
  peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
};

function fmt(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0);
}

console.log(`lock-sim bench (node ${process.version}, ${process.platform}/${process.arch})`);

// 1. Engine ping-pong: 1000 processes, each looping on an exponential timeout; 1M timeouts.
pingPong(1000, 200_000, now); // warm-up
const rounds = [1, 2, 3].map(() => pingPong(1000, 1_000_000, now));
sampleMemory();
const best = rounds.reduce((a, b) => (a.eventsPerSecond > b.eventsPerSecond ? a : b));
console.log(`engine ping-pong: 1000 processes, 1M timeouts: ${fmt(best.eventsPerSecond)} events/s (best of 3; ${rounds.map((r) => `${r.wallMs.toFixed(0)}ms`).join(', ')})`);

// 2. scenarios/failover.yaml, every variant, its own seed.
const scenario = loadScenario('scenarios/failover.yaml');
const arena = new CheckerArena(); // as a sweep's thread keeps one for its runs
for (const v of scenario.variants) runSimulated(scenario, v, scenario.seed, { history: 'none', arena }); // warm-up
let events = 0;
const t0 = now();
const repeats = 5;
for (let i = 0; i < repeats; i++) {
  for (const v of scenario.variants) {
    events += runSimulated(scenario, v, scenario.seed, { history: 'none', arena }).events;
    sampleMemory();
  }
}
const wallMs = (now() - t0) / repeats;
console.log(
  `scenarios/failover.yaml: ${scenario.variants.length} variants in ${wallMs.toFixed(0)}ms per run of the file, ${fmt((events / repeats / wallMs) * 1000)} simulated events/s (checker included)`,
);
console.log(`peak memory (this process): ${(peakRssBytes / 2 ** 20).toFixed(0)} MiB RSS`);

// 3. Sweeps, each in a fresh process: compare of failover.yaml with 1 and 2 jobs (scaling),
//    and peak memory over 1,000 vs 10,000 seeds of a small world.
interface Probe {
  runs: number;
  seeds: number;
  wallMs: number;
  peakRssBytes: number;
  /** User + system CPU time of the probe's process, all threads (with-cpu.js). */
  cpuMs: number;
  /** The main thread's share of cpuMs (Linux only; with-cpu.js). */
  mainThreadCpuMs: number | null;
}
const probeScript = fileURLToPath(new URL('./sweep-probe.js', import.meta.url));
const withCpu = fileURLToPath(new URL('./with-cpu.js', import.meta.url));
const probeArgs = (script: string, target: string, seeds: number, jobs: number): string[] => [withCpu, script, target, String(seeds), String(jobs)];
/** The probe's JSON line and with-cpu's {"cpuMs"} line, merged. */
const parseProbe = (out: string): Probe => Object.assign({}, ...out.trim().split('\n').map((line) => JSON.parse(line) as object)) as Probe;
const probeWith = (script: string, cwd: string | undefined, target: string, seeds: number, jobs: number): Probe =>
  parseProbe(execFileSync(process.execPath, probeArgs(script, target, seeds, jobs), { encoding: 'utf8', maxBuffer: 1 << 20, cwd }));
const probe = (target: string, seeds: number, jobs: number): Probe => probeWith(probeScript, undefined, target, seeds, jobs);
const runsPerS = (p: Probe): number => p.runs / (p.wallMs / 1000);
const runsPerCpuS = (p: Probe): number => p.runs / (p.cpuMs / 1000);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const load = (): string => `load average ${loadavg()[0].toFixed(1)}`;

// The scaling ratio is two wall times measured one after the other, and this machine's speed
// drifts by a third within minutes (the same 100-seed compare took 19.9 s and 26.8 s ten
// minutes apart, 2026-12-01). So it is measured in rounds, each running the three ways in
// turn, in a rotated order (a drift then weighs on each way alike), and the median round is
// what counts. The third way, two separate processes of one job and half the seeds each at
// once, is the best any pool of V8 isolates can do here: nothing shared but the machine. Its
// wall time is the slower process's own (from its compare's start, as the others'), which
// leaves out its Node start-up and imports, while the 2-job run's includes its worker's.
const compareSeeds = Number(process.env.LOCK_SIM_BENCH_SEEDS ?? 200);
const compareRounds = Math.max(1, Number(process.env.LOCK_SIM_BENCH_ROUNDS ?? 3));
const runFile = promisify(execFile);
const twoProcesses = async (seeds: number): Promise<Probe> => {
  const halves = [Math.ceil(seeds / 2), Math.floor(seeds / 2)];
  const outs = await Promise.all(halves.map((n) => runFile(process.execPath, probeArgs(probeScript, 'scenarios/failover.yaml', n, 1), { encoding: 'utf8', maxBuffer: 1 << 20 })));
  const [a, b] = outs.map((o) => parseProbe(o.stdout));
  return { runs: a.runs + b.runs, seeds, wallMs: Math.max(a.wallMs, b.wallMs), peakRssBytes: a.peakRssBytes + b.peakRssBytes, cpuMs: a.cpuMs + b.cpuMs, mainThreadCpuMs: null };
};
interface Round {
  oneJob: Probe;
  twoJobs: Probe;
  twoProcesses: Probe;
}
const ways: Array<(r: Partial<Round>) => Promise<void>> = [
  async (r) => void (r.oneJob = probe('scenarios/failover.yaml', compareSeeds, 1)),
  async (r) => void (r.twoJobs = probe('scenarios/failover.yaml', compareSeeds, 2)),
  async (r) => void (r.twoProcesses = await twoProcesses(compareSeeds)),
];
const compareRuns: Round[] = [];
for (let i = 0; i < compareRounds; i++) {
  const round: Partial<Round> = {};
  for (let w = 0; w < ways.length; w++) await ways[(i + w) % ways.length](round);
  compareRuns.push(round as Round);
}
const ratio = (r: Round, way: 'twoJobs' | 'twoProcesses'): number => r.oneJob.wallMs / r[way].wallMs;
/** The round whose 1-job run had the median wall time (the figures quoted for one job). */
const medianRound = [...compareRuns].sort((a, b) => a.oneJob.wallMs - b.oneJob.wallMs)[(compareRuns.length - 1) >> 1];
const oneJob = medianRound.oneJob;
console.log(
  `compare scenarios/failover.yaml, ${compareSeeds} seeds x ${oneJob.runs / compareSeeds} variants, ${compareRounds} round(s) of 1 job, 2 jobs, ` +
    `and two processes of 1 job and half the seeds at once:`,
);
compareRuns.forEach((r, i) =>
  console.log(
    `  round ${i + 1}: 1 job ${seconds(r.oneJob.wallMs)} (${runsPerCpuS(r.oneJob).toFixed(1)} runs per CPU-second), ` +
      `2 jobs ${seconds(r.twoJobs.wallMs)} (${runsPerCpuS(r.twoJobs).toFixed(1)}): ${ratio(r, 'twoJobs').toFixed(2)}x, ` +
      `two processes ${seconds(r.twoProcesses.wallMs)} (${runsPerCpuS(r.twoProcesses).toFixed(1)}): ${ratio(r, 'twoProcesses').toFixed(2)}x`,
  ),
);
const threads = oneJob.mainThreadCpuMs === null ? '' : `; of its CPU time, ${seconds(oneJob.cpuMs - oneJob.mainThreadCpuMs)} (${((100 * (oneJob.cpuMs - oneJob.mainThreadCpuMs)) / oneJob.cpuMs).toFixed(0)}%) on V8's background threads, beside ${seconds(oneJob.mainThreadCpuMs)} on its own`;
console.log(
  `  median: 1 job ${runsPerS(oneJob).toFixed(1)} runs/s (${seconds(oneJob.wallMs)}; ${runsPerCpuS(oneJob).toFixed(1)} runs per CPU-second${threads}); ` +
    `2 jobs ${median(compareRuns.map((r) => ratio(r, 'twoJobs'))).toFixed(2)}x (target >= 1.8x); ` +
    `two processes ${median(compareRuns.map((r) => ratio(r, 'twoProcesses'))).toFixed(2)}x; ${load()}`,
);
// Against another build (LOCK_SIM_BENCH_BASELINE: the root of a built lock-sim checkout, e.g.
// commit 6e8c717, the build issue 11 measured), the same compare on one thread, run right after
// this one's rounds, with that build's own failover.yaml; by wall time and by CPU time, against
// the median round's 1-job run.
const baselineRoot = process.env.LOCK_SIM_BENCH_BASELINE;
if (baselineRoot) {
  const base = probeWith(`${baselineRoot}/dist/bench/sweep-probe.js`, baselineRoot, 'scenarios/failover.yaml', compareSeeds, 1);
  console.log(
    `  baseline ${baselineRoot}: 1 job ${runsPerS(base).toFixed(1)} runs/s (${seconds(base.wallMs)}; ${runsPerCpuS(base).toFixed(1)} runs per CPU-second): ` +
      `this build ${(runsPerS(oneJob) / runsPerS(base)).toFixed(2)}x by wall time, ${(runsPerCpuS(oneJob) / runsPerCpuS(base)).toFixed(2)}x by CPU time (target >= 2x); ${load()}`,
  );
}
const small = probe('memory', 1000, 2);
const large = probe('memory', 10_000, 2);
const mib = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MiB`;
console.log(
  `compare memory (small world, 2 jobs): 1,000 seeds peak ${mib(small.peakRssBytes)} RSS, 10,000 seeds peak ${mib(large.peakRssBytes)} RSS: ` +
    `${(large.peakRssBytes / small.peakRssBytes).toFixed(2)}x (target <= 1.2x); ${runsPerS(large).toFixed(0)} runs/s`,
);

// 4. Scale: a standalone world at 1000 requests/s for S and 6S simulated seconds
//    (default 10 min and 1 hour), each in a fresh process: simulated requests per CPU-second,
//    and whether peak memory stays flat as the run gets longer.
interface ScaleProbe {
  requests: number;
  simulatedS: number;
  cpuMs: number;
  peakRssBytes: number;
}
const scaleScript = fileURLToPath(new URL('./scale-probe.js', import.meta.url));
const scale = (seconds: number): ScaleProbe =>
  JSON.parse(execFileSync(process.execPath, [scaleScript, String(seconds)], { encoding: 'utf8', maxBuffer: 1 << 20 })) as ScaleProbe;
const scaleS = Number(process.env.LOCK_SIM_BENCH_SCALE_S ?? 600);
const [shortRun, longRun] = [scale(scaleS), scale(6 * scaleS)];
const perCpuS = (p: ScaleProbe): string => fmt(p.requests / (p.cpuMs / 1000));
console.log(
  `standalone world, 1000 requests/s: ${scaleS}s ${perCpuS(shortRun)} requests per CPU-second, peak ${mib(shortRun.peakRssBytes)} RSS; ` +
    `${6 * scaleS}s ${perCpuS(longRun)} requests per CPU-second, peak ${mib(longRun.peakRssBytes)} RSS: ` +
    `${(longRun.peakRssBytes / shortRun.peakRssBytes).toFixed(2)}x (targets: within 1.2x, 1 h under 500 MiB, 10.8k requests per CPU-second)`,
);

// 5. A two-parameter sweep, in a fresh process: wall time and cells per second.
const gridScript = fileURLToPath(new URL('./sweep-grid-probe.js', import.meta.url));
const gridSeeds = Number(process.env.LOCK_SIM_BENCH_SWEEP_SEEDS ?? 20);
const grid = JSON.parse(execFileSync(process.execPath, [gridScript, String(gridSeeds), '2'], { encoding: 'utf8', maxBuffer: 1 << 20 })) as { cells: number; runs: number; wallMs: number };
console.log(
  `sweep lease-vs-slow-risk-check.yaml, lease x spike ceiling (${grid.cells} cells) x ${gridSeeds} seeds, 2 jobs: ` +
    `${(grid.wallMs / 1000).toFixed(1)}s, ${(grid.cells / (grid.wallMs / 1000)).toFixed(2)} cells/s (${(grid.runs / (grid.wallMs / 1000)).toFixed(1)} runs/s)`,
);
// 6. Own code: the hand-written Lua lock of docs/guides/own-code.md as a user module against the built-in lua-unlock.
console.log(describeTwinBench(ownCodeTwinBench(Number(process.env.LOCK_SIM_BENCH_OWN_CODE_SEEDS ?? 20), Number(process.env.LOCK_SIM_BENCH_OWN_CODE_PAIRS ?? 3))));
console.log(describeLibraryBench(ownCodeLibraryBench(Number(process.env.LOCK_SIM_BENCH_OWN_CODE_SEEDS ?? 20), now)));
// 7. Explore: runs to the first violation of each scenarios/explore/ file, explore against random seeds.
for (const line of await exploreBench(Number(process.env.LOCK_SIM_BENCH_EXPLORE_SEEDS ?? 20_000))) console.log(describeExploreBench(line));
// 8. The CLI's start: --version and --help load no command module.
for (const args of [['--version'], ['--help'], ['run', '--help']]) console.log(describeCliStart(cliStart(args)));
