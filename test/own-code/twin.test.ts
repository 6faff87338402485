/**
 * The README's hand-written Lua lock as a user module and the built-in `lua-unlock` are the
 * same algorithm: over 100 seeds of scenarios/own-code/twin-lua-unlock.yaml (seed-drawn GC
 * pauses, double holders on most seeds) they get the same verdict on every seed.
 */
import { describe, expect, it } from 'vitest';
import { verdictOf } from '../../src/report/verdict-paint.js';
import { runSimulated } from '../../src/backends/default-backend.js';
import { loadScenario } from '../../src/scenario/load.js';

describe('own-code twin of lua-unlock', () => {
  it('gets the verdict of the built-in lock on each of seeds 1..100, and breaks on some of them', () => {
    const scenario = loadScenario('scenarios/own-code/twin-lua-unlock.yaml');
    const [builtin, module] = scenario.variants;
    const differ: number[] = [];
    let unsafe = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const a = verdictOf(runSimulated(scenario, builtin, seed).metrics);
      const b = verdictOf(runSimulated(scenario, module, seed).metrics);
      if (a !== b) differ.push(seed);
      if (a === 'UNSAFE') unsafe++;
    }
    expect(differ).toEqual([]);
    expect(unsafe).toBeGreaterThan(30);
    expect(unsafe).toBeLessThan(100);
  });
});
