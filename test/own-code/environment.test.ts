/**
 * Time and randomness inside user code are the simulation's, per client process: Date reads
 * the client's clock (offset by its jumps), timers run on it (a fast clock fires them sooner
 * in simulated time), and Math.random / crypto.randomUUID / crypto.randomBytes come from a
 * stream seeded per client: the same seed gives the same values, another client or seed others.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const EPOCH_MS = Date.UTC(2024, 0, 1);

interface Seen {
  date: number;
  newDate: number;
  perf: number;
  afterTimerMs: number;
  random: number;
  uuid: string;
  uuidNamespace: string;
  bytes: string;
  loadedAt: number;
}

function seen(faults: string, seed = 1): Array<Seen & { client: string; atUs: number }> {
  const scenario = parseScenario(`
name: env
seed: 1
duration: 5s
drain: 5s
stock: { sku: 1, available: 10 }
workload: { clients: 2, workers: 1, requests: [{ at: 2s, sku: 1, client: 1 }, { at: 2s, sku: 1, client: 2 }] }
network: { redis-latency: 1ms }
faults: ${faults}
variants:
  v: { lock: { module: ./modules/probe-env.mjs } }
`, join(HERE, 'env.yaml'));
  const r = runSimulated(scenario, scenario.variants[0], seed);
  return r.history
    .filter((o) => o.f === 'acquire' && o.type === 'fail')
    .map((o) => {
      const detail = 'detail' in o ? String(o.detail) : '';
      return { ...(JSON.parse(detail.slice(detail.indexOf('RESULTS ') + 8).replace(/ \(at [^)]*\)$/, '')) as Seen), client: o.process, atUs: o.timeUs };
    })
    .sort((a, b) => a.client.localeCompare(b.client));
}

describe('time inside user code', () => {
  it('Date reads the simulated instant on the client clock; a timer of 1000 ms ends 1000 ms later on it', () => {
    const [c1, c2] = seen('[]');
    expect(c1.date).toBe(EPOCH_MS + 2000);
    expect(c1.newDate).toBe(c1.date);
    expect(c1.perf).toBe(2000);
    expect(c1.afterTimerMs).toBe(1000);
    expect(c1.atUs).toBe(3_000_000);
    expect(c2.date).toBe(EPOCH_MS + 2000);
    expect(c1.loadedAt).toBe(EPOCH_MS + 2000); // the module is loaded for the run at its first call (2 s here)
  });

  it('a clock jump of one client moves its Date, not the other client\'s', () => {
    const [c1, c2] = seen('[{ kind: clock-jump, target: client-1, at: 1s, by: +10s }]');
    expect(c1.date).toBe(EPOCH_MS + 12_000);
    expect(c2.date).toBe(EPOCH_MS + 2000);
  });

  it('a client clock running 10% fast fires a 1000 ms timer after about 909 ms of simulated time', () => {
    const [c1, c2] = seen('[{ kind: clock-drift, target: client-1, at: 0s, duration: 10s, ppm: 100000 }]');
    expect(c1.atUs - 2_000_000).toBe(909_091);
    expect(c1.afterTimerMs).toBe(1000);
    expect(c2.atUs - 2_000_000).toBe(1_000_000);
  });
});

describe('randomness inside user code', () => {
  it('is seeded per client: the same seed gives the same draws, the two clients different ones', () => {
    const a = seen('[]');
    const b = seen('[]');
    expect(b.map((s) => [s.random, s.uuid, s.bytes])).toEqual(a.map((s) => [s.random, s.uuid, s.bytes]));
    expect(a[0].uuid).not.toBe(a[1].uuid);
    expect(a[0].random).not.toBe(a[1].random);
    expect(a[0].uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a[0].uuidNamespace).not.toBe(a[0].uuid);
  });

  it('... and another seed gives other draws', () => {
    expect(seen('[]', 2)[0].uuid).not.toBe(seen('[]', 1)[0].uuid);
  });
});

describe("Node's timer API on the simulated clock", () => {
  it('clears an interval in its own callback, a timeout by its Timeout or by the number of one whose id was taken, and an immediate', () => {
    const scenario = parseScenario(`
name: timer-api
seed: 1
duration: 3s
drain: 2s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }] }
variants:
  v: { lock: { module: ./modules/timer-api.mjs } }
`, join(HERE, 'timer-api.yaml'));
    const r = runSimulated(scenario, scenario.variants[0], 1);
    const op = r.history.find((o) => o.f === 'acquire' && o.type === 'fail');
    const detail = op && 'detail' in op ? String(op.detail) : '';
    const log = JSON.parse(detail.slice(detail.indexOf('RESULTS ') + 8).replace(/ \(at [^)]*\)$/, '')) as string[];
    // Node 20 lib/timers.js: clearTimeout(number) finds only a timer whose number was taken (knownTimersById).
    expect(log).toEqual(['immediate ran', 'fired before its clear', 'a number never taken names no timer: fired', 'interval ticks 3']);
  });
});

