/**
 * The real backend and agree as a user's code imports them (`from 'lock-sim'`, the built
 * dist/): the agreement logic on made-up runs (agree / differ neighbours), and one short real
 * run when a redis-server is installed.
 */
import { describe, expect, it } from 'vitest';
import { AGREE_METRICS, checkRedisServer, compareRuns, loadScenario, RealBackendError, runScenarioReal, type AgreeVariant, type RunResult } from 'lock-sim';
import { hasRedis, REDIS_SERVER } from './backends/real/redis-available.js';

const run = (doubleHolders: number): RunResult => ({ metrics: { oversold: 0, doubleHolders, stuckLockUs: 0, orphanLockUs: 0, throughputPerS: 1 } }) as unknown as RunResult;

describe("import { agree, compareRuns, runScenarioReal } from 'lock-sim'", () => {
  it('compareRuns judges every metric of AGREE_METRICS: 10/10 double holders against 5/5 agree', () => {
    const v: AgreeVariant = compareRuns('v', Array.from({ length: 10 }, () => run(1)), Array.from({ length: 5 }, () => run(1)));
    expect(v.rows.map((r) => r.metric)).toEqual([...AGREE_METRICS]);
    expect(v.consistent).toBe(true);
  });

  it('... and 10/10 against 0/5 differ', () => {
    const v = compareRuns('v', Array.from({ length: 10 }, () => run(1)), Array.from({ length: 5 }, () => run(0)));
    expect(v.consistent).toBe(false);
  });

  it('a missing redis-server is a RealBackendError (exit 2 in the CLI)', () => {
    expect(() => checkRedisServer('/nonexistent/redis-server')).toThrow(RealBackendError);
  });

  it.skipIf(!hasRedis)('runs a scenario against real Redis and judges its expectations', async () => {
    const scenario = loadScenario('scenarios/real/constant-value-del.yaml');
    const result = await runScenarioReal(scenario, { variants: ['token+lua'], redisServer: REDIS_SERVER });
    expect(result.runs[0].metrics.doubleHolders).toBe(0);
    expect(result.runs[0].metrics.orders).toBeGreaterThan(0);
    expect(result.passed).toBe(true);
  });
});
