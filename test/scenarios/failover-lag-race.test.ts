/**
 * scenarios/failover-lag-race*.yaml against the model's own boundary: the lock write
 * reaches the primary at 10 s and waits 50 ms in its output buffer, so a kill before
 * 10.050 s loses it (the second request acquires: two holders) and a kill from then on
 * keeps it (the second request is turned away). The two files sit 1 ms either side.
 */
import { describe, expect, it } from 'vitest';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/spec/scenario.js';

const WRITE_AT_US = 10_000_000;

function killedAfter(scenario: Scenario, kMs: number) {
  const faults = scenario.faults.map((f) => (f.kind === 'primary-crash' ? { ...f, atUs: WRITE_AT_US + kMs * 1000 } : f));
  const { metrics } = runVariant({ ...scenario, faults }, scenario.variants[0]);
  return { doubleHolders: metrics.doubleHolders, lockBusy: metrics.outcomes['lock-busy'] };
}

describe('failover-lag-race: a 50 ms backlog, the primary killed K ms after the write', () => {
  const scenario = loadScenario('scenarios/failover-lag-race.yaml');

  it('the write reaches the primary at 10 s, as the files say', () => {
    const run = runVariant(scenario, scenario.variants[0]);
    const write = run.history.find((op) => op.f === 'key-state' && op.node === 'redis-0' && op.cause === 'write');
    expect(write?.timeUs).toBe(WRITE_AT_US);
  });

  it('loses the lock for K = 45..49 ms and keeps it for K = 50..55 ms', () => {
    const lost = { doubleHolders: 1, lockBusy: 0 };
    const kept = { doubleHolders: 0, lockBusy: 1 };
    for (let k = 45; k <= 55; k++) expect([k, killedAfter(scenario, k)]).toEqual([k, k < 50 ? lost : kept]);
  });

  it('the two files sit 1 ms either side of that boundary', () => {
    const crashAt = (file: string) => loadScenario(file).faults.find((f) => f.kind === 'primary-crash')?.atUs;
    expect(crashAt('scenarios/failover-lag-race.yaml')).toBe(WRITE_AT_US + 49_000);
    expect(crashAt('scenarios/failover-lag-race-kept.yaml')).toBe(WRITE_AT_US + 51_000);
  });
});
