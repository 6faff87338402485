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

  it('sends the token with writes only by default, and with reads too with fence-check: reads-and-writes', () => {
    const readFences = (guard: string) =>
      runYaml(world(guard, [])).history.flatMap((op) => (op.f === 'read-stock' && op.type === 'ok' ? [op.fence] : []));
    expect(new Set(readFences('fenced-write'))).toEqual(new Set([undefined]));
    const checked = readFences('fenced-write, fence-check: reads-and-writes');
    expect(checked.length).toBeGreaterThan(20);
    expect(checked.every((f) => typeof f === 'number' && f > 0)).toBe(true);
  });

  // Client 1 pauses at 10.5 s between its read and its write; its 5 s lease runs out and
  // client 2 takes the lock, reads, and works 2 s before writing.
  const pauseOf = (duration: string) => [`{ kind: gc-pause, client: 1, at: 10500ms, duration: ${duration} }`];

  it('accepts a late write that lands between the next holder\'s read and write when only writes are checked: an update is lost', () => {
    const writes = runYaml(world('fenced-write', pauseOf('6s')));
    expect(writes.metrics.doubleHolders).toBe(1);
    expect(writes.metrics.fenceRejections).toBe(0);
    expect(writes.metrics).toMatchObject({ lostUpdates: 1, lostUnits: 1 });
    // Checking reads: the next holder's read raised the row's token, so the late write is refused.
    const reads = runYaml(world('fenced-write, fence-check: reads-and-writes', pauseOf('6s')));
    expect(reads.metrics.fenceRejections).toBe(1);
    expect(reads.metrics.lostUpdates).toBe(0);
  });

  it('refuses a late write that lands after the next holder\'s write, whichever statements are checked', () => {
    for (const guard of ['fenced-write', 'fenced-write, fence-check: reads-and-writes']) {
      const r = runYaml(world(guard, pauseOf('10s')));
      expect(r.metrics.fenceRejections).toBe(1);
      expect(r.metrics.lostUpdates).toBe(0);
    }
  });
});
