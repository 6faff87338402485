/**
 * User lock modules run on the simulation: timers and replies of a client wait out its GC
 * pause, a promise that never settles ends unknown at the drain, an exception is recorded
 * and the run goes on, and the same seed gives the same run.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/runner/run.js';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function world(opts: { lock: string; lease?: string; faults?: string[]; work?: string; clients?: number; duration?: string; extra?: string }): string {
  return `
name: own-code-test
seed: 1
duration: ${opts.duration ?? '10s'}
drain: 5s
stock: { sku: 1, available: 100000 }
workload: { clients: ${opts.clients ?? 2}, workers: 1, users: ${opts.clients ?? 2}, think: 300ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: ${opts.work ?? '3s'} }
faults:
${(opts.faults ?? []).map((f) => `  - ${f}`).join('\n') || '  []'}
variants:
  v: { lock: { module: ./modules/${opts.lock} }, lease: ${opts.lease ?? '1s'}${opts.extra ?? ''} }
`.replace('faults:\n  []', 'faults: []');
}

function run(yaml: string, seed?: number): RunResult {
  const scenario = parseScenario(yaml, join(HERE, 'test.yaml'));
  return runSimulated(scenario, scenario.variants[0], seed);
}

describe('own-code timers and GC pauses', () => {
  it('a setInterval refresh keeps a 1s lease through 3s of work: no double holder', () => {
    const r = run(world({ lock: 'refresh-lock.mjs' }));
    expect(r.metrics.orders).toBeGreaterThan(3);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.metrics.lockLost).toBe(0);
  });

  it('a 2s GC pause of the holder (client 2, from 1s) holds its refresh timer: the 1s lease runs out and another client takes the lock', () => {
    const r = run(world({ lock: 'refresh-lock.mjs', faults: ['{ kind: gc-pause, client: 2, at: 1s, duration: 2s }'] }));
    expect(r.metrics.doubleHolders).toBeGreaterThan(0);
  });

  it('... while a 500ms pause is shorter than what the last refresh left of the lease: kept', () => {
    const r = run(world({ lock: 'refresh-lock.mjs', faults: ['{ kind: gc-pause, client: 2, at: 1s, duration: 500ms }'] }));
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.metrics.lockLost).toBe(0);
  });
});

describe('own-code calls that never settle or throw', () => {
  it('an acquire whose promise never settles leaves its request unknown at the drain', () => {
    const r = run(world({ lock: 'hangs.mjs', work: '100ms', clients: 1 }));
    expect(r.metrics.outcomes.unknown).toBe(1);
    expect(r.metrics.orders).toBe(0); // the one user waits forever on its first request
  });

  it('... while two users, one stuck, leave the other ordering', () => {
    const r = run(world({ lock: 'hangs.mjs', work: '100ms', clients: 2 }).replace('clients: 2, workers: 1, users: 2', 'clients: 1, workers: 2, users: 2'));
    expect(r.metrics.outcomes.unknown).toBe(1);
    expect(r.metrics.orders).toBeGreaterThan(10);
  });

  it('an exception in acquire, thrown or rejected, fails that request with the message and the run goes on', () => {
    const r = run(world({ lock: 'throws.mjs', work: '100ms', clients: 1 }));
    const failed = r.history.filter((op) => op.f === 'acquire' && op.type === 'fail');
    expect(failed.map((op) => ('detail' in op ? op.detail : ''))).toEqual(expect.arrayContaining([expect.stringContaining('boom in acquire'), expect.stringContaining('TypeError: async boom')]));
    expect(r.metrics.orders).toBeGreaterThan(10);
    expect(r.metrics.doubleHolders).toBe(0);
  });
});

describe('own-code real I/O', () => {
  it('a module that opens a real network connection fails that request with a message that says why', () => {
    const r = run(world({ lock: 'real-io.mjs', work: '100ms', clients: 1, duration: '1s' }));
    const failed = r.history.filter((op) => op.f === 'acquire' && op.type === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    expect('detail' in failed[0] ? failed[0].detail : '').toBe('Error: lock-sim refused node:net connect() (called at modules/real-io.mjs:6:26): real network I/O is not simulated: talk to Redis through the clients the factory receives');
    // ... and the refusal is a diagnostic of the run, even when the library swallows the error.
    const refused = r.history.filter((op) => op.f === 'diagnostic' && op.kind === 'refused-call');
    expect(refused.length).toBe(failed.length);
    expect(refused[0]).toMatchObject({ process: 'client-1', frame: 'modules/real-io.mjs:6:26' });
  });

  it('... while the same world with a module that talks through its clients has no failed acquire', () => {
    const r = run(world({ lock: 'refresh-lock.mjs', work: '100ms', clients: 1, duration: '1s' }));
    expect(r.history.filter((op) => op.f === 'acquire' && op.type === 'fail')).toEqual([]);
  });
});

describe('own-code determinism and per-client environment', () => {
  const valuesOf = (r: RunResult): string[] => r.history.filter((op) => op.f === 'acquire' && op.type === 'ok').map((op) => `${op.process}@${op.timeUs}`);

  it('the same seed gives the same history twice, byte for byte', () => {
    const yaml = world({ lock: 'refresh-lock.mjs', faults: ['{ kind: gc-pause, client: 1, rate: 1/s, duration: "uniform(100ms, 2s)" }'] });
    const a = run(yaml, 7);
    const b = run(yaml, 7);
    expect(JSON.stringify(b.history)).toBe(JSON.stringify(a.history));
    expect(valuesOf(a).length).toBeGreaterThan(0);
  });

  it('another seed gives another history', () => {
    const yaml = world({ lock: 'refresh-lock.mjs', faults: ['{ kind: gc-pause, client: 1, rate: 1/s, duration: "uniform(100ms, 2s)" }'] });
    expect(JSON.stringify(run(yaml, 8).history)).not.toBe(JSON.stringify(run(yaml, 7).history));
  });
});
