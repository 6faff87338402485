/**
 * Redis Cluster failover phase by phase, on the Redis deployment alone (no clients): the
 * order of the phases and the bounds redis 7.0.15 src/cluster.c's rules put on their times,
 * the replica's rank, its data-age limit, and the old master rejoining. Default world: three
 * masters with two replicas each (our shard: redis-0, redis-1, redis-2), node-timeout 5 s,
 * 300 us on the bus; redis-0 takes a write every 100 ms.
 *
 * clusterCron runs every 100 ms plus up to 1 ms (failover.ts timerGapUs).
 */
import { describe, expect, it } from 'vitest';
import { constant } from '../../../../src/engine/distribution.js';
import { DECIDERS, type DeploymentParams } from '../../../../src/world/redis/deployment.js';
import { phaseWorld, type WorldOptions } from '../phase-world.js';
import type { RedisNode } from '../../../../src/world/redis/node.js';

const MS = 1_000;
const S = 1_000_000;
const CRON_MAX_US = 101 * MS;
const BUS_US = 300;
const NT_US = 5 * S;
const KILL_US = 10 * S;
const SEEDS = [1, 2, 3, 4, 5, 6];

const DEFAULTS: DeploymentParams = {
  topology: 'cluster',
  replicas: 2,
  masters: 3,
  replicationBacklog: constant(50),
  replicationLag: constant(1 * MS),
  replTimeoutUs: 60 * S,
  downAfterUs: 1 * S,
  nodeTimeoutUs: NT_US,
  sentinels: 3,
  quorum: 2,
  failoverTimeoutUs: 180 * S,
  deciderLatency: constant(BUS_US),
  minReplicasToWrite: 0,
  minReplicasMaxLagUs: 10 * S,
};

function world(o: WorldOptions = {}) {
  /** Replies to the writes on redis-0 that were not OK, with when. */
  const refused: number[] = [];
  const w = phaseWorld(DEFAULTS, o, (sim, redis) => {
    const write = (): void => {
      const node = redis.node('redis-0') as RedisNode;
      node.execute(['SET', 'k', String(sim.nowUs)], 'w', (r) => {
        if (String(r).startsWith('CLUSTERDOWN')) refused.push(sim.nowUs);
      });
      sim.schedule(100 * MS, write);
    };
    write();
  });
  return { ...w, refused };
}

function killed(o: Partial<DeploymentParams> & { seed?: number } = {}, runUs = 30 * S) {
  const w = world(o);
  w.sim.scheduleAt(KILL_US, () => w.redis.crash(w.node('redis-0')));
  w.sim.run(runUs);
  return w;
}

describe('a kill -9 of a master, phase by phase', () => {
  it('goes pfail, fail, promoted, in that order, once; the other replica follows the new master on its PONG', () => {
    for (const seed of SEEDS) {
      const w = killed({ seed });
      expect(w.events.map((e) => e.phase), `seed ${seed}`).toEqual(['pfail', 'fail', 'promoted']);
      const promoted = w.first('promoted').target;
      expect(['redis-1', 'redis-2']).toContain(promoted);
      expect(w.redis.primary.name).toBe(promoted);
      const other = promoted === 'redis-1' ? 'redis-2' : 'redis-1';
      expect(w.follows).toEqual([{ atUs: w.first('promoted').atUs + BUS_US, node: other, primary: promoted }]);
      expect(w.redis.snapshot(w.node(other)).upstream?.name).toBe(promoted);
    }
  });

  it('PFAIL: a PING unanswered for over node-timeout, sent at the latest node-timeout / 2 after the last PONG', () => {
    for (const seed of SEEDS) {
      const w = killed({ seed });
      const pfail = w.first('pfail');
      expect(pfail.atUs - KILL_US, `seed ${seed}`).toBeGreaterThan(NT_US);
      expect(pfail.atUs - KILL_US, `seed ${seed}`).toBeLessThanOrEqual(NT_US + NT_US / 2 + 2 * CRON_MAX_US);
      expect(pfail.detail).toMatch(/^(cluster-master-[23]) has had no answer from redis-0 for over 5s \(PFAIL\)$/);
    }
  });

  it('FAIL once a majority of the masters (2 of 3) report it, within the 2 x node-timeout validity of the reports', () => {
    for (const seed of SEEDS) {
      const w = killed({ seed });
      const fail = w.first('fail');
      expect(fail.atUs - w.first('pfail').atUs, `seed ${seed}`).toBeGreaterThanOrEqual(0);
      expect(fail.atUs - w.first('pfail').atUs, `seed ${seed}`).toBeLessThan(2 * NT_US);
      expect(fail.detail).toMatch(/^[\w-]+ marks redis-0 FAIL: 2 of 3 masters report it unreachable$/);
    }
  });

  it('the replica asks for votes 500 ms + random(0..500 ms) after it learns of FAIL (at its next cron), and takes over on the majority of acks', () => {
    for (const seed of SEEDS) {
      const w = killed({ seed });
      const gap = w.first('promoted').atUs - w.first('fail').atUs;
      expect(gap, `seed ${seed}`).toBeGreaterThan(500 * MS);
      expect(gap, `seed ${seed}`).toBeLessThanOrEqual(1000 * MS + 2 * CRON_MAX_US + 4 * BUS_US);
    }
  });

  it('the replica with the larger replication offset goes first (rank 0); the other waits a second more per rank and loses', () => {
    const promoted = (lagging: string) => {
      const w = world();
      // The primary's stream to `lagging` is cut from 5 s: it misses the writes after that
      // (and the bus between them, which does not matter to the election).
      w.sim.scheduleAt(5 * S, () => w.fabric.cut([['redis-0', lagging]]));
      w.sim.scheduleAt(KILL_US, () => w.redis.crash(w.node('redis-0')));
      w.sim.run(30 * S);
      return w.first('promoted').target;
    };
    expect(promoted('redis-1')).toBe('redis-2');
    expect(promoted('redis-2')).toBe('redis-1');
  });
});

