/**
 * `npm run bench`, own code: runs per second of the hand-written Lua lock of docs/guides/own-code.md as a user
 * module against the built-in lua-unlock on the same scenario and seeds
 * (scenarios/own-code/twin-lua-unlock.yaml), one after the other in this process. Also the
 * ratio of CPU time (process.cpuUsage, every thread of the process: the own-code run worker's
 * too), which a machine shared with other work disturbs less than wall time. Wall-clock and
 * CPU-clock reads are fine here: this measures the simulator from outside. Also runnable alone:
 * `node dist/bench/own-code-twin.js [seeds]`. Runs keep no history (`history: 'none'`), as
 * compare, sweeps and the seed ranges of `check` run them: an own-code run's history would
 * cross back from the run worker (about 10 ms per run of this scenario, structured clone).
 */
import { fileURLToPath } from 'node:url';
import { runSimulated } from '../backends/default-backend.js';
import { loadScenario } from '../scenario/load.js';

interface TwinBench {
  seeds: number;
  builtinRunsPerS: number;
  moduleRunsPerS: number;
  ratio: number;
  /** Built-in CPU seconds / module CPU seconds, over the same seeds. */
  cpuRatio: number;
  builtinCpuS: number;
  moduleCpuS: number;
}

export function ownCodeTwinBench(seeds: number, now: () => number): TwinBench {
  const scenario = loadScenario('scenarios/own-code/twin-lua-unlock.yaml');
  const [builtin, module] = scenario.variants;
  runSimulated(scenario, builtin, 1); // warm-up, and the own-code run worker started
  runSimulated(scenario, module, 1);
  const time = (v: typeof builtin): { wallS: number; cpuS: number } => {
    const t0 = now();
    const c0 = process.cpuUsage(); // lock-sim: wall-clock ok (a CPU clock, read by the bench)
    for (let seed = 1; seed <= seeds; seed++) runSimulated(scenario, v, seed, { history: 'none' });
    const c = process.cpuUsage(c0); // lock-sim: wall-clock ok (the same)
    return { wallS: (now() - t0) / 1000, cpuS: (c.user + c.system) / 1e6 };
  };
  const b = time(builtin);
  const m = time(module);
  return { seeds, builtinRunsPerS: seeds / b.wallS, moduleRunsPerS: seeds / m.wallS, ratio: b.wallS / m.wallS, cpuRatio: b.cpuS / m.cpuS, builtinCpuS: b.cpuS, moduleCpuS: m.cpuS };
}

export function describeTwinBench(b: TwinBench): string {
  return `own code, scenarios/own-code/twin-lua-unlock.yaml over ${b.seeds} seeds: built-in lua-unlock ${b.builtinRunsPerS.toFixed(1)} runs/s, ` +
    `the same lock as a user module ${b.moduleRunsPerS.toFixed(1)} runs/s: ${b.ratio.toFixed(2)}x (aim >= 0.2x); ` +
    `CPU time ${b.cpuRatio.toFixed(2)}x (aim >= 0.5x; ${b.builtinCpuS.toFixed(2)} s / ${b.moduleCpuS.toFixed(2)} s)`;
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
  const seeds = Number(process.argv[2] ?? 20);
  console.log(describeTwinBench(ownCodeTwinBench(seeds, () => performance.now()))); // lock-sim: wall-clock ok
  console.log(describeLibraryBench(ownCodeLibraryBench(seeds, () => performance.now()))); // lock-sim: wall-clock ok
}
