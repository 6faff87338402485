/**
 * Replication between a primary and its replicas: the delay in two parts (the primary's
 * output buffer, lost with it; the wire, delivered regardless), order, and what the primary
 * believes about its replicas (connected_slaves, WAIT, min-replicas-to-write) as repl-timeout
 * passes.
 */
import { describe, expect, it } from 'vitest';
import { constant, type Distribution } from '../../../src/engine/distribution.js';
import { Simulation } from '../../../src/engine/simulation.js';
import { Fabric } from '../../../src/world/network.js';
import { DECIDERS, RedisDeployment } from '../../../src/world/redis/deployment.js';
import type { RedisNode } from '../../../src/world/redis/node.js';
import type { RedisReply } from '../../../src/world/redis/reply.js';

const MS = 1_000;
const S = 1_000_000;

interface Options {
  replicas?: number;
  backlog?: Distribution;
  lag?: Distribution;
  replTimeoutUs?: number;
  minReplicasToWrite?: number;
  minReplicasMaxLagUs?: number;
}

/** A Sentinel deployment (down-after 1 s) on its own fabric, driven by hand. */
function deployment(o: Options = {}) {
  const sim = new Simulation(1);
  const fabric = new Fabric();
  const redis = new RedisDeployment(
    sim,
    {
      topology: 'sentinel',
      replicas: o.replicas ?? 1,
      masters: 1,
      replicationBacklog: o.backlog ?? constant(50 * MS),
      replicationLag: o.lag ?? constant(1 * MS),
      replTimeoutUs: o.replTimeoutUs ?? 60 * S,
      downAfterUs: 1 * S,
      nodeTimeoutUs: 15 * S,
      sentinels: 3,
      quorum: 2,
      failoverTimeoutUs: 180 * S,
      deciderLatency: constant(100),
      minReplicasToWrite: o.minReplicasToWrite ?? 0,
      minReplicasMaxLagUs: o.minReplicasMaxLagUs ?? 10 * S,
    },
    fabric,
  );
  fabric.onChange = () => redis.networkChanged();
  const node = (name: string): RedisNode => redis.node(name) as RedisNode;
  return { sim, fabric, redis, node };
}

function ask(node: RedisNode, ...args: string[]): RedisReply | undefined {
  let out: RedisReply | undefined;
  node.execute(args, 'r1', (r) => (out = r));
  return out;
}

const has = (node: RedisNode, key: string): boolean => node.keyspace.rawGet(key) !== undefined;
const connectedSlaves = (node: RedisNode): string | undefined =>
  String(ask(node, 'INFO', 'replication')).split('\r\n').find((l) => l.startsWith('connected_slaves:'));

/** Writes k at 0, kills the primary `killAtUs` later; does the replica have k? */
function keptAfterKill(killAtUs: number, o: Options = {}): boolean {
  const { sim, redis, node } = deployment(o);
  ask(node('redis-0'), 'SET', 'k', 'v', 'NX', 'PX', '30000');
  sim.scheduleAt(killAtUs, () => redis.crash(node('redis-0')));
  sim.run(500 * MS);
  return has(node('redis-1'), 'k');
}

