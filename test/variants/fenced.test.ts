/** The fenced lock and the fenced-write guard. */
import { describe, expect, it } from 'vitest';
import { runYaml } from '../helpers.js';

const world = (guard: string, faults: string[]) => `
name: fenced
duration: 60s
drain: 30s
stock: { sku: 1, available: 100000 }
workload: { clients: 2, workers: 2, users: 2, think: 50ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 2s }
faults:
${faults.length ? faults.map((f) => `  - ${f}`).join('\n') : '  []'}
variants:
  v: { lock: fenced, lease: 5s, wait: 20s, retry-interval: 20ms, guard: ${guard} }
`;

describe('fenced lock', () => {
  it('hands out strictly increasing tokens with every acquisition', () => {
    const r = runYaml(world('fenced-write', []));
    const fences = r.history.flatMap((op) => (op.f === 'acquire' && op.type === 'ok' && op.fence !== undefined ? [op.fence] : []));
    expect(fences.length).toBeGreaterThan(20);
    expect(fences).toEqual(fences.map((_, i) => i + 1));
    expect(r.metrics.staleTokens).toBe(0);
    expect(r.metrics.fenceRejections).toBe(0);
  });

  it('lets the storage refuse the stale holder after a pause', () => {
    const pause = ['{ kind: gc-pause, client: 1, at: 10500ms, duration: 10s }', '{ kind: gc-pause, client: 2, at: 30500ms, duration: 10s }'];
    const fenced = runYaml(world('fenced-write', pause));
    const unchecked = runYaml(world('none', pause));
    expect(fenced.metrics.doubleHolders).toBeGreaterThan(0);
    expect(fenced.metrics.fenceRejections).toBeGreaterThan(0);
    expect(fenced.metrics.lostUpdates).toBe(0);
    expect(fenced.metrics.outcomes.fenced).toBeGreaterThan(0);
    expect(unchecked.metrics.lostUpdates).toBeGreaterThan(0);
  });
});
