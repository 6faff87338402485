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
import { LocalClock } from '../../../src/world/clock.js';
import { DECIDERS, RedisDeployment } from '../../../src/world/redis/deployment.js';
import { RedisNode } from '../../../src/world/redis/node.js';
import { ReplicationLink } from '../../../src/world/redis/replication.js';
import type { RedisReply } from '../../../src/world/redis/reply.js';
import { ask, has } from './ask.js';

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

/**
 * One ReplicationLink on its own, driven by hand: a primary and a replica with fixed times
 * (10 ms in the primary's buffer, 1 ms on the wire each way, repl-timeout 60 s).
 */
function link(o: { backlog?: Distribution; lag?: Distribution } = {}) {
  const sim = new Simulation(1);
  const primary = new RedisNode('redis-0', sim, new LocalClock(sim));
  const replica = new RedisNode('redis-1', sim, new LocalClock(sim));
  replica.demoteToReplicaOf(primary);
  const l = new ReplicationLink(
    sim,
    primary,
    replica,
    { backlog: o.backlog ?? constant(10 * MS), lag: o.lag ?? constant(1 * MS), replTimeoutUs: 60 * S },
    sim.random.fork('lag'),
    sim.random.fork('backlog'),
  );
  primary.replicaLinks.push(l);
  /** Times (ms) at which the replica applied each key. */
  const applied: string[] = [];
  replica.observer = (_n, c) => applied.push(`${c.key}@${sim.nowUs / MS}`);
  const set = (key: string) => ask(primary, 'SET', key, 'v');
  return { sim, primary, replica, link: l, applied, set };
}

