/**
 * What Sentinel does besides the plain kill: DEBUG SLEEP, partitions (split brain and the
 * deposed primary told to follow), replica selection, no eligible replica and the retry
 * after failover-timeout, clients' rediscovery. Each failure next to a case where it must
 * not happen.
 */
import { describe, expect, it } from 'vitest';
import { failoverWorld, faultTimesS, runYaml } from '../../../helpers.js';
import type { RunResult } from '../../../../src/runner/run.js';
import { Simulation } from '../../../../src/engine/simulation.js';
import { Fabric } from '../../../../src/world/network.js';
import { RedisDeployment, type DeploymentParams } from '../../../../src/world/redis/deployment.js';
import { constant } from '../../../../src/engine/distribution.js';

function world(opts: { faults: string[]; redis?: string; replicas?: number; downAfter?: string; duration?: string; clients?: number; seed?: number }): string {
  const redis = `topology: sentinel, replicas: ${opts.replicas ?? 1}, down-after: ${opts.downAfter ?? '1s'}${opts.redis ? `, ${opts.redis}` : ''}`;
  return failoverWorld({ ...opts, name: 'sentinel-test', duration: opts.duration ?? '60s', redis });
}

/** Times (s) of the nemesis events of one kind. */
const at = faultTimesS;
const detail = (r: RunResult, fault: string): string[] =>
  r.history.flatMap((op) => (op.f === 'fault' && op.fault === fault ? [`${op.target}: ${op.detail}`] : []));

describe('DEBUG SLEEP of the primary', () => {
  it('past detection: failed over; when it wakes it is told to follow the new primary', () => {
    const r = runYaml(world({ faults: ['{ kind: redis-pause, node: primary, at: 10s, duration: 6s }'] }));
    expect(detail(r, 'failover')).toEqual(['redis-1: sentinel promoted redis-1 in place of redis-0']);
    const [convert] = at(r, 'convert-to-slave');
    // Sentinel sees it again at 16 s, then two INFOs 8+ s apart (every 10 s to a replica).
    expect(convert).toBeGreaterThan(16 + 8);
    expect(convert).toBeLessThan(16 + 12);
  });

  it('waking before ODOWN: flagged SDOWN perhaps, never failed over', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const r = runYaml(world({ seed, faults: ['{ kind: redis-pause, node: primary, at: 10s, duration: 1s }'] }));
      expect(at(r, 'failover'), `seed ${seed}`).toEqual([]);
      expect(at(r, 'odown'), `seed ${seed}`).toEqual([]);
    }
  });
});

describe('a partition between the primary and the Sentinels', () => {
  const split = '{ kind: partition, at: 10s, duration: 20s, isolate: [redis-0, client-1] }';

  it('split brain: the majority side fails over and moves; the minority client stays until the heal; the old primary follows ~10 s later', () => {
    const r = runYaml(world({ faults: [split] }));
    const [promotion] = at(r, 'failover');
    expect(promotion).toBeGreaterThan(11);
    expect(promotion).toBeLessThan(12);
    expect(detail(r, 'rediscover')).toEqual(['redis-1: client-2 now send to redis-1', 'redis-1: client-1 now send to redis-1']);
    expect(at(r, 'rediscover')[1]).toBe(30);
    const [convert] = at(r, 'convert-to-slave');
    expect(convert).toBeGreaterThan(30 + 8);
    expect(convert).toBeLessThan(30 + 12);
  });

  it('much shorter than down-after: no failover, nobody moves', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const r = runYaml(world({ seed, faults: ['{ kind: partition, at: 10s, duration: 400ms, isolate: [redis-0, client-1] }'] }));
      expect(at(r, 'failover'), `seed ${seed}`).toEqual([]);
      expect(at(r, 'rediscover'), `seed ${seed}`).toEqual([]);
      expect(at(r, 'convert-to-slave'), `seed ${seed}`).toEqual([]);
    }
  });
});

