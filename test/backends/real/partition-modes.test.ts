/**
 * A partition's two modes, the same on the model and on real Redis: silent (the default:
 * bytes held, no reset) leaves the cut-off primary granting locks until its replicas' lag
 * passes min-replicas-max-lag, so two primaries hand out the same lock; reject (every
 * connection reset) makes it drop its replicas at once and refuse writes: no split brain.
 */
import { describe, expect, it } from 'vitest';
import { runVariant } from '../../../src/runner/run.js';
import { parseScenario } from '../../../src/scenario/load.js';
import { hasRedis } from './redis-available.js';
import { runReal } from './real-runs.js';

const scenario = (mode: 'silent' | 'reject'): string => `name: partition-${mode}
duration: 14s
drain: 3s
stock: { sku: 1, available: 100, count: 5 }
workload:
  clients: 2
  workers: 4
  arrival: 10/s
  steps: [lock, read, work, deduct, order, unlock]
dependencies:
  work: 300ms
network:
  command-timeout: 1s
redis:
  topology: sentinel
  replicas: 2
  down-after: 1s
  min-replicas-to-write: 1
  min-replicas-max-lag: 8s
faults:
  - { kind: partition, at: 1s, duration: 11s, isolate: [redis-0, client-1], mode: ${mode} }
variants:
  lua: { lock: lua-unlock, lease: 5s }
`;

describe('partition modes on the model', () => {
  it('silent: the cut-off primary keeps granting until its replicas lag 8 s: double holders', () => {
    const s = parseScenario(scenario('silent'), 'silent.yaml');
    expect(runVariant(s, s.variants[0]).metrics.doubleHolders).toBeGreaterThan(0);
  });

  it('... reject: it lets go of its replicas at once and refuses writes: none', () => {
    const s = parseScenario(scenario('reject'), 'reject.yaml');
    const r = runVariant(s, s.variants[0]);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.history.some((op) => op.f === 'acquire' && op.type === 'fail' && /NOREPLICAS/.test(String(op.detail)))).toBe(true);
  });
});

describe.skipIf(!hasRedis)('partition modes on real Redis', () => {
  it('silent (bytes held in the proxies, no reset): double holders, as in the model', async () => {
    const s = parseScenario(scenario('silent'), 'silent.yaml');
    expect((await runReal(s)).metrics.doubleHolders).toBeGreaterThan(0);
  });

  it('... reject (connections reset, new ones refused): none, as in the model', async () => {
    const s = parseScenario(scenario('reject'), 'reject.yaml');
    const r = await runReal(s);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.history.some((op) => op.f === 'acquire' && op.type === 'fail' && /NOREPLICAS/.test(String(op.detail)))).toBe(true);
  });
});
