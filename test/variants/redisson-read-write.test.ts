/**
 * redisson-read-write on the model, at a version of each era of its scripts: two readers are
 * inside at once (no double holder, no read-write overlap), a writer that tries once while
 * they read is turned away, and one that waits gets in only after the last reader; the
 * watchdog keeps readers of 40s alive under a 30s lease at every version when one name is read.
 */
import { describe, expect, it } from 'vitest';
import { runVariant } from '../../src/runner/run.js';
import { parseScenario } from '../../src/scenario/load.js';

const VERSIONS = ['3.11.0', '3.24.0', '3.44.0', '4.0.0', '4.7.0'];

const scenario = (version: string, writerWait: string, workMs: number) => parseScenario(`name: rw
duration: 60s
drain: 60s
stock: { sku: 1, available: 10 }
workload:
  clients: 2
  workers: 4
  steps: [lock, read, work, deduct, order, unlock]
  requests:
    - { at: 0s, sku: 1, mode: read }
    - { at: 100ms, sku: 1, mode: read, client: 2 }
    - { at: 1s, sku: 1, mode: write }
dependencies:
  work: ${workMs}ms
variants:
  rw: { lock: redisson-read-write, redisson-version: "${version}", wait: ${writerWait} }
`, 'rw.yaml');

const run = (version: string, writerWait: string, workMs = 2_000) => {
  const s = scenario(version, writerWait, workMs);
  return runVariant(s, s.variants[0]);
};

describe.each(VERSIONS)('redisson-read-write %s', (version) => {
  it('lets two readers in together and turns away a writer that tries once', () => {
    const r = run(version, '0s');
    expect(r.metrics).toMatchObject({ readWriteOverlaps: 0, doubleHolders: 0, maxHolders: 0, orders: 0 });
    expect(r.metrics.outcomes).toMatchObject({ read: 2, 'lock-busy': 1 });
    const reads = r.history.flatMap((op) => (op.f === 'acquire' && op.type === 'ok' && op.mode === 'read' ? [op.request] : []));
    expect(reads).toEqual(['r1', 'r2']);
  });

  it('lets a waiting writer in after the last reader, not before', () => {
    const r = run(version, '10s');
    expect(r.metrics).toMatchObject({ readWriteOverlaps: 0, doubleHolders: 0, orders: 1 });
    const grant = r.history.find((op) => op.f === 'acquire' && op.type === 'ok' && op.request === 'r3')!;
    const lastOut = r.history.find((op) => op.f === 'release' && op.type === 'invoke' && op.request === 'r2')!;
    expect(grant.timeUs).toBeGreaterThanOrEqual(lastOut.timeUs);
    expect(r.violations).toEqual([]);
  });

  it('renews readers working past the 30s lease: the waiting writer still waits for them', () => {
    const r = run(version, '60s', 40_000);
    expect(r.metrics).toMatchObject({ readWriteOverlaps: 0, orders: 1 });
    expect(r.metrics.renewals).toBeGreaterThan(0);
  });
});

describe('redisson-read-write under generated arrivals', () => {
  const mixed = (share: number) => parseScenario(`name: rw-mixed
duration: 20s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 8, arrival: 40/s, read-share: ${share}, steps: [lock, read, work, deduct, order, unlock] }
dependencies:
  work: uniform(20ms, 60ms)
variants:
  rw: { lock: redisson-read-write, wait: 5s }
`, 'mixed.yaml');
  const run = (share: number) => {
    const s = mixed(share);
    return runVariant(s, s.variants[0]);
  };

  it('draws about the read share of readers, the same ones for the same seed, and keeps writers apart from them', () => {
    const a = run(0.75);
    const reads = a.metrics.outcomes.read ?? 0;
    expect(reads / a.metrics.requests).toBeGreaterThan(0.65);
    expect(reads / a.metrics.requests).toBeLessThan(0.85);
    // The rest are buyers that waited their 5 s out: a reader gets in while a writer waits (no writer preference).
    const busy = a.metrics.outcomes['lock-busy'];
    expect(a.metrics.orders + reads + busy).toBe(a.metrics.requests);
    expect(busy).toBeLessThan(0.05 * (a.metrics.requests - reads));
    expect(a.metrics).toMatchObject({ readWriteOverlaps: 0, doubleHolders: 0 });
    expect(run(0.75).metrics).toEqual(a.metrics);
  });

  it('with a share of 0 has only buyers and no read-write figures', () => {
    const b = run(0);
    expect(b.metrics.outcomes.read).toBeUndefined();
    expect(b.metrics.readWriteOverlaps).toBeUndefined();
    expect(b.metrics.orders).toBe(b.metrics.requests);
  });
});