function sentinelParams(replicas: number): DeploymentParams {
  return {
    topology: 'sentinel',
    replicas,
    masters: 1,
    replicationBacklog: constant(50),
    replicationLag: constant(1000),
    replTimeoutUs: 60_000_000,
    downAfterUs: 1_000_000,
    nodeTimeoutUs: 15_000_000,
    sentinels: 3,
    quorum: 2,
    failoverTimeoutUs: 180_000_000,
    deciderLatency: constant(100),
    minReplicasToWrite: 0,
    minReplicasMaxLagUs: 10_000_000,
  };
}

describe('replica selection', () => {
  // redis-0 -> redis-N cut from 5 s on: that replica misses every write after it.
  const lagging = (n: number) => `{ kind: partition, at: 5s, duration: 50s, isolate: [redis-0], from: [redis-${n}] }`;
  const kill = '{ kind: primary-crash, at: 10s }';

  it('promotes the replica with the larger replication offset', () => {
    expect(detail(runYaml(world({ replicas: 2, faults: [lagging(1), kill] })), 'failover')).toEqual(['redis-2: sentinel promoted redis-2 in place of redis-0']);
    expect(detail(runYaml(world({ replicas: 2, faults: [lagging(2), kill] })), 'failover')).toEqual(['redis-1: sentinel promoted redis-1 in place of redis-0']);
  });

  it('skips a replica the Sentinels cannot reach, however good its offset', () => {
    // redis-1 misses the writes; redis-2 gets them but the Sentinels cannot reach it.
    const promotedWith = (cuts: Array<[string, string]>): string => {
      const sim = new Simulation(1);
      const fabric = new Fabric();
      const redis = new RedisDeployment(sim, sentinelParams(2), fabric);
      fabric.onChange = () => redis.networkChanged();
      fabric.cut(cuts);
      for (let i = 0; i < 10; i++) redis.primary.execute(['SET', `k${i}`, 'v'], 'r1', () => {});
      sim.run(5_000_000);
      redis.crash(redis.primary);
      sim.run(10_000_000);
      return redis.primary.name;
    };
    expect(promotedWith([['redis-0', 'redis-1'], ['sentinel', 'redis-2']])).toBe('redis-1');
    expect(promotedWith([['redis-0', 'redis-1']])).toBe('redis-2');
  });

  it('between equal offsets, takes the smaller run id', () => {
    const params = sentinelParams(3);
    for (let seed = 1; seed <= 5; seed++) {
      const sim = new Simulation(seed);
      const redis = new RedisDeployment(sim, params, new Fabric());
      const expected = redis.nodes.slice(1).sort((a, b) => (redis.snapshot(a).runId < redis.snapshot(b).runId ? -1 : 1))[0];
      sim.run(5_000_000);
      redis.crash(redis.primary);
      sim.run(10_000_000);
      expect(redis.primary).toBe(expected);
    }
  });
});

describe('no eligible replica', () => {
  // The replica is away (killed) when the primary dies; it comes back 4 s later.
  const faults = ['{ kind: redis-restart, node: redis-1, at: 9s, down-for: 4s }', '{ kind: primary-crash, at: 10s }'];

  it('aborts the failover and retries 2 x failover-timeout after the attempt began, plus the random start delay', () => {
    const retries: number[] = [];
    for (let seed = 1; seed <= 8; seed++) {
      const r = runYaml(world({ seed, redis: 'failover-timeout: 5s', faults }));
      expect(detail(r, 'failover-abort')[0], `seed ${seed}`).toMatch(/no replica eligible for promotion/);
      const [odown] = at(r, 'odown');
      const [promotion] = at(r, 'failover');
      // Started at ODOWN (plus a tick or two); retried 10 s + 0..1 s later, then a few ticks.
      expect(promotion - odown, `seed ${seed}`).toBeGreaterThan(10);
      expect(promotion - odown, `seed ${seed}`).toBeLessThan(11.6);
      retries.push(promotion - odown);
    }
    // The desync (rand() % SENTINEL_MAX_DESYNC) spreads the retries over most of a second.
    expect(Math.max(...retries) - Math.min(...retries)).toBeGreaterThan(0.3);
  });

  it('with the replica there, the first attempt succeeds', () => {
    const r = runYaml(world({ redis: 'failover-timeout: 5s', faults: ['{ kind: primary-crash, at: 10s }'] }));
    expect(at(r, 'failover-abort')).toEqual([]);
    expect(at(r, 'failover')[0] - at(r, 'odown')[0]).toBeLessThan(0.5);
  });
});

