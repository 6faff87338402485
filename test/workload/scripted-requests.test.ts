/** workload.requests: requests at fixed instants, SKUs and clients, drawing nothing from the seed. */
import { describe, expect, it } from 'vitest';
import { runYaml } from '../helpers.js';
import type { RunResult } from '../../src/runner/run.js';

const world = (load: string) => `
name: script
duration: 30s
drain: 10s
stock: { sku: 1, available: 10, count: 3 }
workload: { clients: 2, workers: 1, ${load}, steps: [lock, read, deduct, order, unlock] }
variants:
  v: { lock: lua-unlock, lease: 5s }
`;

const arrivals = (r: RunResult) =>
  r.history.flatMap((op) => (op.f === 'request' && op.type === 'invoke' ? [[op.timeUs / 1e6, op.process, op.sku]] : []));

describe('scripted requests', () => {
  it('arrive exactly as written: when, at which client, for which SKU', () => {
    const r = runYaml(world('requests: [{ at: 10s, sku: 2 }, { at: 10.2s, sku: 3, client: 2 }, { at: 5s, sku: 1, client: 2 }]'));
    expect(arrivals(r)).toEqual([[5, 'client-2', 1], [10, 'client-1', 2], [10.2, 'client-2', 3]]);
    expect(r.metrics.orders).toBe(3);
  });

  it('are the same whatever the seed (an open arrival is not)', () => {
    const script = world('requests: [{ at: 10s, sku: 2 }, { at: 10.2s, sku: 3, client: 2 }]');
    expect(arrivals(runYaml(script, 'v', 2))).toEqual(arrivals(runYaml(script, 'v', 1)));
    const open = world('arrival: 1/s');
    expect(arrivals(runYaml(open, 'v', 2))).not.toEqual(arrivals(runYaml(open, 'v', 1)));
  });
});
