/**
 * Redisson's semaphores on real redis-server: their acquire, release and trySetPermits Lua run
 * by the server (scenarios/real/semaphore-crash.yaml), with the permits observer judging the
 * history from the clients' side as on a simulated run. Certain by construction: the crash
 * strikes a second into three 1.5 s holds, and client 2 comes 3 s later.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { hasRedis } from './redis-available.js';
import { runReal } from './real-runs.js';

describe.skipIf(!hasRedis)('real backend: semaphores', () => {
  const scenario = loadScenario('scenarios/real/semaphore-crash.yaml');

  it('RSemaphore: the permits a killed client held are gone for good, and every later request is turned away', async () => {
    const r = await runReal(scenario, 'rsemaphore');
    expect(r.metrics.permitsLeaked).toBe(3);
    expect(r.metrics.orders).toBe(0);
    expect(r.metrics.permitsExceeded).toBe(0);
    // A semaphore's counter names no holder: the real run records no key state, as the model does.
    expect(r.history.some((op) => op.f === 'key-state')).toBe(false);
    expect(r.history.filter((op) => op.f === 'acquire' && op.type === 'ok')).toHaveLength(3);
  });

  it('... while RPermitExpirableSemaphore gets the three back at their lease end and sells to every later request', async () => {
    const r = await runReal(scenario, 'expirable');
    expect(r.metrics.permitsLeaked).toBe(0);
    expect(r.metrics.permitsExpired).toBe(3);
    expect(r.metrics.orders).toBe(6);
    expect(r.metrics.permitsExceeded).toBe(0);
  });
});
