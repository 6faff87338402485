/**
 * The Redis deployment: which nodes each topology has, restarts and the resyncs they cause,
 * REPLICAOF as the deciders send it, INFO-level snapshots (role, offsets, master link,
 * run ids), the links' held / silent / closed states and the write refusals
 * (min-replicas-to-write: redis 7.0.15 replication.c refreshGoodSlavesCount; CLUSTERDOWN).
 */
import { describe, expect, it } from 'vitest';
import { constant } from '../../../src/engine/distribution.js';
import { Simulation } from '../../../src/engine/simulation.js';
import { Fabric } from '../../../src/world/network.js';
import { RedisDeployment, type DeploymentParams } from '../../../src/world/redis/deployment.js';
import { TOPOLOGIES, type Topology } from '../../../src/spec/redis.js';
import type { RedisNode } from '../../../src/world/redis/node.js';
import { ask, has } from './ask.js';

const MS = 1_000;
const S = 1_000_000;

function deployment(topology: Topology, o: Partial<DeploymentParams> = {}) {
  const sim = new Simulation(1);
  const fabric = new Fabric();
  const redis = new RedisDeployment(
    sim,
    {
      topology,
      replicas: 2,
      masters: 3,
      replicationBacklog: constant(10 * MS),
      replicationLag: constant(1 * MS),
      replTimeoutUs: 60 * S,
      downAfterUs: 5 * S,
      nodeTimeoutUs: 15 * S,
      sentinels: 3,
      quorum: 2,
      failoverTimeoutUs: 180 * S,
      deciderLatency: constant(100),
      minReplicasToWrite: 0,
      minReplicasMaxLagUs: 10 * S,
      ...o,
    },
    fabric,
  );
  fabric.onChange = () => redis.networkChanged();
  const node = (name: string) => redis.node(name) as RedisNode;
  return { sim, fabric, redis, node };
}


describe('topologies', () => {
  it('lists the four topologies', () => {
    expect([...TOPOLOGIES].sort()).toEqual(['cluster', 'independent', 'sentinel', 'standalone']);
  });

  it('standalone: one primary, no deciders, no independent masters', () => {
    const { redis } = deployment('standalone');
    expect(redis.nodes.map((n) => n.name)).toEqual(['redis-0']);
    expect(redis.primary.role).toBe('primary');
    expect(redis.sentinels).toBe(null);
    expect(redis.cluster).toBe(null);
    expect(redis.masters).toEqual([]);
    expect(redis.announced).toBe(redis.primary);
  });

  it('sentinel: a primary and its replicas, replicating, watched by the Sentinels', () => {
    const { sim, redis, node } = deployment('sentinel');
    expect(redis.nodes.map((n) => `${n.name}:${n.role}`)).toEqual(['redis-0:primary', 'redis-1:replica', 'redis-2:replica']);
    expect(redis.sentinels?.processes).toHaveLength(3);
    expect(redis.cluster).toBe(null);
    expect(redis.masters).toEqual([]);
    ask(node('redis-0'), 'SET', 'k', 'v');
    sim.run(1 * S);
    expect(has(node('redis-1'), 'k') && has(node('redis-2'), 'k')).toBe(true);
    expect(node('redis-1').keyspace.deletesExpiredKeys).toBe(false);
    expect(redis.snapshot(node('redis-1')).upstream).toBe(node('redis-0'));
  });

  it('cluster: our shard replicating, a cluster bus and no Sentinels', () => {
    const { sim, redis, node } = deployment('cluster');
    expect(redis.nodes.map((n) => `${n.name}:${n.role}`)).toEqual(['redis-0:primary', 'redis-1:replica', 'redis-2:replica']);
    expect(redis.cluster).not.toBe(null);
    expect(redis.sentinels).toBe(null);
    ask(node('redis-0'), 'SET', 'k', 'v');
    sim.run(1 * S);
    expect(has(node('redis-2'), 'k')).toBe(true);
  });

  it('independent: `masters` primaries that share nothing', () => {
    const { sim, redis, node } = deployment('independent');
    expect(redis.nodes.map((n) => `${n.name}:${n.role}`)).toEqual(['redis-0:primary', 'redis-1:primary', 'redis-2:primary']);
    expect(redis.masters.map((n) => n.name)).toEqual(['redis-0', 'redis-1', 'redis-2']);
    ask(node('redis-0'), 'SET', 'k', 'v');
    sim.run(1 * S);
    expect(has(node('redis-1'), 'k')).toBe(false);
    expect(node('redis-0').replicaLinks).toEqual([]);
  });

  it('finds a node by name, and none for another name', () => {
    const { redis } = deployment('sentinel');
    expect(redis.node('redis-2')?.name).toBe('redis-2');
    expect(redis.node('redis-3')).toBeUndefined();
  });
});