describe('clients after the switch', () => {
  const kill = '{ kind: primary-crash, at: 10s }';

  it('by default all follow at once, when Sentinel announces the switch', () => {
    const r = runYaml(world({ clients: 3, faults: [kill] }));
    expect(at(r, 'rediscover')).toEqual(at(r, 'switch-master'));
    expect(detail(r, 'rediscover')).toEqual(['redis-1: client-1, client-2, client-3 now send to redis-1']);
  });

  it('each its own rediscover later, drawn per client (Redisson polling every second)', () => {
    const r = runYaml(world({ clients: 3, redis: 'rediscover: "uniform(0ms, 1s)"', faults: [kill] }));
    const [announced] = at(r, 'switch-master');
    const moves = at(r, 'rediscover');
    expect(moves).toHaveLength(3);
    for (const t of moves) {
      expect(t).toBeGreaterThanOrEqual(announced);
      expect(t).toBeLessThanOrEqual(announced + 1);
    }
    expect(new Set(moves).size).toBe(3);
  });
});

describe('idle Sentinel ticks', () => {
  it('are skipped without changing anything: the same phases at the same microseconds as running every tick', () => {
    const scripts: Array<[string, (redis: RedisDeployment, fabric: Fabric, sim: Simulation) => void]> = [
      ['kill', (redis, _f, sim) => sim.scheduleAt(10_000_000, () => redis.crash(redis.primary))],
      ['sleep', (redis, _f, sim) => {
        const node = redis.primary;
        sim.scheduleAt(10_000_000, () => redis.setPaused(node, true));
        sim.scheduleAt(16_000_000, () => redis.setPaused(node, false));
      }],
      ['partition', (_r, fabric, sim) => {
        sim.scheduleAt(10_000_000, () => fabric.cut([['redis-0', 'sentinel'], ['redis-0', 'redis-1'], ['redis-0', 'redis-2']]));
        sim.scheduleAt(20_000_000, () => fabric.heal([['redis-0', 'sentinel'], ['redis-0', 'redis-1'], ['redis-0', 'redis-2']]));
      }],
      ['no replica, then retry', (redis, _f, sim) => {
        const [, r1, r2] = redis.nodes;
        sim.scheduleAt(9_000_000, () => (redis.crash(r1), redis.crash(r2)));
        sim.scheduleAt(10_000_000, () => redis.crash(redis.primary));
        sim.scheduleAt(13_000_000, () => redis.restart(r1, false));
      }],
    ];
    for (const [name, script] of scripts) {
      for (let seed = 1; seed <= 3; seed++) {
        const log = (everyTick: boolean): string[] => {
          const sim = new Simulation(seed);
          const fabric = new Fabric();
          const redis = new RedisDeployment(sim, { ...sentinelParams(2), failoverTimeoutUs: 5_000_000, everyDeciderTick: everyTick }, fabric);
          fabric.onChange = () => redis.networkChanged();
          const out: string[] = [];
          redis.onPhase((phase, target, detail) => out.push(`${sim.nowUs} ${phase} ${target.name} ${detail}`));
          redis.onFailover((_o, n) => out.push(`${sim.nowUs} failover ${n.name}`));
          const write = (): void => {
            redis.primary.execute(['SET', 'k', String(sim.nowUs)], 'w', () => {});
            sim.schedule(50_000, write);
          };
          write();
          script(redis, fabric, sim);
          sim.run(40_000_000);
          return out;
        };
        const eager = log(true);
        expect(eager.length, `${name} seed ${seed}`).toBeGreaterThan(2);
        expect(log(false), `${name} seed ${seed}`).toEqual(eager);
      }
    }
  });
});
