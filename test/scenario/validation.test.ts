/** Scenario files for the casebook features: what is accepted, and the messages for what is not. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';

const base = (extra: string, variants = '  v: { lock: lua-unlock, lease: 5s }', redis = '') => `name: t
duration: 60s
stock: { sku: 1, available: 10 }
workload: { clients: 2, arrival: 10/s }
${redis}
${extra}
variants:
${variants}
`;

function errorOf(text: string): string {
  try {
    parseScenario(text, 'f.yaml');
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the scenario to be rejected');
}

describe('faults', () => {
  it('accepts every kind, at fixed times and at rates', () => {
    const s = parseScenario(
      base(
        `faults:
  - { kind: partition, at: 10s, duration: 5s, isolate: [redis-0, client-1] }
  - { kind: partition, rate: 2/m, duration: "uniform(1s, 5s)", isolate: [client-2], from: [primary] }
  - { kind: clock-jump, target: redis-0, at: 20s, by: -3s }
  - { kind: clock-drift, target: client-1, at: 1s, duration: 10s, ppm: 200 }
  - { kind: redis-pause, node: primary, at: 30s, duration: 2s }
  - { kind: redis-restart, node: redis-1, at: 40s, down-for: 15s, persistence: always }
  - { kind: network-delay, target: client-2, at: 5s, duration: 1s, delay: 90s }
  - { kind: db-slow, rate: 1/h, duration: 10s, factor: 20 }`,
        undefined,
        'redis: { topology: sentinel, replicas: 1 }',
      ),
      'f.yaml',
    );
    expect(s.faults.map((f) => f.kind)).toEqual(['partition', 'clock-jump', 'clock-drift', 'redis-pause', 'redis-restart', 'network-delay']);
    expect(s.faults[1]).toEqual({ kind: 'clock-jump', target: 'redis-0', atUs: 10e6 * 2, byUs: -3e6 });
    expect(s.randomFaults.map((f) => [f.template.kind, f.ratePerS])).toEqual([['partition', 1 / 30], ['db-slow', 1 / 3600]]);
    expect(s.randomFaults[0].duration).toEqual({ kind: 'uniform', minUs: 1e6, maxUs: 5e6 });
  });

  it('rejects unknown hosts, both at and rate, neither, and random durations at fixed times', () => {
    const msg = errorOf(
      base(`faults:
  - { kind: partition, at: 1s, duration: 1s, isolate: [redis-3] }
  - { kind: gc-pause, client: 1, at: 1s, rate: 1/m, duration: 1s }
  - { kind: gc-pause, client: 1, duration: 1s }
  - { kind: gc-pause, client: 1, at: 1s, duration: "uniform(1s, 2s)" }
  - { kind: redis-pause, node: client-1, at: 1s, duration: 1s }`),
    );
    expect(msg).toContain('f.yaml:7:56: faults[0].isolate[0]: no host "redis-3"');
    expect(msg).toContain('faults[1]: give either at (a fixed time) or rate (drawn from the seed), not both');
    expect(msg).toContain('faults[2]: missing at (e.g. 20s) or rate (e.g. 2/m)');
    expect(msg).toContain('faults[3].duration: a fault at a fixed time needs a fixed duration');
    expect(msg).toContain('faults[4].node: redis-pause needs a Redis node (redis-N or primary), found "client-1"');
    // Value syntax is checked first, on its own line and column.
    const syntax = errorOf(base('faults:\n  - { kind: clock-jump, target: redis-0, at: 1s, by: sideways }'));
    expect(syntax).toBe('f.yaml:7:54: faults[0].by: expected a duration like 250us, 800ms, 5s or 2m, found "sideways"');
  });

  it('explains an unquoted distribution inside a flow mapping', () => {
    const msg = errorOf(base('faults:\n  - { kind: gc-pause, client: 1, rate: 1/m, duration: uniform(1s, 2s) }'));
    expect(msg).toContain('inside a { ... } mapping the comma splits the value; quote it');
  });
});

describe('variants', () => {
  it('fills Redisson, Redlock and CAS defaults from the reference', () => {
    const s = parseScenario(
      base('', '  r: { lock: redlock }\n  w: { lock: redisson, wait: forever }\n  c: { lock: none, guard: version-cas }', 'redis: { topology: independent }'),
      'f.yaml',
    );
    const [r, w, c] = s.variants;
    expect([r.retryCount, r.retryDelayMs, r.retryJitterMs, r.driftFactor, r.instanceTimeoutMs]).toEqual([10, 200, 100, 0.01, 50]);
    expect([w.syncReplicas, w.watchdogOnError, w.waitMs, w.redissonVersion]).toEqual([true, 'continue', Number.POSITIVE_INFINITY, '4.7.0']);
    expect([c.casRetries, c.casBackoffMs, c.casJitterMs]).toEqual([2, 100, 30]);
    expect(s.redis.masters).toBe(5);
  });

  it('rejects options that belong to another lock or guard, and impossible pairings', () => {
    const msg = errorOf(
      base(
        '',
        '  a: { lock: lua-unlock, retry-count: 3, cas-retries: 1 }\n  b: { lock: redlock }\n  c: { lock: lua-unlock, guard: fenced-write }',
      ),
    );
    expect(msg).toContain('variants.a.retry-count: retry-count applies to lock redlock, not to this variant (lock lua-unlock, guard none)');
    expect(msg).toContain('variants.a.cas-retries: cas-retries applies to guard version-cas');
    expect(msg).toContain('variants.b.lock: redlock needs independent masters: set redis: { topology: independent, masters: 5 }');
    expect(msg).toContain('variants.c.guard: fenced-write needs a lock that hands out fencing tokens: lock: fenced');
    expect(errorOf(base('', '  d: { lock: redisson, wait: soon }'))).toContain('variants.d.wait: expected a duration like 250us, 800ms, 5s or 2m, found "soon" (or "forever"');
  });
});

describe('redis, stock and expectations', () => {
  it('rejects replicas on a standalone server and masters outside Redlock', () => {
    const msg = errorOf(base('', undefined, 'redis: { replicas: 2, masters: 3 }'));
    expect(msg).toContain('redis.replicas: a standalone Redis has no replicas');
    expect(msg).toContain('redis.masters: masters applies to topology: independent (Redlock)');
  });

  it('expands a SKU range and accepts a list of comparisons as a range', () => {
    const s = parseScenario(
      base('expect:\n  v: { stuck-time: ["> 0", "<= 5s"] }').replace('stock: { sku: 1, available: 10 }', 'stock: { sku: 7, available: 3, count: 3 }'),
      'f.yaml',
    );
    expect(s.stock).toEqual([{ sku: 7, available: 3 }, { sku: 8, available: 3 }, { sku: 9, available: 3 }]);
    expect(s.expectations.map((e) => [e.comparator, e.value])).toEqual([['>', 0], ['<=', 5e6]]);
  });
});

describe('redisson versions and options', () => {
  const variant = (options: string) => base('', `  v: { lock: redisson${options} }`);

  it('takes a released version or a minor line (its last release), and fills the version\'s defaults', () => {
    const at = (options: string) => parseScenario(variant(options), 'f.yaml').variants[0];
    expect(at('')).toMatchObject({ redissonVersion: '4.7.0', watchdogOnError: 'continue', syncReplicas: true, commandRetries: null, commandRetryIntervalMs: null });
    expect(at(', redisson-version: "3.25"')).toMatchObject({ redissonVersion: '3.25.2', watchdogOnError: 'stop' });
    expect(at(', redisson-version: 3.43.0, command-retries: 0, command-retry-interval: 200ms')).toMatchObject({ redissonVersion: '3.43.0', commandRetries: 0, commandRetryIntervalMs: 200 });
  });

  it('rejects unknown versions with a did-you-mean, and bare numbers (3.10 would read as 3.1)', () => {
    expect(errorOf(variant(', redisson-version: 3.47.1'))).toContain('f.yaml:8:42: variants.v.redisson-version: unknown Redisson version "3.47.1" (did you mean "3.47.0"?); known: released versions 3.11.0 to 4.7.0, or a minor line such as "3.25"');
    expect(errorOf(variant(', redisson-version: 3.25'))).toContain('variants.v.redisson-version: write the version in quotes ("3.25.0"): YAML reads 3.25 as a number');
    expect(errorOf(variant(', redisson-version: "2.15.2"'))).toContain('unknown Redisson version "2.15.2"');
  });

  it('refuses what the version does not have: checkLockSyncedSlaves before 3.17.0, a stopping watchdog from 3.44.0', () => {
    expect(errorOf(variant(', redisson-version: 3.16.6, sync-replicas: false'))).toContain(
      'variants.v.sync-replicas: sync-replicas is checkLockSyncedSlaves, which Redisson has from 3.17.0; 3.16.6 sends WAIT and cannot be told to ignore it',
    );
    expect(errorOf(variant(', redisson-version: 3.12.4, sync-replicas: true'))).toContain('3.12.4 sends no WAIT at all');
    expect(errorOf(variant(', watchdog-on-error: stop'))).toContain(
      'variants.v.watchdog-on-error: Redisson 4.7.0 renews every lock of a client from one timer that always goes on after an error; "stop" exists before 3.44.0 (set redisson-version)',
    );
    expect(errorOf(base('', '  v: { lock: lua-unlock, redisson-version: 3.43.0, command-retries: 2 }'))).toContain('variants.v.command-retries: command-retries applies to lock redisson');
  });
});
