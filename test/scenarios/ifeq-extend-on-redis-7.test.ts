/**
 * scenarios/ifeq-extend-on-redis-7.yaml: the failure its header names, next to the variant that
 * does not fail. On redis-7.0 every SET ... IFEQ extension is answered "ERR syntax error" and the
 * watchdog stops at its first one, so the lease of a slow request runs out under it; the Lua
 * compare-and-PEXPIRE extends every time. On the servers that have IFEQ (redis-8.4, valkey-8.1)
 * the same extension works as the script does: one round trip each, the same figures.
 */
import { describe, expect, it } from 'vitest';
import type { RenewOp } from '../../src/history/operation.js';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/spec/scenario.js';
import type { ServerVersion } from '../../src/spec/redis.js';

function run(scenario: Scenario, variant: string) {
  const v = scenario.variants.find((x) => x.name === variant)!;
  const r = runVariant(scenario, v);
  const renewals = r.history.filter((op): op is RenewOp => op.f === 'renew');
  return { metrics: r.metrics, renewals };
}

const onServer = (scenario: Scenario, server: ServerVersion): Scenario => ({ ...scenario, redis: { ...scenario.redis, server } });

describe('ifeq-extend-on-redis-7: a watchdog extending with SET IFEQ on a server without IFEQ', () => {
  const scenario = loadScenario('scenarios/ifeq-extend-on-redis-7.yaml');

  it('every extension is answered with redis 7.0\'s syntax error and its watchdog stops; none succeeds', () => {
    const { metrics, renewals } = run(scenario, 'ifeq-extend');
    expect(renewals.length).toBeGreaterThan(50);
    for (const op of renewals) {
      expect(op.type).toBe('fail');
      expect(op.detail).toBe('ERR syntax error; watchdog stops');
    }
    expect([metrics.renewals, metrics.renewalFailures]).toEqual([0, renewals.length]);
  });

  it('... so slow requests outlive their lease: two holders and lost updates, only while the risk check is slow', () => {
    const { metrics } = run(scenario, 'ifeq-extend');
    expect(metrics.doubleHolders).toBeGreaterThan(0);
    expect(metrics.lostUpdates).toBeGreaterThan(0);
    expect(metrics.firstDoubleHolderUs).toBeGreaterThanOrEqual(60_000_000);
  });

  it('while the Lua compare-and-PEXPIRE on the same server extends every time and the lock holds', () => {
    const { metrics, renewals } = run(scenario, 'lua-extend');
    expect(renewals.length).toBeGreaterThan(100);
    expect(renewals.every((op) => op.type === 'ok' && op.detail === 'extended to 2000ms')).toBe(true);
    expect([metrics.doubleHolders, metrics.lostUpdates, metrics.renewalFailures]).toEqual([0, 0, 0]);
  });

  it.each(['redis-8.4', 'valkey-8.1'] as const)('on %s SET IFEQ extends as the script does: the same figures', (server) => {
    const withIfeq = onServer(scenario, server);
    const ifeq = run(withIfeq, 'ifeq-extend');
    expect(ifeq.metrics.renewalFailures).toBe(0);
    expect(ifeq.metrics).toEqual(run(withIfeq, 'lua-extend').metrics);
  });
});