describe('replication delay in two parts', () => {
  it('a change still in the primary\'s 50 ms output buffer dies with it (killed 49 ms after the write)', () => {
    expect(keptAfterKill(49 * MS)).toBe(false);
  });

  it('a change that left the buffer is delivered although the primary dies (killed 51 ms after)', () => {
    expect(keptAfterKill(51 * MS)).toBe(true);
  });

  it('the boundary is the backlog itself: lost before 50 ms, kept from 50 ms on, whatever the wire adds', () => {
    const sweep = [45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55].map((k) => [k, keptAfterKill(k * MS, { lag: constant(20 * MS) })]);
    expect(sweep.filter(([, kept]) => !kept).map(([k]) => k)).toEqual([45, 46, 47, 48, 49]);
    expect(sweep.filter(([, kept]) => kept).map(([k]) => k)).toEqual([50, 51, 52, 53, 54, 55]);
  });

  it('keeps order: no change overtakes an earlier one, whatever the draws', () => {
    const { sim, node } = deployment({ backlog: { kind: 'uniform', minUs: 0, maxUs: 10 * MS }, lag: { kind: 'uniform', minUs: 0, maxUs: 10 * MS } });
    const applied: string[] = [];
    node('redis-1').observer = (_n, change) => applied.push(change.key);
    const written: string[] = [];
    for (let i = 0; i < 300; i++) {
      sim.scheduleAt(i * 100, () => {
        written.push(`k${i}`);
        ask(node('redis-0'), 'SET', `k${i}`, 'v');
      });
    }
    sim.run(1 * S);
    expect(applied).toEqual(written);
  });

  it('a stalled stream loses even old changes with the primary; without the stall they arrive', () => {
    const run = (stalled: boolean) => {
      const { sim, redis, node } = deployment();
      if (stalled) redis.stallReplication(true);
      ask(node('redis-0'), 'SET', 'k', 'v');
      sim.scheduleAt(2 * S, () => redis.crash(node('redis-0')));
      sim.run(3 * S);
      return has(node('redis-1'), 'k');
    };
    expect(run(true)).toBe(false);
    expect(run(false)).toBe(true);
  });

  it('a sleeping replica applies what reached its socket when it wakes, even if the primary died meanwhile', () => {
    const run = (killAtUs: number) => {
      const { sim, redis, node } = deployment();
      redis.setPaused(node('redis-1'), true);
      ask(node('redis-0'), 'SET', 'k', 'v');
      sim.scheduleAt(killAtUs, () => redis.crash(node('redis-0')));
      sim.scheduleAt(2 * S, () => redis.setPaused(node('redis-1'), false));
      sim.run(1 * S);
      const beforeWaking = has(node('redis-1'), 'k');
      sim.run(3 * S);
      return { beforeWaking, afterWaking: has(node('redis-1'), 'k') };
    };
    expect(run(100 * MS)).toEqual({ beforeWaking: false, afterWaking: true });
    expect(run(40 * MS)).toEqual({ beforeWaking: false, afterWaking: false });
  });

  it('a change on the wire when the primary restarts empty does not land on top of the resync; without the restart it lands', () => {
    const run = (restart: boolean) => {
      const { sim, redis, node } = deployment({ lag: constant(20 * MS) });
      ask(node('redis-0'), 'SET', 'k', 'v');
      // At 60 ms the change is on the wire (it left at 50 ms, lands at 70 ms).
      sim.scheduleAt(60 * MS, () => {
        redis.crash(node('redis-0'));
        if (restart) redis.restart(node('redis-0'), false);
      });
      sim.run(1 * S);
      return has(node('redis-1'), 'k');
    };
    expect(run(true)).toBe(false);
    expect(run(false)).toBe(true);
  });

  it('a replica that came back while the primary was down resyncs when the primary returns', () => {
    const { sim, redis, node } = deployment();
    ask(node('redis-0'), 'SET', 'before', 'v');
    sim.scheduleAt(1 * S, () => redis.crash(node('redis-1')));
    sim.scheduleAt(2 * S, () => redis.crash(node('redis-0')));
    sim.scheduleAt(2500 * MS, () => redis.restart(node('redis-1'), false));
    sim.scheduleAt(2700 * MS, () => redis.restart(node('redis-0'), true));
    sim.scheduleAt(3 * S, () => ask(node('redis-0'), 'SET', 'after', 'v'));
    sim.run(4 * S);
    expect(redis.primary.name).toBe('redis-0'); // back before Sentinel could act
    expect(['before', 'after'].map((k) => has(node('redis-1'), k))).toEqual([true, true]);
    expect(connectedSlaves(node('redis-0'))).toBe('connected_slaves:1');
  });

  it('a replica that restarts empty gets a full resync: what was written before and while it was down', () => {
    const { sim, redis, node } = deployment();
    ask(node('redis-0'), 'SET', 'before', 'v');
    sim.scheduleAt(1 * S, () => redis.crash(node('redis-1')));
    sim.scheduleAt(2 * S, () => ask(node('redis-0'), 'SET', 'while-down', 'v'));
    sim.scheduleAt(3 * S, () => redis.restart(node('redis-1'), false));
    sim.scheduleAt(4 * S, () => ask(node('redis-0'), 'SET', 'after', 'v'));
    sim.run(3 * S);
    // Restarted empty, then copied from the primary at once (the model's sync takes no time).
    expect(['before', 'while-down', 'after'].map((k) => has(node('redis-1'), k))).toEqual([true, true, false]);
    sim.run(5 * S);
    expect(has(node('redis-1'), 'after')).toBe(true);
  });
});

