/**
 * The three Redlocks on hand-built situations: the spec (per-instance timeout), node-redlock
 * 4.2.0 (every reply, on ioredis without a command timeout) and 5.0.0-beta.2 (decides at a
 * quorum, no validity check). Each failure sits next to a neighbour that must not fail.
 */
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/runner/run.js';
import { runYaml } from '../helpers.js';

interface World {
  version: string;
  faults?: string[];
  lease?: string;
  work?: string;
  latency?: string;
  clients?: number;
  retryCount?: number;
  extra?: string;
}

/** Closed-loop users, one per client, that ask again 1 ms after each answer; five masters. */
const world = (w: World) => `
name: redlock-versions
duration: 100s
drain: 120s
stock: { sku: 1, available: 1000 }
workload: { clients: ${w.clients ?? 1}, workers: 1, users: ${w.clients ?? 1}, think: 1ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: ${w.work ?? '1s'} }
network: { redis-latency: ${w.latency ?? '1ms'} }
redis: { topology: independent, masters: 5 }
faults:
${(w.faults ?? []).length ? w.faults!.map((f) => `  - ${f}`).join('\n') : '  []'}
variants:
  v: { lock: redlock, redlock-version: ${w.version}, lease: ${w.lease ?? '10s'}, retry-count: ${w.retryCount ?? 0} ${w.extra ?? ''} }
`;

const run = (w: World): RunResult => runYaml(world(w));

/** The first answer to an acquire by `process`: ok / fail, when, and why. */
function firstAcquire(r: RunResult, process = 'client-1/w1'): { type: string; atMs: number; detail: string; request: string } {
  const op = r.history.find((o) => o.f === 'acquire' && o.type !== 'invoke' && o.process === process);
  if (!op || op.f !== 'acquire') throw new Error('no acquire answered');
  return { type: op.type, atMs: Math.round(op.timeUs / 1000), detail: op.detail ?? '', request: op.request ?? '' };
}

const VERSIONS = ['spec', 'v4', 'v5'] as const;

describe('a pause during acquisition (validity check)', () => {
  // Replies take 100 ms; client 1 pauses 12 s, more than the 10 s TTL, while they are in flight.
  const paused = (version: string, pause: string) =>
    run({ version, latency: '50ms', extra: version === 'spec' ? ', instance-timeout: 500ms' : '', faults: [`{ kind: gc-pause, client: 1, at: 10ms, duration: ${pause} }`] });

  it('v5 hands out a lock whose keys expired during the pause; the spec and v4 refuse it', () => {
    const [spec, v4, v5] = VERSIONS.map((v) => paused(v, '12s'));
    expect(firstAcquire(spec).type).toBe('fail');
    expect(firstAcquire(spec).detail).toMatch(/validity -\d+ms/);
    expect(firstAcquire(v4).type).toBe('fail');
    expect(firstAcquire(v4).detail).toMatch(/validity -\d+ms/);
    expect(firstAcquire(v5).type).toBe('ok');
    // Its critical section runs without the lock it was given.
    expect(v5.metrics.lockLost).toBe(1);
    expect([spec.metrics.lockLost, v4.metrics.lockLost]).toEqual([0, 0]);
  });

  it('all three take a valid lock when the pause is shorter than the TTL (5 s)', () => {
    for (const version of VERSIONS) {
      const r = paused(version, '5s');
      expect(firstAcquire(r).type).toBe('ok');
      expect(r.metrics.lockLost).toBe(0);
    }
  });
});

describe('a sleeping master (DEBUG SLEEP 3 s)', () => {
  const sleeping = (version: string, faults: string[]) => firstAcquire(run({ version, faults }));
  const sleep = ['{ kind: redis-pause, node: redis-4, at: 0s, duration: 3s }'];

  it('v5 decides at the quorum at once, the spec after its 50 ms instance timeout, v4 only when the sleeper wakes', () => {
    const [spec, v4, v5] = VERSIONS.map((v) => sleeping(v, sleep));
    expect([spec.type, v4.type, v5.type]).toEqual(['ok', 'ok', 'ok']);
    expect(v5.atMs).toBeLessThan(5);
    expect(spec.atMs).toBeGreaterThanOrEqual(50);
    expect(spec.atMs).toBeLessThan(60);
    expect(v4.atMs).toBeGreaterThanOrEqual(3000); // measured with node-redlock 4.2.0: 2.9 s after the call
  });

  it('all three answer within a few milliseconds when every master is awake', () => {
    for (const version of VERSIONS) expect(sleeping(version, []).atMs).toBeLessThan(5);
  });

  it('v4 refuses after the wake-up when the sleep outlasted a 2 s TTL (validity gone)', () => {
    const r = firstAcquire(run({ version: 'v4', lease: '2s', faults: sleep }));
    expect(r.type).toBe('fail');
    // 2000 - 3000 elapsed - 22 drift
    expect(r.detail).toMatch(/5 of 5 masters \(quorum 3, 0 unreachable\), validity -1022ms/);
  });
});

