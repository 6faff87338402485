/** The search's order, budget, stopping, merging and PCT accounting, against a runner that makes outcomes up. */
import { describe, expect, it } from 'vitest';
import type { Job, Outcome } from '../../src/explore/job.js';
import { explore, type ExploreSettings } from '../../src/explore/search.js';
import { boundStatement, boundedFaults } from '../../src/explore/statement.js';
import { parseScenario } from '../../src/scenario/load.js';
import { SAFETY_VIOLATION } from '../../src/explore/violation.js';

const scenario = parseScenario(`name: s
duration: 10s
stock: { sku: 1, available: 10 }
workload: { clients: 2, requests: [ { at: 1s, sku: 1, client: 1 } ] }
faults:
  - { kind: crash, client: 1, at: 5s }
variants:
  v: { lock: set-nx-px, lease: 5s }
`, 's.yaml');

const instants = [1_000_000, 2_000_000, 3_000_000].map((atUs) => ({ atUs, kind: 'lock-executed' as const, hosts: ['client-1'], what: `at ${atUs}` }));

/** Outcomes by rule: `bad` says which fault times break; the states after a fault depend on `stateOf`. */
function fakeRunner(bad: (faults: number[]) => boolean, stateOf: (faults: number[]) => string = (f) => f.join(',')) {
  const seen: Job[] = [];
  return {
    seen,
    async run(batch: readonly Job[]): Promise<Outcome[]> {
      seen.push(...batch);
      return batch.map((j) => {
        const times = j.faults.map((f) => f.atUs);
        const broken = bad(times) ? ['stuck-time > 0'] : [];
        return {
          id: j.id,
          broken,
          firstViolation: broken.length > 0 ? { kind: 'stuck-lock', timeUs: 1, summary: 'stuck' } : null,
          instants: j.wantInstants ? instants : null,
          trajectory: [{ atUs: times[times.length - 1] ?? 0, state: stateOf(times) }],
          events: 100,
          ordering: j.order === null ? null : { threads: 10, steps: 90 },
        };
      });
    },
  };
}

const settings = (o: Partial<ExploreSettings> = {}): ExploreSettings => ({
  variant: 'v', maxFaults: 1, budget: 1000, kinds: [], conditions: SAFETY_VIOLATION, pct: { depth: 1, rounds: 1, seed: 1 }, merge: true, all: false, ...o,
});

describe('explore', () => {
  it('runs the base, its PCT schedule, then placements in order, and stops at the first violation', async () => {
    const runner = fakeRunner((f) => f[0] === 2_000_001);
    const r = await explore(scenario, settings(), runner);
    expect(r.stoppedBy).toBe('violation');
    expect(runner.seen[0].faults).toEqual([]);
    expect(runner.seen[1].order?.seed).toBe('1.1.1');
    // 999999, 1000001, 1999999, 2000001: the fourth placement, the sixth schedule.
    expect(r.found).toHaveLength(1);
    expect(r.found[0].schedule.id).toBe(6);
    expect(r.found[0].schedule.faults.map((f) => f.atUs)).toEqual([2_000_001]);
    expect(r.schedules).toBe(6);
  });

  it('states the bound when nothing breaks, with the PCT probability 1/n', async () => {
    const r = await explore(scenario, settings(), fakeRunner(() => false));
    expect(r.stoppedBy).toBe('complete');
    expect(r.levels.map((l) => [l.faults, l.placements, l.tried, l.pctTried])).toEqual([[0, 1, 1, 1], [1, 8, 8, 8]]);
    expect(r.pct.minProbability).toBeCloseTo(0.1);
    expect(boundStatement(r, 1)).toBe(
      'no violation with at most 1 fault of kinds crash client-1 at the 3 critical instants of this run (18 schedules, 9 distinct states; orderings: PCT depth 1, probability >= 1/10 (10.0%) per schedule)',
    );
  });

  it('spends at most the budget and says what is not claimed', async () => {
    const r = await explore(scenario, settings({ budget: 5 }), fakeRunner(() => false));
    expect(r.stoppedBy).toBe('budget');
    expect(r.schedules).toBe(5);
    expect(boundedFaults(r, 1)).toBe(0);
    expect(boundStatement(r, 1)).toMatch(/^no violation with at most 0 faults in the run without faults .*; the budget ran out among 1-fault placements \(3 of 8 placements, 0 of 0 PCT schedules\): nothing is claimed for 1 or more$/);
  });

  it('extends once the runs that went through the same states after their last fault', async () => {
    const merged = await explore(scenario, settings({ maxFaults: 2, pct: { depth: 1, rounds: 0, seed: 1 } }), fakeRunner(() => false, (f) => (f.length === 0 ? 'base' : 'same')));
    expect(merged.levels[1].merged).toBe(7);
    expect(merged.levels[2].placements).toBeLessThan(8);
    const unmerged = await explore(scenario, settings({ maxFaults: 2, merge: false, pct: { depth: 1, rounds: 0, seed: 1 } }), fakeRunner(() => false, (f) => (f.length === 0 ? 'base' : 'same')));
    expect(unmerged.levels[1].merged).toBe(0);
    expect(unmerged.levels[2].placements).toBeGreaterThan(merged.levels[2].placements);
  });

  it('with all, keeps the first schedule of each distinct violation and counts the rest', async () => {
    const r = await explore(scenario, settings({ all: true }), fakeRunner((f) => f.length > 0 && f[0] > 1_500_000));
    expect(r.stoppedBy).toBe('complete');
    expect(r.found).toHaveLength(1);
    expect(r.found[0].count).toBeGreaterThan(1);
  });
});