describe('against the measured kills (40 seeds on the deployment alone; timing.test.ts compares 200 runs with clients)', () => {
  it('node-timeout 15 s, one replica per master: FAIL at a median 19.3 s after the kill (within 1 s), 2.2 s of gossip after the first PFAIL (within 0.5 s), the promotion 0.5-1.15 s later', () => {
    // 44 kills on Redis 7.0.15 (timing.test.ts): FAIL 17186 / 19326.5 / 23142 ms
    // (min / median / max), 2218 ms (median) after the first PFAIL; ROLE master 521-1238 ms after FAIL.
    const runs = Array.from({ length: 40 }, (_, i) => {
      const w = world({ seed: i + 1, replicas: 1, nodeTimeoutUs: 15 * S, deciderLatency: { kind: 'uniform', minUs: 200, maxUs: 1000 } });
      w.sim.scheduleAt(30 * S, () => w.redis.crash(w.node('redis-0')));
      w.sim.run(60 * S);
      const s = (phase: string) => (w.first(phase).atUs - 30 * S) / S;
      return { pfail: s('pfail'), fail: s('fail'), promoted: s('promoted') };
    });
    const median = (values: number[]) => {
      const v = [...values].sort((a, b) => a - b);
      return (v[(v.length - 1) >> 1] + v[v.length >> 1]) / 2;
    };
    expect(Math.min(...runs.map((r) => r.pfail))).toBeGreaterThan(15);
    expect(Math.abs(median(runs.map((r) => r.fail)) - 19.3265)).toBeLessThan(1);
    expect(Math.abs(median(runs.map((r) => r.fail - r.pfail)) - 2.218)).toBeLessThan(0.5);
    for (const r of runs) {
      expect(r.promoted - r.fail).toBeGreaterThan(0.5);
      expect(r.promoted - r.fail).toBeLessThan(1.15);
    }
  });
});

