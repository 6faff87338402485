/**
 * Explore with users' own lock modules: a module runs the same schedules as the built-in lock
 * it copies (scenarios/own-code/twin-lua-unlock.yaml), and a module's windowed failure is
 * found and its witness replays (semaphore-gc-pause.yaml's 3 s Mutex), next to the 10 s one.
 */
import { describe, expect, it } from 'vitest';
import { exploreScenario, type ExploreOptions } from '../../src/explore/explore-scenario.js';
import { runJob } from '../../src/explore/job.js';
import { faultSpecs } from '../../src/explore/witness.js';
import { loadScenario } from '../../src/scenario/load.js';

const options = (variants: string[], budget: number): ExploreOptions => ({
  variants,
  maxFaults: 1,
  budget,
  kinds: [],
  conditions: [],
  pct: { depth: 1, rounds: 1, seed: 1 },
  merge: true,
  all: false,
  jobs: 1,
  wholeHistory: false,
});

describe('explore with own lock modules', () => {
  it("searches a module exactly as the built-in lock it copies: the same instants, schedules and states", async () => {
    const s = loadScenario('scenarios/own-code/twin-lua-unlock.yaml');
    const { variants } = await exploreScenario(s, options(['builtin', 'module'], 8));
    const [builtin, module] = variants.map((v) => v.result);
    expect(module.schedules).toBe(8);
    expect(module.baseInstants).toEqual(builtin.baseInstants);
    expect(module.distinctStates).toBe(builtin.distinctStates);
    expect(module.levels).toEqual(builtin.levels);
  });

  it("finds the 3 s Mutex's lost lock under a GC pause and replays it; the 10 s Mutex holds within the same budget", async () => {
    const s = loadScenario('scenarios/own-code/semaphore-gc-pause.yaml');
    const { variants, conditions } = await exploreScenario(s, options(['mutex-3s', 'mutex-10s'], 10));
    const [short, long] = variants;
    expect(short.result.stoppedBy).toBe('violation');
    const w = short.witnesses[0];
    const again = runJob(s, { id: 0, variant: 'mutex-3s', faults: faultSpecs(short.result.templates, w.faults), order: w.order, wantInstants: false, conditions, symmetric: false });
    expect(again.broken.length).toBeGreaterThan(0);
    expect(long.witnesses).toEqual([]);
  });
});
