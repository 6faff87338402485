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
    expect([r.redlockVersion, r.retryCount, r.retryDelayMs, r.retryJitterMs, r.driftFactor, r.instanceTimeoutMs]).toEqual(['v4', 10, 200, 100, 0.01, 50]);
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

describe('fence-check', () => {
  it('defaults to writes and accepts reads-and-writes on guard fenced-write', () => {
    const s = parseScenario(
      base('', '  w: { lock: fenced, guard: fenced-write }\n  rw: { lock: fenced, guard: fenced-write, fence-check: reads-and-writes }'),
      'f.yaml',
    );
    expect(s.variants.map((v) => v.fenceCheck)).toEqual(['writes', 'reads-and-writes']);
  });

  it('rejects it on another guard, and an unknown value with a suggestion', () => {
    expect(errorOf(base('', '  a: { lock: fenced, fence-check: writes }'))).toContain(
      'variants.a.fence-check: fence-check applies to guard fenced-write, not to this variant (lock fenced, guard none)',
    );
    const typo = errorOf(base('', '  a: { lock: fenced, guard: fenced-write, fence-check: reads-and-write }'));
    expect(typo).toMatch(/^f\.yaml:\d+:\d+: variants\.a\.fence-check: /);
    expect(typo).toContain('reads-and-writes');
  });
});

describe('redlock versions', () => {
  const independent = 'redis: { topology: independent }';

  it('takes instance-timeout and drift-factor for the spec', () => {
    const s = parseScenario(base('', '  r: { lock: redlock, redlock-version: spec, instance-timeout: 20ms, drift-factor: 0.02 }', independent), 'f.yaml');
    expect([s.variants[0].redlockVersion, s.variants[0].instanceTimeoutMs, s.variants[0].driftFactor]).toEqual(['spec', 20, 0.02]);
  });

  it('refuses instance-timeout for node-redlock (v4, the default, and v5) and drift-factor for v5, saying why', () => {
    const msg = errorOf(
      base(
        '',
        '  a: { lock: redlock, instance-timeout: 50ms }\n  b: { lock: redlock, redlock-version: v5, instance-timeout: 50ms, drift-factor: 0.01 }\n  c: { lock: redlock, redlock-version: v4, drift-factor: 0.02 }',
        independent,
      ),
    );
    expect(msg).toContain(
      "variants.a.instance-timeout: instance-timeout applies to redlock-version spec only: redlock-version v4 (node-redlock 4.2.0, the default) waits for the masters' replies with no per-instance timeout (ioredis has no command timeout by default); set redlock-version: spec to model one",
    );
    expect(msg).toContain('variants.b.instance-timeout: instance-timeout applies to redlock-version spec only: redlock-version v5 (node-redlock 5.0.0-beta.2) waits');
    expect(msg).toContain("variants.b.drift-factor: drift-factor does not apply to redlock-version v5 (node-redlock 5.0.0-beta.2): it only sets Lock.expiration, which v5's acquire never checks");
    expect(msg).not.toContain('variants.c');
  });

  it('names the versions for an unknown one, with a suggestion', () => {
    expect(errorOf(base('', '  r: { lock: redlock, redlock-version: spc }', independent))).toContain(
      'variants.r.redlock-version: unknown redlock version "spc" (did you mean "spec"?); expected one of: spec, v4, v5',
    );
    expect(errorOf(base('', '  r: { lock: lua-unlock, redlock-version: v5 }'))).toContain(
      'variants.r.redlock-version: redlock-version applies to lock redlock, not to this variant (lock lua-unlock, guard none)',
    );
  });
});