describe('what must not fail over, or not yet', () => {
  it('a replica killed: no phase, redis-0 stays the master', () => {
    const w = world();
    w.sim.scheduleAt(KILL_US, () => w.redis.crash(w.node('redis-1')));
    w.sim.run(30 * S);
    expect(w.events.filter((e) => e.target === 'redis-0')).toEqual([]);
    expect(w.all('promoted')).toEqual([]);
    expect(w.redis.primary.name).toBe('redis-0');
  });

  it('a master asleep for less than node-timeout: no PFAIL; for longer: failed over, and it follows the new master within a cron of waking', () => {
    const nap = (us: number) => {
      const w = world();
      w.sim.scheduleAt(KILL_US, () => w.redis.setPaused(w.node('redis-0'), true));
      w.sim.scheduleAt(KILL_US + us, () => w.redis.setPaused(w.node('redis-0'), false));
      w.sim.run(40 * S);
      return w;
    };
    expect(nap(4 * S).events).toEqual([]);
    const long = nap(15 * S);
    expect(long.all('promoted')).toHaveLength(1);
    const convert = long.first('convert-to-slave');
    expect(convert.target).toBe('redis-0');
    expect(convert.atUs - (KILL_US + 15 * S)).toBeGreaterThanOrEqual(0);
    expect(convert.atUs - (KILL_US + 15 * S)).toBeLessThanOrEqual(CRON_MAX_US + 2 * BUS_US);
  });

  it('a replica cut off from its master for longer than its data may be (10 s + 10 x node-timeout) does not try; one cut for less does', () => {
    const run = (cutAtUs: number) => {
      const w = world({ replicas: 1, nodeTimeoutUs: 1 * S });
      w.sim.scheduleAt(cutAtUs, () => w.fabric.cut([['redis-0', 'redis-1']]));
      w.sim.scheduleAt(40 * S, () => w.redis.crash(w.node('redis-0')));
      w.sim.run(70 * S);
      return w;
    };
    // Cut 39 s before the kill: over 20 s (plus node-timeout) of data age when FAIL comes.
    const stale = run(1 * S);
    expect(stale.all('fail')).toHaveLength(1);
    expect(stale.all('promoted')).toEqual([]);
    const recent = run(35 * S);
    expect(recent.first('promoted').target).toBe('redis-1');
  });
});

describe('a master cut off from the majority (cluster state fail)', () => {
  it('refuses writes with CLUSTERDOWN from node-timeout after the cut, until the heal; the majority fails it over and it follows on the heal', () => {
    const w = world();
    const cut = [['redis-0', DECIDERS], ['redis-0', 'redis-1'], ['redis-0', 'redis-2']] as Array<[string, string]>;
    w.sim.scheduleAt(KILL_US, () => w.fabric.cut(cut));
    w.sim.scheduleAt(KILL_US + 20 * S, () => w.fabric.heal(cut));
    w.sim.run(KILL_US + 30 * S);
    expect(w.refused.length).toBeGreaterThan(0);
    expect(w.refused[0] - KILL_US).toBeGreaterThan(NT_US);
    expect(w.refused[0] - KILL_US).toBeLessThanOrEqual(NT_US + NT_US / 2 + 2 * CRON_MAX_US + 100 * MS);
    expect(w.refused.at(-1)! - KILL_US).toBeLessThan(20 * S + CRON_MAX_US + 100 * MS);
    expect(w.all('promoted')).toHaveLength(1);
    const convert = w.first('convert-to-slave');
    expect(convert.atUs - (KILL_US + 20 * S)).toBeLessThanOrEqual(CRON_MAX_US + 2 * BUS_US);
  });

  it('for less than node-timeout: never refuses, nothing fails over', () => {
    const w = world();
    const cut = [['redis-0', DECIDERS], ['redis-0', 'redis-1'], ['redis-0', 'redis-2']] as Array<[string, string]>;
    w.sim.scheduleAt(KILL_US, () => w.fabric.cut(cut));
    w.sim.scheduleAt(KILL_US + 4 * S, () => w.fabric.heal(cut));
    w.sim.run(KILL_US + 30 * S);
    expect(w.refused).toEqual([]);
    expect(w.events).toEqual([]);
  });

  it('back in the majority, a master that was not failed over (no replica) waits the rejoin delay, min(node-timeout, 5 s), before taking writes again', () => {
    const w = world({ nodeTimeoutUs: 2 * S, replicas: 0 });
    const cut = [['redis-0', DECIDERS]] as Array<[string, string]>;
    const healUs = KILL_US + 4 * S;
    w.sim.scheduleAt(KILL_US, () => w.fabric.cut(cut));
    w.sim.scheduleAt(healUs, () => w.fabric.heal(cut));
    w.sim.run(KILL_US + 30 * S);
    expect(w.refused[0] - KILL_US).toBeGreaterThan(2 * S);
    const lastRefused = w.refused.at(-1)!;
    expect(lastRefused - healUs).toBeGreaterThan(2 * S - 100 * MS);
    expect(lastRefused - healUs).toBeLessThanOrEqual(2 * S + 3 * CRON_MAX_US);
    expect(w.redis.primary.name).toBe('redis-0');
  });
});
