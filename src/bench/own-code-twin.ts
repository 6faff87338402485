/**
 * `npm run bench`, own code: runs per second of the README's Lua lock as a user
 * module against the built-in lua-unlock on the same scenario and seeds
 * (scenarios/own-code/twin-lua-unlock.yaml), one after the other in this process. Wall-clock
 * reads are fine here: this measures the simulator from outside. Also runnable alone:
 * `node dist/bench/own-code-twin.js [seeds]`.
 */
import { fileURLToPath } from 'node:url';
import { runVariant } from '../runner/run.js';
import { loadScenario } from '../scenario/load.js';

export interface TwinBench {
  seeds: number;
  builtinRunsPerS: number;
  moduleRunsPerS: number;
  ratio: number;
}

export function ownCodeTwinBench(seeds: number, now: () => number): TwinBench {
  const scenario = loadScenario('scenarios/own-code/twin-lua-unlock.yaml');
  const [builtin, module] = scenario.variants;
  runVariant(scenario, builtin, 1); // warm-up, and the user-code thread started
  runVariant(scenario, module, 1);
  const time = (v: typeof builtin): number => {
    const t0 = now();
    for (let seed = 1; seed <= seeds; seed++) runVariant(scenario, v, seed);
    return (now() - t0) / 1000;
  };
  const builtinS = time(builtin);
  const moduleS = time(module);
  return { seeds, builtinRunsPerS: seeds / builtinS, moduleRunsPerS: seeds / moduleS, ratio: builtinS / moduleS };
}

export function describeTwinBench(b: TwinBench): string {
  return `own code, scenarios/own-code/twin-lua-unlock.yaml over ${b.seeds} seeds: built-in lua-unlock ${b.builtinRunsPerS.toFixed(1)} runs/s, ` +
    `the same lock as a user module ${b.moduleRunsPerS.toFixed(1)} runs/s: ${b.ratio.toFixed(2)}x (target >= 0.2x)`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const seeds = Number(process.argv[2] ?? 20);
  console.log(describeTwinBench(ownCodeTwinBench(seeds, () => performance.now()))); // lock-sim: wall-clock ok
}
