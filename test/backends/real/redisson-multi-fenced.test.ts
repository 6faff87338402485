/**
 * RedissonMultiLock and RFencedLock on real redis-server: the multi-lock's RLock scripts and
 * RFencedLock's token script (fenced-scripts.ts) run by the server, judged as on the model
 * (scenarios/real/multilock-opposite.yaml; a GC pause longer than the fenced lock's lease),
 * each failure next to what holds.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { hasRedis } from './redis-available.js';
import { gcPauseScenario, runReal } from './real-runs.js';

describe.skipIf(!hasRedis)('real backend: RedissonMultiLock', () => {
  const scenario = loadScenario('scenarios/real/multilock-opposite.yaml');

  it('two carts in opposite orders each hold one SKU and wait for the other: both give back, no order for them', async () => {
    const r = await runReal(scenario, 'as-given');
    expect(r.metrics.partialHoldsGivenBack).toBeGreaterThanOrEqual(2);
    expect(r.metrics.orders).toBeLessThanOrEqual(2);
  });

  it('... while one key order for every cart gives nothing back and orders all four', async () => {
    const r = await runReal(scenario, 'sorted');
    expect(r.metrics.partialHoldsGivenBack).toBe(0);
    expect(r.metrics.orders).toBe(4);
  });
});

describe.skipIf(!hasRedis)('real backend: RFencedLock', () => {
  // Client 1 takes the lock at 1 s (2 s lease) and pauses from 1.5 s to 5.5 s; client 2,
  // waiting from 2 s, takes it when the lease runs out with the next token and writes first.
  const fenced = (guard: string) => gcPauseScenario(`real-fenced-${guard}`, 'fenced.yaml', `f: { lock: redisson-fenced, lease: 2s, wait: 5s, guard: ${guard} }`);

  it('with fenced-write the storage refuses the paused holder\'s late write: its token is older than one it processed', async () => {
    const r = await runReal(fenced('fenced-write'));
    expect(r.metrics.doubleHolders).toBe(1);
    expect(r.metrics.fenceRejections).toBe(1);
    expect(r.metrics.lostUpdates).toBe(0);
    const tokens = r.history.flatMap((op) => (op.f === 'acquire' && op.type === 'ok' && op.fence !== undefined ? [op.fence] : []));
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).toBeGreaterThan(tokens[0]);
  });

  it('... while without the guard the late write lands and an update is lost', async () => {
    const r = await runReal(fenced('none'));
    expect(r.metrics.doubleHolders).toBe(1);
    expect(r.metrics.fenceRejections).toBe(0);
    expect(r.metrics.lostUpdates).toBe(1);
  });
});
