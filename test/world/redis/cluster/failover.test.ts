/**
 * Redis Cluster failover: what the cluster does to a partitioned or sleeping master, and idle
 * crons skipped without effect. The PFAIL -> FAIL timing against real Redis over 200 seeds
 * is in timing.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { clusterWorld, faultTimesS, runYaml } from '../../../helpers.js';
import type { RunResult } from '../../../../src/runner/run.js';
import { constant } from '../../../../src/engine/distribution.js';
import { Simulation } from '../../../../src/engine/simulation.js';
import { Fabric } from '../../../../src/world/network.js';
import { RedisDeployment, type DeploymentParams } from '../../../../src/world/redis/deployment.js';

const world = clusterWorld;
const at = faultTimesS;

describe('a sleeping master', () => {
  it('back before node-timeout: no PFAIL, no failover', () => {
    const r = runYaml(world({ faults: ['{ kind: redis-pause, node: primary, at: 30s, duration: 10s }'] }));
    expect(at(r, 'pfail')).toEqual([]);
    expect(at(r, 'failover')).toEqual([]);
  });

  it('asleep past detection: failed over, and it follows the new master as soon as it wakes', () => {
    const r = runYaml(world({ faults: ['{ kind: redis-pause, node: primary, at: 30s, duration: 30s }'] }));
    expect(at(r, 'failover')).toHaveLength(1);
    const [convert] = at(r, 'convert-to-slave');
    expect(convert).toBeGreaterThanOrEqual(60);
    expect(convert).toBeLessThan(60.2);
  });
});

describe('a master partitioned away with a client', () => {
  const clusterDown = (r: RunResult) =>
    r.history.filter((op) => op.type === 'fail' && 'detail' in op && typeof op.detail === 'string' && op.detail.startsWith('CLUSTERDOWN')).map((op) => op.timeUs / 1e6);

  it('refuses writes once it sees the other masters unreachable (node-timeout plus its wait for a PING), and follows the new master right after the heal', () => {
    const r = runYaml(world({ faults: ['{ kind: partition, at: 20s, duration: 30s, isolate: [redis-0, client-1] }'] }));
    const refused = clusterDown(r);
    expect(refused.length).toBeGreaterThan(0);
    expect(Math.min(...refused)).toBeGreaterThan(20 + 15);
    expect(Math.max(...refused)).toBeLessThan(50.2);
    expect(at(r, 'failover')).toHaveLength(1);
    const [convert] = at(r, 'convert-to-slave');
    expect(convert).toBeGreaterThanOrEqual(50);
    expect(convert).toBeLessThan(50.2);
  });

  it('for a few seconds only: keeps serving, no failover', () => {
    const r = runYaml(world({ faults: ['{ kind: partition, at: 20s, duration: 5s, isolate: [redis-0, client-1] }'] }));
    expect(clusterDown(r)).toEqual([]);
    expect(at(r, 'failover')).toEqual([]);
  });
});

describe('idle cluster crons', () => {
  it('are skipped without changing anything: the same phases at the same microseconds as running every cron', () => {
    const params = (everyCron: boolean): DeploymentParams => ({
      topology: 'cluster',
      replicas: 2,
      masters: 3,
      replicationBacklog: constant(50),
      replicationLag: constant(1000),
      replTimeoutUs: 60_000_000,
      downAfterUs: 30_000_000,
      nodeTimeoutUs: 5_000_000,
      sentinels: 3,
      quorum: 2,
      failoverTimeoutUs: 180_000_000,
      deciderLatency: constant(300),
      minReplicasToWrite: 0,
      minReplicasMaxLagUs: 10_000_000,
      everyDeciderTick: everyCron,
    });
    const cut = [['redis-0', 'sentinel'], ['redis-0', 'redis-1'], ['redis-0', 'redis-2']] as Array<[string, string]>;
    const scripts: Array<[string, (redis: RedisDeployment, fabric: Fabric, sim: Simulation) => void]> = [
      ['kill', (redis, _f, sim) => sim.scheduleAt(10_000_000, () => redis.crash(redis.primary))],
      ['sleep', (redis, _f, sim) => {
        const node = redis.primary;
        sim.scheduleAt(10_000_000, () => redis.setPaused(node, true));
        sim.scheduleAt(25_000_000, () => redis.setPaused(node, false));
      }],
      ['partition', (_r, fabric, sim) => {
        sim.scheduleAt(10_000_000, () => fabric.cut(cut));
        sim.scheduleAt(25_000_000, () => fabric.heal(cut));
      }],
    ];
    for (const [name, script] of scripts) {
      for (let seed = 1; seed <= 3; seed++) {
        const log = (everyCron: boolean): string[] => {
          const sim = new Simulation(seed);
          const fabric = new Fabric();
          const redis = new RedisDeployment(sim, params(everyCron), fabric);
          fabric.onChange = () => redis.networkChanged();
          const out: string[] = [];
          redis.onPhase((phase, target, detail) => out.push(`${sim.nowUs} ${phase} ${target.name} ${detail}`));
          redis.onFailover((_o, n) => out.push(`${sim.nowUs} failover ${n.name}`));
          const write = (): void => {
            redis.primary.execute(['SET', 'k', String(sim.nowUs)], 'w', (reply) => out.push(`${sim.nowUs} ${String(reply)}`));
            sim.schedule(100_000, write);
          };
          write();
          script(redis, fabric, sim);
          sim.run(40_000_000);
          return out;
        };
        const every = log(true);
        expect(every.filter((l) => l.includes('failover')).length, `${name} seed ${seed}`).toBeGreaterThan(0);
        expect(log(false), `${name} seed ${seed}`).toEqual(every);
      }
    }
  });
});
