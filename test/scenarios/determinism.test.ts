/**
 * Same scenario + seed -> byte-identical result, for the scenarios whose randomness runs
 * deepest: seed-drawn fault schedules, Redlock's retry jitter, CAS backoff jitter,
 * replication lag with failover, and node-redlock's ioredis connections under partitions.
 */
import { describe, expect, it } from 'vitest';
import { resultToJson } from '../../src/report/json.js';
import { runScenario } from '../../src/backends/run-scenario.js';
import { loadScenario } from '../../src/scenario/load.js';

const files = ['random-gc-pauses.yaml', 'redlock-clock-jump.yaml', 'version-cas-retry-storm.yaml', 'failover-wait-sync.yaml', 'redlock-v4-hangs.yaml'];

describe.each(files)('scenarios/%s', (file) => {
  it('gives byte-identical JSON when run twice, and another result for another seed', () => {
    const scenario = loadScenario(`scenarios/${file}`);
    const a = JSON.stringify(resultToJson(runScenario(scenario)));
    const b = JSON.stringify(resultToJson(runScenario(scenario)));
    expect(a).toBe(b);
    const c = JSON.stringify(resultToJson(runScenario(scenario, { seed: scenario.seed + 1 })));
    expect(c).not.toBe(a);
  });
});