describe('a dead master (kill -9, down for 100 s)', () => {
  const dead = ['{ kind: redis-restart, node: redis-4, at: 0s, down-for: 100s, persistence: none }'];

  it('v4 cannot take a 10 s lock: ioredis fails the SET only after 10.5 s, and the unlock after 43 s', () => {
    const r = firstAcquire(run({ version: 'v4', faults: dead }));
    expect(r.type).toBe('fail');
    expect(r.detail).toMatch(/4 of 5 masters \(quorum 3, 1 unreachable\), validity -\d+ms/);
    // Measured with node-redlock 4.2.0 on ioredis 4.28.5: rejected 43.1 s after the kill.
    expect(r.atMs).toBeGreaterThan(43_000);
    expect(r.atMs).toBeLessThan(43_300);
  });

  it('v4 takes a 30 s lock after 10.5 s; the spec and v5 take a 10 s lock at once', () => {
    const v4 = firstAcquire(run({ version: 'v4', lease: '30s', faults: dead }));
    expect(v4.type).toBe('ok');
    expect(v4.atMs).toBeGreaterThan(10_500);
    expect(v4.atMs).toBeLessThan(10_700); // measured: 10.56 s
    const spec = firstAcquire(run({ version: 'spec', faults: dead }));
    const v5 = firstAcquire(run({ version: 'v5', faults: dead }));
    expect([spec.type, v5.type]).toEqual(['ok', 'ok']);
    expect(spec.atMs).toBeLessThan(60);
    expect(v5.atMs).toBeLessThan(5);
  });
});

describe('a master that restarts empty while v4 waits for it', () => {
  /** How often `request` wrote the lock key on `node`. */
  const keyWrites = (r: RunResult, node: string, request: string) =>
    r.history.filter((o) => o.f === 'key-state' && o.node === node && o.cause === 'write' && o.by === request).length;

  it('gets the waiting SET at the reconnect after its restart (2 s), and v4 holds all five masters', () => {
    const r = run({ version: 'v4', lease: '30s', faults: ['{ kind: redis-restart, node: redis-4, at: 0s, down-for: 2s, persistence: none }'] });
    const a = firstAcquire(r);
    expect(a.type).toBe('ok');
    expect(a.atMs).toBeGreaterThan(2_000);
    expect(a.atMs).toBeLessThan(2_500); // measured: 2.28 s
    expect(keyWrites(r, 'redis-4', a.request)).toBe(1);
  });

  it('never gets it when the restart comes after ioredis gave up on it (11 s): the lock holds four masters', () => {
    const r = run({ version: 'v4', lease: '30s', faults: ['{ kind: redis-restart, node: redis-4, at: 0s, down-for: 11s, persistence: none }'] });
    const a = firstAcquire(r);
    expect(a.type).toBe('ok');
    expect(a.atMs).toBeGreaterThan(10_500);
    expect(keyWrites(r, 'redis-4', a.request)).toBe(0);
  });
});

describe('retries after a refused attempt', () => {
  // Client 2 holds the lock (20 s) from the start; at 0.5 s redis-3 and redis-4 restart empty and
  // forget it. Client 1 (paused until 1 s) asks: three masters say taken, two say yes. At 1.1 s
  // redis-2's clock jumps past client 2's key. The retry comes at 1.2 s.
  const contested = (version: string) =>
    run({
      version,
      clients: 2,
      lease: '20s',
      work: '60s',
      retryCount: 2,
      extra: ', retry-jitter: 0ms',
      faults: [
        '{ kind: gc-pause, client: 1, at: 0s, duration: 1s }',
        '{ kind: redis-restart, node: redis-3, at: 500ms, down-for: 0s, persistence: none }',
        '{ kind: redis-restart, node: redis-4, at: 500ms, down-for: 0s, persistence: none }',
        '{ kind: clock-jump, target: redis-2, at: 1100ms, by: +25s }',
      ],
    });

  it('v5 keeps the keys of its refused attempt and they refuse its own retries (measured with 5.0.0-beta.2)', () => {
    const r = contested('v5');
    const a = firstAcquire(r);
    expect(a.type).toBe('fail');
    // The last attempt: redis-0 and -1 are client 2's, redis-2 holds the key of the second
    // attempt: three "taken", a decision before redis-3 and -4 (its own keys) answer.
    expect(a.detail).toMatch(/no quorum after 3 attempts: 0 of 5 masters \(quorum 3, 0 unreachable, 2 not answered yet\)/);
    const ownWrites = r.history.filter((o) => o.f === 'key-state' && o.cause === 'write' && o.by === a.request && o.timeUs < a.atMs * 1000);
    expect(ownWrites.map((o) => (o.f === 'key-state' ? o.node : ''))).toEqual(['redis-3', 'redis-4', 'redis-2']);
  });

  it('v4 unlocks after the refused attempt and wins the retry on redis-2, -3 and -4', () => {
    const a = firstAcquire(contested('v4'));
    expect(a.type).toBe('ok');
    expect(a.atMs).toBeGreaterThan(1_200);
    expect(a.atMs).toBeLessThan(1_300);
  });
});

describe('releasing', () => {
  const releases = (version: string, lease: string) =>
    run({ version, lease, work: '3s', retryCount: 10, extra: ', retry-jitter: 0ms' }).history.filter(
      (o) => o.f === 'release' && o.process === 'client-1/w1',
    );

  it('v5 retries the release of a lock whose keys expired (11 attempts, 2 s) before it fails; v4 fails at once', () => {
    const [v5Invoke, v5End] = releases('v5', '1s');
    expect(v5End.type).toBe('fail');
    expect(v5End.timeUs - v5Invoke.timeUs).toBeGreaterThan(2_000_000); // 10 pauses of 200 ms
    expect(v5End.timeUs - v5Invoke.timeUs).toBeLessThan(2_100_000);
    const [v4Invoke, v4End] = releases('v4', '1s');
    expect(v4End.type).toBe('fail');
    expect(v4End.timeUs - v4Invoke.timeUs).toBeLessThan(5_000);
  });

  it('v5 releases a live lock in one round trip', () => {
    const [invoke, end] = releases('v5', '10s');
    expect(end.type).toBe('ok');
    expect(end.timeUs - invoke.timeUs).toBeLessThan(5_000);
  });
});
