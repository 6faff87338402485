/**
 * Agreement: the interval logic on made-up runs (agree / differ neighbours), and one small
 * real agree whose probabilities must agree within their intervals.
 */
import { describe, expect, it } from 'vitest';
import { AGREE_METRICS, checkRepeat, compareRuns, estimate, judge, testRuns } from '../../src/agree/agree.js';
import { agreeWithModel } from '../../src/agree/agree.js';
import type { RunResult } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';
import { hasRedis, REDIS_SERVER } from '../backends/real/redis-available.js';

/** A run whose metrics say only what the agreement reads. */
function run(doubleHolders: number, throughputPerS: number): RunResult {
  return { seed: 1, metrics: { oversold: 0, doubleHolders, stuckLockUs: 0, orphanLockUs: 0, throughputPerS } } as unknown as RunResult;
}

const many = (n: number, f: (i: number) => RunResult): RunResult[] => Array.from({ length: n }, (_, i) => f(i));

describe('agreement of two sets of runs', () => {
  it('probabilities: 0 of 20 against 3 of 8 differ (Fisher p 0.017), which overlapping Wilson intervals used to call consistent', () => {
    const v = compareRuns('v', many(20, () => run(0, 10)), many(8, (i) => run(i < 3 ? 1 : 0, 10)), ['p(double-holders)']);
    const row = v.rows.find((r) => r.metric === 'p(double-holders)');
    expect(row).toMatchObject({ test: 'fisher-exact', consistent: false });
    expect(row?.p).toBeCloseTo(0.0175, 3);
    expect(v.consistent).toBe(false);
  });

  it('... and 10 of 20 against 4 of 10 agree', () => {
    const v = compareRuns('v', many(20, (i) => run(i % 2, 10)), many(10, (i) => run(i < 4 ? 1 : 0, 10)));
    expect(v.rows.find((r) => r.metric === 'p(double-holders)')?.consistent).toBe(true);
    expect(v.consistent).toBe(true);
  });

  it('Holm corrects over every judged metric and variant: p 0.017 alone differs, among four variants it does not', () => {
    const differing = testRuns('a', many(20, () => run(0, 10)), many(8, (i) => run(i < 3 ? 1 : 0, 10)), ['p(double-holders)']);
    const others = ['b', 'c', 'd'].map((name) => testRuns(name, many(20, () => run(0, 10)), many(8, () => run(0, 10)), ['p(double-holders)']));
    judge([differing, ...others]);
    expect(differing.rows.find((r) => r.metric === 'p(double-holders)')?.adjustedP).toBeCloseTo(4 * 0.0175, 2);
    expect(differing.consistent).toBe(true);
  });

  it('rates: a shift Mann-Whitney sees differs, the same spread agrees', () => {
    const sim = many(20, (i) => run(0, 50 + (i % 5)));
    expect(compareRuns('v', sim, many(5, (i) => run(0, 51 + (i % 3)))).rows.find((r) => r.metric === 'orders/s')).toMatchObject({ test: 'mann-whitney', consistent: true });
    expect(compareRuns('v', sim, many(5, (i) => run(0, 70 + (i % 3)))).rows.find((r) => r.metric === 'orders/s')?.consistent).toBe(false);
  });

  it('equal runs agree (20 x 0.14 against 10 x 0.14), while 0.14 against 0.15 throughout differs', () => {
    expect(compareRuns('v', many(20, () => run(1, 0.14)), many(10, () => run(1, 0.14))).rows.find((r) => r.metric === 'orders/s')?.consistent).toBe(true);
    expect(compareRuns('v', many(20, () => run(1, 0.14)), many(10, () => run(1, 0.15))).rows.find((r) => r.metric === 'orders/s')?.consistent).toBe(false);
  });

  it('a metric left out of the judged ones is shown but does not decide, nor counts in the correction: --metrics', () => {
    const sim = many(20, () => run(1, 50));
    const real = many(5, () => run(1, 70));
    expect(compareRuns('v', sim, real).consistent).toBe(false);
    const judged = compareRuns('v', sim, real, ['p(oversold)', 'p(double-holders)']);
    expect(judged.consistent).toBe(true);
    expect(judged.rows.find((r) => r.metric === 'orders/s')).toMatchObject({ consistent: null, real: { estimate: 70 } });
  });

  const withStuck = (stuckS: number): RunResult => ({ seed: 1, metrics: { oversold: 0, doubleHolders: 0, stuckLockUs: stuckS * 1e6, orphanLockUs: 0, throughputPerS: 1 } }) as unknown as RunResult;

  it("stuck time agrees when the real runs are within the key watch's 20 ms of the model's: 0 s against 0.008 s", () => {
    const v = compareRuns('v', many(10, () => withStuck(0)), many(10, () => withStuck(0.008)));
    expect(v.rows.find((r) => r.metric === 'stuck-time')?.consistent).toBe(true);
  });

  it('... and differs when it is 0.05 s off', () => {
    const v = compareRuns('v', many(10, () => withStuck(0)), many(10, () => withStuck(0.05)));
    expect(v.rows.find((r) => r.metric === 'stuck-time')?.consistent).toBe(false);
    expect(v.consistent).toBe(false);
  });

  it('says the smallest difference its run counts detect: about 0.18 with 20 a side at P = 0', () => {
    const v = compareRuns('v', many(20, () => run(0, 1)), many(20, () => run(0, 1)));
    expect(v.rows.find((r) => r.metric === 'p(double-holders)')?.detectable).toBeCloseTo(0.184, 2);
  });

  it('pairs real run i with the model run of seed i', () => {
    const seeded = (seed: number, d: number): RunResult => ({ seed, metrics: { oversold: 0, doubleHolders: d, stuckLockUs: 0, orphanLockUs: 0, throughputPerS: 1 } }) as unknown as RunResult;
    const v = testRuns('v', [seeded(7, 1), seeded(8, 0)], [seeded(8, 1)], AGREE_METRICS, [8]);
    expect(v.pairs).toEqual([expect.objectContaining({ run: 1, seed: 8, simulated: expect.objectContaining({ 'p(double-holders)': 0 }), real: expect.objectContaining({ 'p(double-holders)': 1 }) })]);
  });

  it('--repeat is refused with the reason when it is more than the seeds (real run i replays seed i), and --repeat 1 works', () => {
    expect(() => checkRepeat(3, [1, 2])).toThrow(/replays seed i/);
    expect(() => checkRepeat(1, [1, 2])).not.toThrow();
    const one = compareRuns('v', many(20, () => run(1, 1)), many(1, () => run(1, 1)));
    expect(one.consistent).toBe(true);
  });

  it('estimates a probability as the share of runs where it happened', () => {
    const i = estimate(many(4, (k) => run(k === 0 ? 3 : 0, 1)), 'p(double-holders)');
    expect(i.estimate).toBe(0.25);
    expect(i.low).toBeLessThan(0.25);
    expect(i.high).toBeGreaterThan(0.25);
  });
});

describe.skipIf(!hasRedis)('agree on real Redis', () => {
  it('the constant-value DEL: model and real Redis agree on P(double holders) for both variants', async () => {
    const scenario = loadScenario('scenarios/real/constant-value-del.yaml');
    const result = await agreeWithModel(scenario, { seeds: [1, 2, 3, 4, 5], repeat: 2, redisServer: REDIS_SERVER });
    const constant = result.variants.find((v) => v.variant === 'constant');
    const lua = result.variants.find((v) => v.variant === 'token+lua');
    expect(constant?.rows.find((r) => r.metric === 'p(double-holders)')).toMatchObject({ consistent: true, simulated: { estimate: 1 }, real: { estimate: 1 } });
    expect(lua?.rows.find((r) => r.metric === 'p(double-holders)')).toMatchObject({ consistent: true, simulated: { estimate: 0 }, real: { estimate: 0 } });
    expect(constant?.realRuns).toBe(2);
    expect(constant?.simulatedRuns).toBe(5);
  });
});