describe('connected_slaves and repl-timeout', () => {
  it('a partitioned replica is still counted until repl-timeout (60 s) has passed', () => {
    const { sim, fabric, node } = deployment();
    sim.scheduleAt(10 * S, () => fabric.cut([['redis-0', 'redis-1']]));
    sim.run(69 * S);
    expect(connectedSlaves(node('redis-0'))).toBe('connected_slaves:1');
    sim.run(71 * S);
    expect(connectedSlaves(node('redis-0'))).toBe('connected_slaves:0');
  });

  it('a replica in contact stays counted; one that comes back after the timeout is counted again', () => {
    const { sim, fabric, node } = deployment();
    sim.run(71 * S);
    expect(connectedSlaves(node('redis-0'))).toBe('connected_slaves:1');
    fabric.cut([['redis-0', 'redis-1']]);
    sim.run(140 * S);
    expect(connectedSlaves(node('redis-0'))).toBe('connected_slaves:0');
    fabric.heal([['redis-0', 'redis-1']]);
    expect(connectedSlaves(node('redis-0'))).toBe('connected_slaves:1');
  });

  it('a killed replica closes its connection: removed at once; a sleeping one is kept until the timeout', () => {
    const killed = deployment();
    killed.redis.crash(killed.node('redis-1'));
    expect(connectedSlaves(killed.node('redis-0'))).toBe('connected_slaves:0');
    const asleep = deployment();
    asleep.redis.setPaused(asleep.node('redis-1'), true);
    asleep.sim.run(59 * S);
    expect(connectedSlaves(asleep.node('redis-0'))).toBe('connected_slaves:1');
    asleep.sim.run(61 * S);
    expect(connectedSlaves(asleep.node('redis-0'))).toBe('connected_slaves:0');
  });

  it('an old primary cut off from everyone keeps counting the replicas a failover took away; one the replicas still reach sees them leave', () => {
    const isolated = deployment({ replicas: 2 });
    isolated.sim.scheduleAt(1 * S, () => isolated.fabric.cut(['sentinel', 'redis-1', 'redis-2'].map((h) => ['redis-0', h] as [string, string])));
    isolated.sim.run(10 * S);
    expect(isolated.redis.primary.name).not.toBe('redis-0');
    expect(connectedSlaves(isolated.node('redis-0'))).toBe('connected_slaves:2');
    isolated.sim.run(62 * S);
    expect(connectedSlaves(isolated.node('redis-0'))).toBe('connected_slaves:0');

    const reachable = deployment({ replicas: 2 });
    reachable.sim.scheduleAt(1 * S, () => reachable.fabric.cut([[DECIDERS, 'redis-0']]));
    reachable.sim.run(10 * S);
    expect(reachable.redis.primary.name).not.toBe('redis-0');
    expect(connectedSlaves(reachable.node('redis-0'))).toBe('connected_slaves:0');
  });
});

describe('WAIT after a failover', () => {
  /** redis-0 is cut off from everyone at 1 s; Sentinel promotes a replica and re-points the other. */
  function splitBrain() {
    const d = deployment({ replicas: 2 });
    d.sim.scheduleAt(1 * S, () => d.fabric.cut(['sentinel', 'redis-1', 'redis-2'].map((h) => ['redis-0', h] as [string, string])));
    d.sim.run(10 * S);
    return d;
  }

  function waitReply(d: ReturnType<typeof deployment>, node: RedisNode): { reply: RedisReply | undefined; afterUs: number } {
    const startUs = d.sim.nowUs;
    ask(node, 'SET', 'k', 'v');
    let reply: RedisReply | undefined;
    let atUs = -1;
    node.execute(['WAIT', '1', '1000'], 'r1', (r) => {
      reply = r;
      atUs = d.sim.nowUs;
    });
    d.sim.run(startUs + 2 * S);
    return { reply, afterUs: atUs - startUs };
  }

  it('on the partitioned old primary WAIT 1 1000 answers 0 when its timeout runs out', () => {
    const d = splitBrain();
    expect(connectedSlaves(d.node('redis-0'))).toBe('connected_slaves:2');
    expect(waitReply(d, d.node('redis-0'))).toEqual({ reply: 0, afterUs: 1000 * MS });
  });

  it('on the new primary, with its re-pointed replica, WAIT 1 1000 answers 1 within a round trip', () => {
    const d = splitBrain();
    const { reply, afterUs } = waitReply(d, d.redis.primary);
    expect(reply).toBe(1);
    // 50 ms in the buffer, 1 ms there and 1 ms back.
    expect(afterUs).toBe(52 * MS);
  });
});

describe('min-replicas-to-write counts only replicas still listed', () => {
  const write = (node: RedisNode) => String(ask(node, 'SET', 'x', 'v'));

  it('a killed replica makes the primary refuse writes at once; a partitioned one only after min-replicas-max-lag', () => {
    const killed = deployment({ minReplicasToWrite: 1 });
    killed.redis.crash(killed.node('redis-1'));
    expect(write(killed.node('redis-0'))).toBe('NOREPLICAS Not enough good replicas to write.');

    const cut = deployment({ minReplicasToWrite: 1 });
    cut.fabric.cut([['redis-0', 'redis-1']]);
    cut.sim.run(10 * S);
    expect(write(cut.node('redis-0'))).toBe('OK');
    cut.sim.run(11 * S);
    expect(write(cut.node('redis-0'))).toBe('NOREPLICAS Not enough good replicas to write.');
  });

  it('with min-replicas-max-lag above repl-timeout the replica stops counting when it leaves the list', () => {
    const d = deployment({ minReplicasToWrite: 1, minReplicasMaxLagUs: 90 * S });
    d.fabric.cut([['redis-0', 'redis-1']]);
    d.sim.run(60 * S);
    expect(write(d.node('redis-0'))).toBe('OK');
    d.sim.run(61 * S);
    expect(write(d.node('redis-0'))).toBe('NOREPLICAS Not enough good replicas to write.');
  });

  it('a stalled stream does not silence the replica (it still acknowledges every second): writes go on', () => {
    const d = deployment({ minReplicasToWrite: 1 });
    d.redis.stallReplication(true);
    d.sim.run(30 * S);
    expect(write(d.node('redis-0'))).toBe('OK');
  });
});