describe('snapshots (what INFO replication tells the deciders)', () => {
  it('a primary: its role and offset, no upstream; a replica: its upstream and applied offset, its link up', () => {
    const { sim, redis, node } = deployment('sentinel');
    ask(node('redis-0'), 'SET', 'a', '1');
    ask(node('redis-0'), 'SET', 'b', '1');
    sim.run(1 * S);
    expect(redis.snapshot(node('redis-0'))).toMatchObject({ role: 'primary', offset: 2, upstream: null, linkDownSinceUs: null });
    expect(redis.snapshot(node('redis-1'))).toMatchObject({ role: 'replica', offset: 2, upstream: node('redis-0'), linkDownSinceUs: null });
  });

  it("a replica's link is down since its primary died or was cut off from it, and up again when it heals", () => {
    const { sim, fabric, redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    sim.run(2 * S);
    fabric.cut([['redis-0', 'redis-1']]);
    expect(redis.snapshot(node('redis-1')).linkDownSinceUs).toBe(2 * S);
    expect(redis.snapshot(node('redis-2')).linkDownSinceUs).toBe(null);
    sim.run(3 * S);
    fabric.cut([['redis-0', 'redis-1']]);
    expect(redis.snapshot(node('redis-1')).linkDownSinceUs).toBe(2 * S);
    fabric.heal([['redis-0', 'redis-1']]);
    expect(redis.snapshot(node('redis-1')).linkDownSinceUs).toBe(2 * S);
    fabric.heal([['redis-0', 'redis-1']]);
    expect(redis.snapshot(node('redis-1')).linkDownSinceUs).toBe(null);
    sim.run(4 * S);
    redis.crash(node('redis-0'));
    expect(redis.snapshot(node('redis-2')).linkDownSinceUs).toBe(4 * S);
  });

  it('run ids: 40 hex characters, distinct, new at every restart', () => {
    const { redis, node } = deployment('sentinel');
    const ids = redis.nodes.map((n) => redis.snapshot(n).runId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{40}$/);
    expect(new Set(ids).size).toBe(3);
    redis.crash(node('redis-1'));
    redis.restart(node('redis-1'), false);
    expect(redis.snapshot(node('redis-1')).runId).not.toBe(ids[1]);
    expect(redis.snapshot(node('redis-0')).runId).toBe(ids[0]);
  });
});

describe('restarts', () => {
  it('a primary that restarts empty is copied by its replicas: they come back empty too, and follow it on', () => {
    const { sim, redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    ask(node('redis-0'), 'SET', 'old', 'v');
    sim.run(1 * S);
    redis.crash(node('redis-0'));
    redis.restart(node('redis-0'), false);
    expect(has(node('redis-1'), 'old')).toBe(false);
    expect(node('redis-0').replicationOffset).toBe(0);
    ask(node('redis-0'), 'SET', 'new', 'v');
    sim.run(2 * S);
    expect(has(node('redis-1'), 'new') && has(node('redis-2'), 'new')).toBe(true);
    expect(redis.primary).toBe(node('redis-0'));
  });

  it('a primary that restarts with its data keeps it, and so do its replicas', () => {
    const { sim, redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    ask(node('redis-0'), 'SET', 'old', 'v');
    sim.run(1 * S);
    redis.crash(node('redis-0'));
    redis.restart(node('redis-0'), true);
    expect(has(node('redis-0'), 'old') && has(node('redis-1'), 'old')).toBe(true);
  });

  it('a replica restarts with a full resync from its primary, if that one is up', () => {
    const { sim, redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    ask(node('redis-0'), 'SET', 'k', 'v');
    sim.run(1 * S);
    redis.crash(node('redis-1'));
    redis.restart(node('redis-1'), false);
    expect(has(node('redis-1'), 'k')).toBe(true);
    expect(node('redis-1').role).toBe('replica');
    expect(node('redis-0').replicaLinks.filter((l) => l.replica === node('redis-1'))).toHaveLength(1);
    ask(node('redis-0'), 'SET', 'k2', 'v');
    sim.run(2 * S);
    expect(has(node('redis-1'), 'k2')).toBe(true);
  });

  it('an independent master restarts alone: empty, a primary, nobody copies anything', () => {
    const { redis, node } = deployment('independent');
    ask(node('redis-1'), 'SET', 'k', 'v');
    redis.crash(node('redis-1'));
    redis.restart(node('redis-1'), false);
    expect(node('redis-1').role).toBe('primary');
    expect(node('redis-1').keyspace.size).toBe(0);
  });
});

describe('REPLICAOF from the deciders', () => {
  it('promote: the replica becomes the authoritative primary, listeners told; its old primary ships it nothing more', () => {
    const { sim, redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    const told: string[] = [];
    redis.onFailover((o, n) => told.push(`${o.name}->${n.name}`));
    redis.promote(node('redis-1'));
    expect(redis.primary).toBe(node('redis-1'));
    expect(told).toEqual(['redis-0->redis-1']);
    expect(redis.snapshot(node('redis-1')).upstream).toBe(null);
    ask(node('redis-0'), 'SET', 'k', 'v');
    sim.run(1 * S);
    expect(has(node('redis-1'), 'k')).toBe(false);
    redis.promote(node('redis-1'));
    expect(told).toHaveLength(1);
  });

  it('follow: the node drops its data and copies the new primary; a deposed primary doing so is reported', () => {
    const { sim, redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    const phases: string[] = [];
    redis.onPhase((p, t) => phases.push(`${p} ${t.name}`));
    redis.promote(node('redis-1'));
    ask(node('redis-0'), 'SET', 'lost', 'v');
    ask(node('redis-1'), 'SET', 'kept', 'v');
    redis.follow(node('redis-0'), node('redis-1'));
    expect(node('redis-0').role).toBe('replica');
    expect(has(node('redis-0'), 'lost')).toBe(false);
    expect(has(node('redis-0'), 'kept')).toBe(true);
    expect(phases).toEqual(['convert-to-slave redis-0']);
    redis.follow(node('redis-2'), node('redis-1'));
    expect(phases).toHaveLength(1);
    ask(node('redis-1'), 'SET', 'later', 'v');
    sim.run(1 * S);
    expect(has(node('redis-2'), 'later') && has(node('redis-0'), 'later')).toBe(true);
  });

  it('following the primary it already follows, or itself, changes nothing', () => {
    const { redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    ask(node('redis-0'), 'SET', 'k', 'v');
    const links = node('redis-0').replicaLinks.length;
    const ids = redis.nodes.map((n) => redis.snapshot(n).offset);
    redis.follow(node('redis-1'), node('redis-0'));
    redis.follow(node('redis-0'), node('redis-0'));
    expect(node('redis-0').replicaLinks.length).toBe(links);
    expect(node('redis-0').role).toBe('primary');
    expect(redis.nodes.map((n) => redis.snapshot(n).offset)).toEqual(ids);
  });

  it('a replica re-pointed to another node leaves its old primary: a new link to the new one, the old one detached', () => {
    const { redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    const old = node('redis-0').replicaLinks.find((l) => l.replica === node('redis-2'))!;
    redis.follow(node('redis-2'), node('redis-1'));
    expect(redis.snapshot(node('redis-2')).upstream).toBe(node('redis-1'));
    expect(node('redis-1').replicaLinks.map((l) => l.replica.name)).toEqual(['redis-2']);
    expect(old.detached).toBe(true);
  });
});

describe('links and what the primary believes', () => {
  it('a stall holds the stream of the primary it was set on, not of a later one', () => {
    const { sim, redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    redis.stallReplication(true);
    ask(node('redis-0'), 'SET', 'k', 'v');
    sim.run(1 * S);
    expect(has(node('redis-1'), 'k')).toBe(false);
    redis.stallReplication(false);
    sim.run(2 * S);
    expect(has(node('redis-1'), 'k')).toBe(true);
  });

  it('a sleeping primary holds its stream; when it wakes the changes flow', () => {
    const { sim, redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    ask(node('redis-0'), 'SET', 'k', 'v');
    redis.setPaused(node('redis-0'), true);
    sim.run(1 * S);
    expect(has(node('redis-1'), 'k')).toBe(false);
    redis.setPaused(node('redis-0'), false);
    sim.run(2 * S);
    expect(has(node('redis-1'), 'k')).toBe(true);
  });

  it('a cut path holds the stream and silences the replica; the heal lets both through', () => {
    const { sim, fabric, node } = deployment('sentinel', { downAfterUs: 60 * S });
    fabric.cut([['redis-0', 'redis-1']]);
    ask(node('redis-0'), 'SET', 'k', 'v');
    sim.run(5 * S);
    const link = node('redis-0').replicaLinks.find((l) => l.replica === node('redis-1'))!;
    expect(has(node('redis-1'), 'k')).toBe(false);
    expect(link.silenceUs).toBe(5 * S);
    expect(link.closed).toBe(false);
    fabric.heal([['redis-0', 'redis-1']]);
    expect(link.silenceUs).toBe(0);
    sim.run(6 * S);
    expect(has(node('redis-1'), 'k')).toBe(true);
  });

  it('a killed replica closes its connection (unless the path is cut, when only the silence shows)', () => {
    const open = deployment('sentinel', { downAfterUs: 60 * S });
    open.redis.crash(open.node('redis-1'));
    expect(open.node('redis-0').replicaLinks.find((l) => l.replica.name === 'redis-1')!.closed).toBe(true);
    const cut = deployment('sentinel', { downAfterUs: 60 * S });
    cut.fabric.cut([['redis-0', 'redis-1']]);
    cut.redis.crash(cut.node('redis-1'));
    expect(cut.node('redis-0').replicaLinks.find((l) => l.replica.name === 'redis-1')!.closed).toBe(false);
  });
});

describe('write refusals', () => {
  it('min-replicas-to-write 2: refused when fewer than 2 replicas are in contact within min-replicas-max-lag; reads still served', () => {
    const { sim, fabric, node } = deployment('sentinel', { minReplicasToWrite: 2, minReplicasMaxLagUs: 10 * S, downAfterUs: 60 * S });
    expect(String(ask(node('redis-0'), 'SET', 'a', 'v'))).toBe('OK');
    fabric.cut([['redis-0', 'redis-2']]);
    sim.run(10 * S);
    expect(String(ask(node('redis-0'), 'SET', 'b', 'v'))).toBe('OK');
    sim.run(10 * S + 1);
    expect(String(ask(node('redis-0'), 'SET', 'c', 'v'))).toBe('NOREPLICAS Not enough good replicas to write.');
    expect(ask(node('redis-0'), 'GET', 'a')).toBe('v');
  });

  it('min-replicas-to-write 0 (the default) never refuses, even with every replica gone', () => {
    const { redis, node } = deployment('sentinel', { downAfterUs: 60 * S });
    redis.crash(node('redis-1'));
    redis.crash(node('redis-2'));
    expect(String(ask(node('redis-0'), 'SET', 'a', 'v'))).toBe('OK');
  });
});