describe('ReplicationLink: the stream', () => {
  it('a change spends the backlog in the buffer, then the lag on the wire; the acknowledgement takes the lag back', () => {
    const { sim, link: l, applied, set } = link();
    set('a');
    sim.run(10 * MS + 999);
    expect(applied).toEqual([]);
    sim.run(11 * MS);
    expect(applied).toEqual(['a@11']);
    expect(l.ackedOffset).toBe(0);
    sim.run(12 * MS);
    expect(l.ackedOffset).toBe(1);
  });

  it('with no buffer time a change goes on the wire at once, and still arrives in order behind earlier ones', () => {
    const { sim, applied, set } = link({ backlog: constant(0), lag: { kind: 'uniform', minUs: 0, maxUs: 5 * MS } });
    for (let i = 0; i < 50; i++) sim.scheduleAt(i * 100, () => set(`k${i}`));
    sim.run(1 * S);
    expect(applied.map((a) => a.split('@')[0])).toEqual(Array.from({ length: 50 }, (_, i) => `k${i}`));
  });

  it('a change never leaves the buffer before an earlier one, whatever its own draw', () => {
    const { sim, applied, set } = link({ backlog: { kind: 'uniform', minUs: 0, maxUs: 20 * MS } });
    for (let i = 0; i < 50; i++) sim.scheduleAt(i * 100, () => set(`k${i}`));
    sim.run(1 * S);
    expect(applied.map((a) => a.split('@')[0])).toEqual(Array.from({ length: 50 }, (_, i) => `k${i}`));
  });

  it('a held stream stays in the buffer however long, and flows in order when released', () => {
    const { sim, link: l, applied, set } = link();
    l.setHeld(true);
    set('a');
    set('b');
    sim.run(5 * S);
    expect(applied).toEqual([]);
    l.setHeld(true);
    l.setHeld(false);
    sim.run(6 * S);
    expect(applied).toEqual(['a@5001', 'b@5001']);
  });

  it('changes that leave the buffer at the same instant share one drain; changes with leave times of their own have one each', () => {
    /** Engine events for 100 changes written `spacingUs` apart (10 ms in the buffer each). */
    const events = (spacingUs: number): number => {
      const { sim, applied, set } = link();
      if (spacingUs === 0) sim.scheduleAt(0, () => Array.from({ length: 100 }, (_, i) => set(`k${i}`)));
      else for (let i = 0; i < 100; i++) sim.scheduleAt(i * spacingUs, () => set(`k${i}`));
      sim.run(1 * S);
      expect(applied.length).toBe(100);
      return sim.eventCount;
    };
    // The writes' events, the drains, 100 deliveries, 100 acknowledgements.
    expect(events(0)).toBe(1 + 1 + 100 + 100);
    expect(events(10)).toBe(100 + 100 + 100 + 100);
  });

  it('a stream that never empties (a change every ms, 10 ms in the buffer) delivers every change in order, well past a thousand', () => {
    const { sim, applied, set } = link();
    for (let i = 0; i < 3000; i++) sim.scheduleAt(i * MS, () => set(`k${i}`));
    sim.run(4 * S);
    expect(applied).toEqual(Array.from({ length: 3000 }, (_, i) => `k${i}@${i + 11}`));
  });

  it('held without anything buffered, a new change waits too', () => {
    const { sim, link: l, applied, set } = link({ backlog: constant(0) });
    l.setHeld(true);
    set('a');
    sim.run(1 * S);
    expect(applied).toEqual([]);
    l.setHeld(false);
    sim.run(2 * S);
    expect(applied).toEqual(['a@1001']);
  });

  it('the primary dying drops what is in its buffer but delivers what is on the wire; acknowledgements then find nobody', () => {
    const { sim, primary, link: l, applied, set } = link();
    set('early');
    sim.run(5 * MS);
    set('late');
    sim.run(10 * MS + 500);
    l.primaryDied();
    primary.crash();
    sim.run(1 * S);
    expect(applied).toEqual(['early@11']);
    expect(l.ackedOffset).toBe(0);
  });

  it('an acknowledgement addressed to a primary that died is void even when it is back up by then', () => {
    const run = (dies: boolean) => {
      const { sim, primary, link: l, set } = link();
      set('a');
      sim.run(11 * MS + 500);
      if (dies) {
        l.primaryDied();
        primary.crash();
        primary.restart(true);
      }
      sim.run(1 * S);
      return l.ackedOffset;
    };
    expect(run(true)).toBe(0);
    expect(run(false)).toBe(1);
  });

  it('an acknowledgement of the old connection is void after a full resync', () => {
    const { sim, link: l, set } = link();
    set('a');
    sim.run(11 * MS + 500);
    l.resynced(0);
    sim.run(1 * S);
    expect(l.ackedOffset).toBe(0);
  });

  it('a change that reached a sleeping replica is dropped if, before it wakes, the link is resynced or detached, or the replica promoted', () => {
    const run = (meanwhile: (l: ReplicationLink, replica: RedisNode) => void) => {
      const { sim, replica, link: l, applied, set } = link();
      replica.pause();
      set('a');
      sim.run(1 * S);
      meanwhile(l, replica);
      replica.resume();
      return applied;
    };
    expect(run(() => {})).toEqual(['a@1000']);
    expect(run((l) => l.resynced(0))).toEqual([]);
    expect(run((l) => l.detach())).toEqual([]);
    expect(run((_l, replica) => replica.promote())).toEqual([]);
  });

  it('a dead primary ships nothing more out of its buffer', () => {
    const { sim, primary, applied, set } = link();
    set('a');
    primary.up = false;
    sim.run(1 * S);
    expect(applied).toEqual([]);
  });

  it('a detached link (the replica follows someone else) ships nothing, drops its buffer and lands nothing already on the wire', () => {
    const { sim, link: l, applied, set } = link();
    set('buffered');
    sim.run(10 * MS + 500);
    set('later');
    l.detach();
    set('after');
    sim.run(1 * S);
    expect(applied).toEqual([]);
  });

  it('a closed link ships nothing more', () => {
    const { sim, link: l, applied, set } = link();
    l.closed = true;
    set('a');
    sim.run(1 * S);
    expect(applied).toEqual([]);
  });

  it('after a full resync, what was on the old connection does not land, and the acknowledged offset is the copy\'s', () => {
    const { sim, link: l, applied, set } = link();
    set('a');
    sim.run(10 * MS + 500);
    set('b');
    l.resynced(7);
    expect(l.ackedOffset).toBe(7);
    sim.run(1 * S);
    expect(applied).toEqual([]);
    set('c');
    sim.run(2 * S);
    expect(applied).toEqual([`c@${1000 + 11}`]);
  });

  it('a dead replica applies nothing; a sleeping one applies what reached it when it wakes', () => {
    const dead = link();
    dead.set('a');
    dead.replica.crash();
    dead.sim.run(1 * S);
    expect(dead.applied).toEqual([]);

    const asleep = link();
    asleep.set('a');
    asleep.replica.pause();
    asleep.sim.run(1 * S);
    expect(asleep.applied).toEqual([]);
    asleep.replica.resume();
    expect(asleep.applied).toEqual(['a@1000']);
  });

  it('a replica promoted meanwhile does not take the old primary\'s changes', () => {
    const { sim, replica, applied, set } = link();
    set('a');
    replica.promote();
    sim.run(1 * S);
    expect(applied).toEqual([]);
  });

  it('an acknowledgement reaching a primary that was demoted meanwhile is dropped', () => {
    const { sim, primary, replica, link: l, set } = link();
    set('a');
    sim.run(11 * MS);
    primary.demoteToReplicaOf(replica);
    sim.run(1 * S);
    expect(l.ackedOffset).toBe(0);
  });

  it('acknowledged offsets only grow', () => {
    const { sim, link: l, set } = link();
    set('a');
    set('b');
    sim.run(1 * S);
    expect(l.ackedOffset).toBe(2);
    l.resynced(5);
    set('c');
    sim.run(2 * S);
    expect(l.ackedOffset).toBe(5);
  });
});