describe('redis, stock and expectations', () => {
  it('rejects replicas on a standalone server and masters outside Redlock', () => {
    const msg = errorOf(base('', undefined, 'redis: { replicas: 2, masters: 3 }'));
    expect(msg).toContain('redis.replicas: a standalone Redis has no replicas');
    expect(msg).toContain('redis.masters: masters applies to topology: independent (Redlock) or cluster (masters in the cluster)');
  });

  it('refuses a redis field for a topology it does not apply to, and takes it where it does', () => {
    const msg = errorOf(base('', undefined, 'redis: { topology: cluster, replicas: 1, down-after: 1s, replication-lag: 1ms }'));
    expect(msg).toContain('redis.down-after: down-after applies to topology: sentinel, not cluster');
    expect(msg).not.toContain('redis.replication-lag');
    expect(errorOf(base('', undefined, 'redis: { topology: sentinel, node-timeout: 5s }'))).toContain('redis.node-timeout: node-timeout applies to topology: cluster, not sentinel');
    expect(errorOf(base('', undefined, 'redis: { replication-backlog: 1ms, rediscover: 1s }'))).toContain(
      'redis.replication-backlog: replication-backlog applies to topology: sentinel or cluster, not standalone',
    );
    const cluster = parseScenario(base('', undefined, 'redis: { topology: cluster, replicas: 1, node-timeout: 5s, replication-lag: 1ms, rediscover: 1s }'), 'f.yaml');
    expect([cluster.redis.nodeTimeoutUs, cluster.redis.replicationLag]).toEqual([5_000_000, { kind: 'constant', valueUs: 1000 }]);
    expect(parseScenario(base('', undefined, 'redis: { min-replicas-to-write: 1 }'), 'f.yaml').redis.minReplicasToWrite).toBe(1);
  });

  it('takes redis.server, redis-7.0 by default, and refuses a version it does not model with its position', () => {
    expect(parseScenario(base(''), 'f.yaml').redis.server).toBe('redis-7.0');
    expect(parseScenario(base('', undefined, 'redis: { server: redis-8.4 }'), 'f.yaml').redis.server).toBe('redis-8.4');
    expect(parseScenario(base('', undefined, 'redis: { topology: sentinel, server: valkey-9.0 }'), 'f.yaml').redis.server).toBe('valkey-9.0');
    const error = errorOf(base('', undefined, 'redis: { server: redis-8.2 }'));
    expect(error).toMatch(/^f\.yaml:5:\d+: redis\.server: /);
    expect(error).toContain('redis-7.0');
    expect(error).toContain('valkey-9.0');
  });

  it('takes the Sentinel fields, with defaults from sentinel.conf', () => {
    const s = parseScenario(base('', undefined, 'redis: { topology: sentinel, replicas: 1 }'), 'f.yaml');
    expect([s.redis.sentinels, s.redis.quorum, s.redis.failoverTimeoutUs]).toEqual([3, 2, 180e6]);
    expect(s.redis.rediscover).toEqual({ kind: 'constant', valueUs: 0 });
    const t = parseScenario(base('', undefined, 'redis: { topology: sentinel, sentinels: 5, quorum: 4, failover-timeout: 30s, rediscover: "uniform(0ms, 1s)" }'), 'f.yaml');
    expect([t.redis.sentinels, t.redis.quorum, t.redis.failoverTimeoutUs]).toEqual([5, 4, 30e6]);
    expect(t.redis.rediscover).toEqual({ kind: 'uniform', minUs: 0, maxUs: 1e6 });
    expect(parseScenario(base('', undefined, 'redis: { topology: sentinel, sentinels: 4 }'), 'f.yaml').redis.quorum).toBe(3);
  });

  it('rejects Sentinel fields that cannot work, and those of another topology', () => {
    const msg = errorOf(base('', undefined, 'redis: { topology: sentinel, sentinels: 3, quorum: 4, down-after: 0 }'));
    expect(msg).toContain('redis.quorum: quorum 4 is more than the 3 Sentinels: no failover could ever start');
    expect(msg).toContain('redis.down-after: down-after must be longer than 0');
    expect(errorOf(base('', undefined, 'redis: { topology: cluster, quorum: 2 }'))).toContain('redis.quorum: quorum applies to topology: sentinel');
    expect(errorOf(base('', undefined, 'redis: { topology: sentinel, sentinels: 0 }'))).toContain('redis.sentinels');
    expect(errorOf(base('', undefined, 'redis: { topology: sentinel, sentinels: 16 }'))).toContain('redis.sentinels');
  });

  it('names what replaced the promotion field', () => {
    expect(errorOf(base('', undefined, 'redis: { topology: sentinel, promotion: 200ms }'))).toContain(
      "f.yaml:5:41: redis.promotion: no longer an option: the promotion follows Sentinel's own phases (down-after, sentinels, quorum) or the Cluster's election; to delay clients after the switch, use rediscover",
    );
  });

  it('takes masters for a Cluster (3 by default), never fewer than 3', () => {
    expect(parseScenario(base('', undefined, 'redis: { topology: cluster }'), 'f.yaml').redis.masters).toBe(3);
    expect(parseScenario(base('', undefined, 'redis: { topology: cluster, masters: 5 }'), 'f.yaml').redis.masters).toBe(5);
    expect(errorOf(base('', undefined, 'redis: { topology: cluster, masters: 2 }'))).toContain('redis.masters: a Redis Cluster has at least 3 masters');
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

describe('scripted requests (workload.requests)', () => {
  const script = (requests: string, extra = '') => `name: t
duration: 60s
stock: { sku: 1, available: 10, count: 2 }
workload: { clients: 2, ${extra}requests: ${requests} }
variants:
  v: { lock: lua-unlock, lease: 5s }
`;

  it('accepts requests at fixed instants, in time order, from client 1 unless told', () => {
    const s = parseScenario(script('[{ at: 10.2s, sku: 2, client: 2 }, { at: 10s, sku: 1 }, { at: 10.2s, sku: 1 }]'), 'f.yaml');
    expect(s.workload.arrival).toEqual({
      kind: 'script',
      requests: [
        { atUs: 10_000_000, sku: 1, client: 1 },
        { atUs: 10_200_000, sku: 2, client: 2 },
        { atUs: 10_200_000, sku: 1, client: 1 },
      ],
    });
  });

  it('rejects times outside the run, SKUs not in stock and clients that do not exist', () => {
    const msg = errorOf(script('[{ at: 60s, sku: 1 }, { at: 1s, sku: 3 }, { at: 1s, sku: 1, client: 3 }, { at: 59999ms, sku: 2, client: 2 }]'));
    expect(msg).toContain('f.yaml:4:42: workload.requests[0].at: 60s is not within the run (duration 60s)');
    expect(msg).toContain('workload.requests[1].sku: no sku 3 in stock');
    expect(msg).toContain('workload.requests[2].client: no client 3 (the workload has 2)');
    expect(msg).not.toContain('requests[3]');
    expect(errorOf(script('[{ at: -1s, sku: 1 }]'))).toContain('workload.requests[0].at: a duration cannot be negative, found "-1s"');
  });

  it('takes exactly one of arrival, users and requests, and at most 1000 requests', () => {
    expect(errorOf(script('[{ at: 1s, sku: 1 }]', 'arrival: 10/s, '))).toContain('workload: give one of arrival (open loop), users (closed loop) or requests (a script), not several');
    expect(errorOf(script('[{ at: 1s, sku: 1 }]').replace(', requests: [{ at: 1s, sku: 1 }]', ''))).toContain('workload: missing arrival (e.g. "200/s"), users (closed loop) or requests (a script)');
    const many = `[${Array.from({ length: 1001 }, () => '{ at: 1s, sku: 1 }').join(', ')}]`;
    expect(errorOf(script(many))).toContain('workload.requests: expected at most 1000 entries');
    expect(errorOf(script('[]'))).toContain('workload.requests: expected at least 1 entries');
    expect(errorOf(script('[{ at: 1s, sku: 1, clinet: 2 }]'))).toContain('workload.requests[0].clinet: unknown field "clinet" (did you mean "client"?)');
  });
});

describe('replication settings', () => {
  const sentinel = (redis: string, network = '') => base(network, undefined, `redis: { topology: sentinel, replicas: 1${redis} }`);

  it('defaults: 35-90 us in the primary\'s buffer (measured), the wire as the clients\' network, repl-timeout 60 s', () => {
    const s = parseScenario(sentinel(''), 'f.yaml');
    expect(s.redis.replicationBacklog).toEqual({ kind: 'uniform', minUs: 35, maxUs: 90 });
    expect(s.redis.replicationLag).toEqual(s.network.redisLatency);
    expect(s.redis.replTimeoutUs).toBe(60_000_000);
    const lan = parseScenario(sentinel('', 'network: { redis-latency: 2ms }'), 'f.yaml');
    expect(lan.redis.replicationLag).toEqual({ kind: 'constant', valueUs: 2000 });
  });

  it('takes each part and repl-timeout as given', () => {
    const s = parseScenario(sentinel(', replication-backlog: 50ms, replication-lag: "uniform(1ms, 20ms)", repl-timeout: 10s'), 'f.yaml');
    expect([s.redis.replicationBacklog, s.redis.replicationLag, s.redis.replTimeoutUs]).toEqual([
      { kind: 'constant', valueUs: 50_000 },
      { kind: 'uniform', minUs: 1_000, maxUs: 20_000 },
      10_000_000,
    ]);
  });

  it('rejects a negative backlog and a repl-timeout that is not whole seconds', () => {
    expect(errorOf(sentinel(', replication-backlog: -5ms'))).toContain('redis.replication-backlog: expected a duration (5ms) or a distribution');
    expect(errorOf(sentinel(', repl-timeout: 1500ms'))).toContain('redis.repl-timeout: repl-timeout is whole seconds, at least 1s; found 1.5s');
    expect(errorOf(sentinel(', repl-timeout: 0s'))).toContain('redis.repl-timeout: repl-timeout is whole seconds, at least 1s; found 0s');
    expect(errorOf(sentinel(', replication-backlgo: 5ms'))).toContain('unknown field "replication-backlgo" (did you mean "replication-backlog"?)');
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
