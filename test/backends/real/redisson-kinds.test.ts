/**
 * Redisson's read-write and fair locks on real redis-server: their Lua (read-write-scripts.ts,
 * fair-scripts.ts) run by the server, judged by the same observers as on the model
 * (scenarios/real/read-lock-timeout.yaml, fair-lock-dropped.yaml), each failure next to the
 * version that holds. Certain by construction: holds and waits of seconds against
 * milliseconds of scheduling noise.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { hasRedis } from './redis-available.js';
import { runReal } from './real-runs.js';

describe.skipIf(!hasRedis)('real backend: Redisson read-write lock', () => {
  const scenario = loadScenario('scenarios/real/read-lock-timeout.yaml');

  it('3.44.0: the second read lock\'s timeout keys are not renewed, a reader\'s unlock deletes the hash, a writer gets in beside a reader', async () => {
    const r = await runReal(scenario, 'v3-44');
    expect(r.metrics.readWriteOverlaps).toBe(1);
    expect(r.metrics.outcomes.read).toBe(3);
    expect(r.metrics.orders).toBe(1);
    // A read-write lock's hash names no one holder: no key state recorded, as on the model.
    expect(r.history.some((op) => op.f === 'key-state')).toBe(false);
  });

  it('... while 4.0.0 renews every reader\'s key and the writer waits for the last reader', async () => {
    const r = await runReal(scenario, 'v4-0');
    expect(r.metrics.readWriteOverlaps).toBe(0);
    expect(r.metrics.outcomes.read).toBe(3);
    expect(r.metrics.orders).toBe(1);
  });
});

describe.skipIf(!hasRedis)('real backend: Redisson fair lock', () => {
  const scenario = loadScenario('scenarios/real/fair-lock-dropped.yaml');

  it('3.30.0 with a 1 s threadWaitTime drops the first waiters behind a 6 s holder: later arrivals go first, the dropped still wait', async () => {
    const r = await runReal(scenario, 'fair-3.30-1s');
    expect(r.metrics.starvedWaiters).toBeGreaterThanOrEqual(1);
    expect(r.metrics.fifoOvertakes).toBeGreaterThanOrEqual(1);
    expect(r.metrics.doubleHolders).toBe(0);
  });

  it('... while 4.7.0\'s 5 minutes keeps the queue in arrival order', async () => {
    const r = await runReal(scenario, 'fair-4.7');
    expect(r.metrics.starvedWaiters).toBe(0);
    expect(r.metrics.fifoOvertakes).toBe(0);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.metrics.orders).toBeGreaterThan(10);
  });
});