describe('ReplicationLink: what the primary believes (replicationCron, "Disconnecting timedout replica")', () => {
  it('a replica in contact is listed with no silence', () => {
    const { sim, link: l } = link();
    sim.run(100 * S);
    expect(l.listed).toBe(true);
    expect(l.silenceUs).toBe(0);
  });

  it('a silent replica stays listed up to repl-timeout inclusive, and leaves the list after it', () => {
    const { sim, link: l } = link();
    sim.run(5 * S);
    l.setSilent(true);
    sim.run(65 * S);
    expect(l.silenceUs).toBe(60 * S);
    expect(l.listed).toBe(true);
    sim.run(65 * S + 1);
    expect(l.listed).toBe(false);
  });

  it('silence counts from its start: staying silent does not restart it; a word from the replica ends it', () => {
    const { sim, link: l } = link();
    l.setSilent(true);
    sim.run(30 * S);
    l.setSilent(true);
    sim.run(40 * S);
    expect(l.silenceUs).toBe(40 * S);
    l.setSilent(false);
    expect(l.silenceUs).toBe(0);
    expect(l.listed).toBe(true);
  });

  it('a closed connection takes the replica off the list at once', () => {
    const { primary, link: l } = link();
    l.closed = true;
    expect(l.listed).toBe(false);
    expect(primary.connectedReplicas()).toBe(0);
  });
});

describe('each replica holds its own copy of a replicated key', () => {
  /**
   * k written at 0 and replicated to both replicas; redis-0 cut off at 1 s. `atPromotion` runs
   * at the first millisecond the new primary is in place, before Sentinel re-points the other
   * replica (which then copies the dataset afresh).
   */
  function atPromotion(then: (primary: RedisNode, other: RedisNode, d: ReturnType<typeof deployment>) => void): void {
    const d = deployment({ replicas: 2 });
    ask(d.node('redis-0'), 'SET', 'k', 'v', 'PX', '30000');
    d.sim.scheduleAt(1 * S, () => d.fabric.cut(['sentinel', 'redis-1', 'redis-2'].map((h) => ['redis-0', h] as [string, string])));
    let done = false;
    const poll = (): void => {
      const primary = d.redis.primary as RedisNode;
      if (primary.name !== 'redis-0' && primary.role === 'primary') {
        done = true;
        then(primary, d.node(primary.name === 'redis-1' ? 'redis-2' : 'redis-1'), d);
        return;
      }
      d.sim.scheduleAt(d.sim.nowUs + 1 * MS, poll);
    };
    d.sim.scheduleAt(1 * S, poll);
    d.sim.run(10 * S);
    expect(done).toBe(true);
  }

  it('a TTL change on the just-promoted primary does not show on the other replica at once', () => {
    let before: RedisReply | undefined;
    let after: RedisReply | undefined;
    atPromotion((primary, other) => {
      expect(other.role).toBe('replica');
      before = ask(other, 'PTTL', 'k');
      expect(ask(primary, 'PEXPIRE', 'k', '900000')).toBe(1);
      after = ask(other, 'PTTL', 'k');
    });
    expect(Number(before)).toBeLessThan(30_000);
    expect(after).toBe(before);
  });

  it('the other replica has the change once it copied the new primary', () => {
    let other: RedisNode | undefined;
    atPromotion((primary, o) => {
      expect(ask(primary, 'PEXPIRE', 'k', '900000')).toBe(1);
      other = o;
    });
    expect(Number(ask(other as RedisNode, 'PTTL', 'k'))).toBeGreaterThan(800_000);
  });
});
