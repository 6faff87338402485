/**
 * `client: node-redis` on the real backend: the module gets real node-redis clients (the
 * `redis` package the module would import), connected through its process's proxy, with the
 * same contract as ioredis: the request behind each command is noted for the key watch, a
 * GC pause holds the module's timers. npm simple-redis-mutex 3.0.0, unmodified, under a pause
 * longer than its lease and next to one shorter.
 */
import { describe, expect, it } from 'vitest';
import { livePids } from '../../src/backends/real/processes.js';
import { hasRedis } from '../backends/real/redis-available.js';
import { gcPauseScenario, runReal } from '../backends/real/real-runs.js';

function pause(leaseS: number, client = 'node-redis') {
  return runReal(
    gcPauseScenario(
      'real-node-redis-pause',
      'node-redis-pause.yaml',
      `mutex: { lock: { module: ./scenarios/own-code/locks/simple-redis-mutex.mjs, client: ${client}, keys: "@simple-redis-mutex:lock-{key}", options: { pollingInterval: 200 } }, lease: ${leaseS}s, wait: forever }`,
    ),
  );
}

describe.skipIf(!hasRedis)('node-redis clients on the real backend', () => {
  it('simple-redis-mutex: a GC pause longer than its lease lets the key expire, two holders', async () => {
    const r = await pause(2);
    expect(r.metrics.doubleHolders).toBeGreaterThanOrEqual(1);
    expect(r.metrics.lockLost).toBeGreaterThanOrEqual(1);
    expect(livePids()).toEqual([]);
  });

  it('... while a lease longer than the pause holds, and the key is read as the requests\' own', async () => {
    const r = await pause(10);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.metrics.lockLost).toBe(0);
    expect(r.metrics.orders).toBe(2);
    expect(r.history.some((op) => op.f === 'key-state' && op.holder === 'r1')).toBe(true);
  });

  it('refuses a family the installed package does not speak, naming both', async () => {
    await expect(pause(10, 'node-redis@4')).rejects.toThrow(/asks for node-redis 4, but the redis package found for the module is 5\./);
    expect(livePids()).toEqual([]);
  });
});
