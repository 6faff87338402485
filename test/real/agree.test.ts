/**
 * Agreement: the interval logic on made-up runs (agree / differ neighbours), and one small
 * real agree whose probabilities must agree within their intervals.
 */
import { describe, expect, it } from 'vitest';
import { agree, compareRuns, estimate } from '../../src/real/agree.js';
import type { RunResult } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';
import { hasRedis, REDIS_SERVER } from './redis-available.js';

/** A run whose metrics say only what the agreement reads. */
function run(doubleHolders: number, throughputPerS: number): RunResult {
  return { metrics: { oversold: 0, doubleHolders, stuckLockUs: 0, orphanLockUs: 0, throughputPerS } } as unknown as RunResult;
}

const many = (n: number, f: (i: number) => RunResult): RunResult[] => Array.from({ length: n }, (_, i) => f(i));

describe('agreement of two sets of runs', () => {
  it('probabilities agree when their Wilson intervals overlap: 10/20 and 4/10', () => {
    const v = compareRuns('v', many(20, (i) => run(i % 2, 10)), many(10, (i) => run(i < 4 ? 1 : 0, 10)));
    const row = v.rows.find((r) => r.metric === 'p(double-holders)');
    expect(row?.consistent).toBe(true);
    expect(v.consistent).toBe(true);
  });

  it('... and differ when they do not: 20/20 and 0/10', () => {
    const v = compareRuns('v', many(20, () => run(1, 10)), many(10, () => run(0, 10)));
    expect(v.rows.find((r) => r.metric === 'p(double-holders)')?.consistent).toBe(false);
    expect(v.consistent).toBe(false);
  });

  it('means agree when their t intervals overlap, differ when they do not', () => {
    const sim = many(20, (i) => run(0, 50 + (i % 5)));
    expect(compareRuns('v', sim, many(5, (i) => run(0, 51 + (i % 3)))).rows.find((r) => r.metric === 'orders/s')?.consistent).toBe(true);
    expect(compareRuns('v', sim, many(5, (i) => run(0, 70 + (i % 3)))).rows.find((r) => r.metric === 'orders/s')?.consistent).toBe(false);
  });

  it('equal runs agree although their means differ in the last bits (20 x 0.14 against 10 x 0.14)', () => {
    const v = compareRuns('v', many(20, () => run(1, 0.14)), many(10, () => run(1, 0.14)));
    expect(v.rows.find((r) => r.metric === 'orders/s')?.consistent).toBe(true);
  });

  it('... while intervals of width 0 a hundredth apart differ', () => {
    const v = compareRuns('v', many(20, () => run(1, 0.14)), many(10, () => run(1, 0.15)));
    expect(v.rows.find((r) => r.metric === 'orders/s')?.consistent).toBe(false);
  });

  it('a metric left out of the judged ones is shown but does not decide: --metrics', () => {
    const sim = many(20, () => run(1, 50));
    const real = many(5, () => run(1, 70));
    expect(compareRuns('v', sim, real).consistent).toBe(false);
    const judged = compareRuns('v', sim, real, ['p(oversold)', 'p(double-holders)']);
    expect(judged.consistent).toBe(true);
    expect(judged.rows.find((r) => r.metric === 'orders/s')).toMatchObject({ consistent: null, real: { estimate: 70 } });
  });

  it('stuck time agrees when the real mean is within the key watch\'s 20 ms of the model\'s: 0 s against 0.015 s', () => {
    const withStuck = (stuckS: number): RunResult => ({ metrics: { oversold: 0, doubleHolders: 0, stuckLockUs: stuckS * 1e6, orphanLockUs: 0, throughputPerS: 1 } }) as unknown as RunResult;
    const v = compareRuns('v', many(10, () => withStuck(0)), many(5, () => withStuck(0.015)));
    expect(v.rows.find((r) => r.metric === 'stuck-time')).toMatchObject({ consistent: true, real: { estimate: 0.015 } });
  });

  it('... and differs when it is 0.05 s off', () => {
    const withStuck = (stuckS: number): RunResult => ({ metrics: { oversold: 0, doubleHolders: 0, stuckLockUs: stuckS * 1e6, orphanLockUs: 0, throughputPerS: 1 } }) as unknown as RunResult;
    const v = compareRuns('v', many(10, () => withStuck(0)), many(5, () => withStuck(0.05)));
    expect(v.rows.find((r) => r.metric === 'stuck-time')?.consistent).toBe(false);
    expect(v.consistent).toBe(false);
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
    const result = await agree(scenario, { seeds: [1, 2, 3, 4, 5], repeat: 2, redisServer: REDIS_SERVER });
    const constant = result.variants.find((v) => v.variant === 'constant');
    const lua = result.variants.find((v) => v.variant === 'token+lua');
    expect(constant?.rows.find((r) => r.metric === 'p(double-holders)')).toMatchObject({ consistent: true, simulated: { estimate: 1 }, real: { estimate: 1 } });
    expect(lua?.rows.find((r) => r.metric === 'p(double-holders)')).toMatchObject({ consistent: true, simulated: { estimate: 0 }, real: { estimate: 0 } });
    expect(constant?.realRuns).toBe(2);
    expect(constant?.simulatedRuns).toBe(5);
  });
});
