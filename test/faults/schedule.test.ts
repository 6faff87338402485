/** Random fault schedules: drawn from the seed, never overlapping, inside the run. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Simulation } from '../../src/engine/simulation.js';
import { expandRandomFaults } from '../../src/faults/schedule.js';
import type { RandomFaultSpec } from '../../src/spec/faults.js';
import { runYaml } from '../helpers.js';

const gc: RandomFaultSpec = {
  template: { kind: 'gc-pause', client: 1, atUs: 0, durationUs: 0 },
  ratePerS: 1 / 60,
  duration: { kind: 'uniform', minUs: 1_000_000, maxUs: 40_000_000 },
};

describe('expandRandomFaults', () => {
  it('is a function of the seed', () => {
    const a = expandRandomFaults(gc, new Simulation(7).random.fork('f'), 3_600_000_000);
    const b = expandRandomFaults(gc, new Simulation(7).random.fork('f'), 3_600_000_000);
    const c = expandRandomFaults(gc, new Simulation(8).random.fork('f'), 3_600_000_000);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('draws non-overlapping occurrences inside the run, at about the rate (gaps plus durations)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (seed) => {
        const runUs = 3_600_000_000;
        const faults = expandRandomFaults(gc, new Simulation(seed).random.fork('f'), runUs);
        let endUs = 0;
        for (const f of faults) {
          if (f.kind !== 'gc-pause') return false;
          expect(f.atUs).toBeGreaterThanOrEqual(endUs);
          expect(f.atUs).toBeLessThan(runUs);
          expect(f.durationUs).toBeGreaterThanOrEqual(1_000_000);
          expect(f.durationUs).toBeLessThanOrEqual(40_000_000);
          endUs = f.atUs + f.durationUs;
        }
        // Mean cycle = 60 s gap + 20.5 s pause: about 45 per hour; far outside that is a bug.
        expect(faults.length).toBeGreaterThan(20);
        expect(faults.length).toBeLessThan(80);
        return true;
      }),
      { numRuns: 50 },
    );
  });

  it('feeds the run: the drawn pauses appear in the history', () => {
    const r = runYaml(`
name: random
duration: 600s
drain: 1s
stock: { sku: 1, available: 10 }
workload: { clients: 1, arrival: 1/s }
faults:
  - { kind: gc-pause, client: 1, rate: 6/m, duration: "uniform(100ms, 2s)" }
variants:
  v: { lock: lua-unlock, lease: 5s }
`);
    const starts = r.history.filter((op) => op.f === 'fault' && op.fault === 'gc-pause' && op.phase === 'start');
    expect(starts.length).toBeGreaterThan(20);
    expect(starts.length).toBeLessThan(100);
  });
});
