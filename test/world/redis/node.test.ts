/**
 * RedisNode beyond the keyspace: roles (READONLY), INFO replication, WAIT, EVAL of the
 * built-in scripts, pub/sub, DEBUG SLEEP, active expiry, crashes and restarts. The replies
 * quoted are redis-server 7.0.15's (Debian 12 package, redis-cli on loopback); the rules are
 * cited from the redis 7.0.15 sources.
 */
import { describe, expect, it } from 'vitest';
import { constant } from '../../../src/engine/distribution.js';
import { Simulation } from '../../../src/engine/simulation.js';
import { LocalClock } from '../../../src/world/clock.js';
import type { KeyChange } from '../../../src/world/redis/keyspace.js';
import { RedisNode } from '../../../src/world/redis/node.js';
import { ReplicationLink } from '../../../src/world/redis/replication.js';
import type { RedisReply } from '../../../src/world/redis/reply.js';
import { compareAndDelete, redissonRenewMany, redissonUnlock, sha1 } from '../../../src/world/redis/scripts.js';
import { ask } from './ask.js';

const MS = 1_000;
const S = 1_000_000;

/** The reply as redis-cli shows it: errors as their text; undefined while none came. */
function text(node: RedisNode, ...args: string[]): unknown {
  const r = ask(node, ...args);
  return r !== null && typeof r === 'object' && !Array.isArray(r) ? String(r) : r;
}

/** Sends a command whose reply may come later; `replies` lists what came, with when. */
function send(sim: Simulation, node: RedisNode, ...args: string[]) {
  const replies: Array<{ atUs: number; reply: RedisReply }> = [];
  node.execute(args, 'r1', (reply) => replies.push({ atUs: sim.nowUs, reply }));
  return replies;
}

function single() {
  const sim = new Simulation(1);
  const node = new RedisNode('redis-0', sim, new LocalClock(sim));
  const changes: KeyChange[] = [];
  node.observer = (_n, c) => changes.push({ ...c }); // the keyspace reuses its change object
  return { sim, node, changes };
}

/** A primary and its replicas joined by links with no buffer time and 1 ms (or `lagUs`) each way. */
function pair(replicas = 1, lagUs = 1 * MS) {
  const sim = new Simulation(1);
  const primary = new RedisNode('redis-0', sim, new LocalClock(sim));
  const nodes = Array.from({ length: replicas }, (_, i) => new RedisNode(`redis-${i + 1}`, sim, new LocalClock(sim)));
  for (const replica of nodes) {
    replica.demoteToReplicaOf(primary);
    primary.replicaLinks.push(
      new ReplicationLink(sim, primary, replica, { backlog: constant(0), lag: constant(lagUs), replTimeoutUs: 60 * S }, sim.random.fork(`l-${replica.name}`), sim.random.fork(`b-${replica.name}`)),
    );
  }
  return { sim, primary, replica: nodes[0], replicas: nodes };
}

const lines = (info: unknown): string[] => String(info).split('\r\n');

describe('INFO replication', () => {
  it('a primary without replicas reports role:master and connected_slaves:0', () => {
    const { node } = single();
    const info = ask(node, 'INFO', 'replication') as string;
    expect(lines(info)).toContain('role:master');
    expect(lines(info)).toContain('connected_slaves:0');
  });

  it('a replica reports role:slave and no connected_slaves line', () => {
    const { node: primary, sim } = single();
    const replica = new RedisNode('redis-1', sim, new LocalClock(sim));
    replica.demoteToReplicaOf(primary);
    const info = ask(replica, 'INFO') as string;
    expect(lines(info)).toContain('role:slave');
    expect(info).not.toContain('connected_slaves');
  });

  it('starts with the section header and ends every line with CRLF', () => {
    const { node } = single();
    const info = ask(node, 'INFO') as string;
    expect(info.startsWith('# Replication\r\n')).toBe(true);
    expect(info.endsWith('\r\n')).toBe(true);
  });

  it('is printed for INFO, INFO all / everything / default / replication, in any case, and among other sections (Redis 7: INFO replication x)', () => {
    const { node } = single();
    for (const args of [[], ['all'], ['everything'], ['default'], ['REPLICATION'], ['replication', 'x'], ['memory', 'Replication']]) {
      expect(lines(ask(node, 'INFO', ...args)), args.join(' ')).toContain('role:master');
    }
  });

  it('another section is empty here (the model prints only replication)', () => {
    const { node } = single();
    expect(ask(node, 'INFO', 'memory')).toBe('');
    expect(ask(node, 'INFO', 'memory', 'server')).toBe('');
  });

  it('master_repl_offset counts the changes the primary has streamed; a replica reports the offset it applied', () => {
    const { sim, primary, replica } = pair();
    ask(primary, 'SET', 'a', '1');
    ask(primary, 'SET', 'b', '1');
    ask(primary, 'GET', 'a');
    expect(lines(ask(primary, 'INFO'))).toContain('master_repl_offset:2');
    expect(lines(ask(replica, 'INFO'))).toContain('slave_repl_offset:0');
    sim.run(10 * MS);
    expect(lines(ask(replica, 'INFO'))).toContain('slave_repl_offset:2');
    expect(lines(ask(primary, 'INFO'))).toContain('connected_slaves:1');
  });
});

describe('roles', () => {
  it("a replica refuses writes (READONLY You can't write against a read only replica.) and serves reads", () => {
    const { sim, primary, replica } = pair();
    ask(primary, 'SET', 'k', 'v');
    sim.run(10 * MS);
    const readonly = "READONLY You can't write against a read only replica.";
    expect(text(replica, 'SET', 'k', 'w')).toBe(readonly);
    expect(text(replica, 'del', 'k')).toBe(readonly);
    expect(text(replica, 'GET', 'k')).toBe('v');
    expect(text(replica, 'PTTL', 'k')).toBe(-1);
  });

  // redis 7.0.15: EVAL has no WRITE flag (commands/eval.json: MAY_REPLICATE); script.c
  // scriptVerifyWriteCommandAllow refuses the first write inside. Measured on a redis-server
  // 7.0.15 replica: a script that only reads answers; one whose DEL runs on line 2 answers
  // "READONLY You can't write against a read only replica. script: <sha>, on @user_script:2.".
  it('a script on a replica runs until its first write, which ends it with READONLY and the line', () => {
    const { sim, primary, replica } = pair();
    ask(primary, 'SET', 'k', 'v');
    sim.run(10 * MS);
    expect(text(replica, 'EVAL', compareAndDelete.lua, '1', 'k', 'other')).toBe(0);
    expect(text(replica, 'EVAL', compareAndDelete.lua, '1', 'k', 'v')).toBe(
      `READONLY You can't write against a read only replica. script: ${sha1(compareAndDelete.lua)}, on @user_script:2.`,
    );
    expect(text(replica, 'GET', 'k')).toBe('v');
  });

  it('a primary whose deployment refuses writes answers its reason to writes, and to a script at its first write', () => {
    const { node } = single();
    let refusal: string | null = null;
    node.writeRefusal = () => refusal;
    ask(node, 'SET', 'k', 'v');
    refusal = 'NOREPLICAS Not enough good replicas to write.';
    expect(text(node, 'SET', 'k', 'w')).toBe('NOREPLICAS Not enough good replicas to write.');
    expect(text(node, 'EVAL', compareAndDelete.lua, '1', 'k', 'other')).toBe(0);
    expect(text(node, 'EVAL', compareAndDelete.lua, '1', 'k', 'v')).toBe(
      `NOREPLICAS Not enough good replicas to write. script: ${sha1(compareAndDelete.lua)}, on @user_script:2.`,
    );
    expect(text(node, 'GET', 'k')).toBe('v');
    expect(text(node, 'PING')).toBe('PONG');
    refusal = 'CLUSTERDOWN The cluster is down';
    expect(text(node, 'EVAL', compareAndDelete.lua, '1', 'k', 'other')).toBe('CLUSTERDOWN The cluster is down');
    refusal = null;
    expect(text(node, 'SET', 'k', 'w')).toBe('OK');
  });

  it('a cluster master whose state is fail refuses reads with keys too (cluster.c getNodeByQuery, cluster-allow-reads-when-down no) ...', () => {
    const { node } = single();
    let refusal: string | null = null;
    node.writeRefusal = () => refusal;
    ask(node, 'SET', 'k', 'v');
    refusal = 'CLUSTERDOWN The cluster is down';
    expect(text(node, 'GET', 'k')).toBe('CLUSTERDOWN The cluster is down');
    expect(text(node, 'PTTL', 'k')).toBe('CLUSTERDOWN The cluster is down');
    expect(text(node, 'SET', 'k', 'w')).toBe('CLUSTERDOWN The cluster is down');
  });

  it('... and serves keyless commands (PING, INFO, PUBLISH), and reads again once the state is ok', () => {
    const { node } = single();
    let refusal: string | null = 'CLUSTERDOWN The cluster is down';
    node.writeRefusal = () => refusal;
    expect(text(node, 'PING')).toBe('PONG');
    expect(text(node, 'PUBLISH', 'ch', 'm')).toBe(0);
    expect(String(text(node, 'INFO', 'replication'))).toContain('role:master');
    refusal = null;
    expect(text(node, 'GET', 'k')).toBe(null);
  });

  it('a replica that expires nothing on its own answers an expired key as missing and keeps it (db.c expireIfNeeded)', () => {
    const { sim, primary, replica } = pair();
    ask(primary, 'SET', 'k', 'v', 'PX', '100');
    primary.crash();
    sim.run(50 * MS);
    expect(text(replica, 'GET', 'k')).toBe('v');
    sim.run(200 * MS);
    expect(text(replica, 'GET', 'k')).toBe(null);
    expect(text(replica, 'EXISTS', 'k')).toBe(0);
    expect(replica.keyspace.rawGet('k')?.value).toBe('v');
  });

  it('promotion makes it a primary that expires keys itself, at once for keys already due, with a fresh offset', () => {
    const { sim, primary, replica } = pair();
    ask(primary, 'SET', 'due', 'v', 'PX', '100');
    ask(primary, 'SET', 'later', 'v', 'PX', '500');
    primary.crash();
    sim.run(200 * MS);
    replica.promote();
    expect(replica.role).toBe('primary');
    expect(replica.replicationOffset).toBe(0);
    sim.run(201 * MS);
    expect(replica.keyspace.rawGet('due')).toBeUndefined();
    expect(replica.keyspace.rawGet('later')).toBeDefined();
    sim.run(502 * MS);
    expect(replica.keyspace.rawGet('later')).toBeUndefined();
    expect(text(replica, 'SET', 'k', 'v')).toBe('OK');
  });

  it('REPLICAOF: the new replica drops its own data and copies the primary, whose later changes it does not share by reference', () => {
    const { node: primary, sim } = single();
    ask(primary, 'HSET', 'h', 'f', '1');
    const other = new RedisNode('redis-1', sim, new LocalClock(sim));
    ask(other, 'SET', 'own', 'v');
    other.demoteToReplicaOf(primary);
    expect(other.role).toBe('replica');
    expect(other.keyspace.keys()).toEqual(['h']);
    ask(primary, 'HSET', 'h', 'f', '2');
    expect(text(other, 'HGET', 'h', 'f')).toBe('1');
    expect(other.replicationOffset).toBe(0);
  });

  it('applies a replicated change only while it is an up replica, and takes its offset', () => {
    const { sim, node: primary } = single();
    const replica = new RedisNode('redis-1', sim, new LocalClock(sim));
    replica.demoteToReplicaOf(primary);
    replica.applyReplicated('k', { value: 'v', expireAtMs: null, holderTag: 'r1' }, 7);
    expect(replica.keyspace.rawGet('k')?.value).toBe('v');
    expect(replica.replicationOffset).toBe(7);
    replica.crash();
    replica.applyReplicated('x', { value: 'v', expireAtMs: null, holderTag: 'r1' }, 8);
    expect(replica.keyspace.rawGet('x')).toBeUndefined();
    primary.applyReplicated('y', { value: 'v', expireAtMs: null, holderTag: 'r1' }, 9);
    expect(primary.keyspace.rawGet('y')).toBeUndefined();
    expect(primary.replicationOffset).toBe(0);
  });
});

describe('WAIT numreplicas timeout (replication.c waitCommand)', () => {
  it('answers at once when enough replicas acknowledged already (WAIT 0 0: 0)', () => {
    const { sim, node } = single();
    expect(send(sim, node, 'WAIT', '0', '0')).toEqual([{ atUs: 0, reply: 0 }]);
    expect(send(sim, node, 'WAIT', '-1', '0')).toEqual([{ atUs: 0, reply: 0 }]);
  });

  it('answers as soon as the replica acknowledges the write: one round trip (2 ms), well before the timeout', () => {
    const { sim, primary } = pair();
    ask(primary, 'SET', 'k', 'v');
    const replies = send(sim, primary, 'WAIT', '1', '1000');
    expect(replies).toEqual([]);
    sim.run(5 * S);
    expect(replies).toEqual([{ atUs: 2 * MS, reply: 1 }]);
  });

  it('counts only the replicas that acknowledged, when the timeout runs out (WAIT 2 100 with one replica: 1 at 100 ms)', () => {
    const { sim, primary } = pair();
    ask(primary, 'SET', 'k', 'v');
    const replies = send(sim, primary, 'WAIT', '2', '100');
    sim.run(99 * MS);
    expect(replies).toEqual([]);
    sim.run(5 * S);
    expect(replies).toEqual([{ atUs: 100 * MS, reply: 1 }]);
  });

  it('waits for the acknowledgements of every replica it needs (WAIT 2 1000 with two replicas: 2 after the round trip)', () => {
    const { sim, primary } = pair(2);
    ask(primary, 'SET', 'k', 'v');
    const replies = send(sim, primary, 'WAIT', '2', '1000');
    sim.run(5 * S);
    expect(replies).toEqual([{ atUs: 2 * MS, reply: 2 }]);
  });

  it('with no replica, WAIT 1 100 answers 0 at 100 ms; WAIT 1 0 blocks for good', () => {
    const { sim, node } = single();
    const timed = send(sim, node, 'WAIT', '1', '100');
    const forever = send(sim, node, 'WAIT', '1', '0');
    sim.run(3600 * S);
    expect(timed).toEqual([{ atUs: 100 * MS, reply: 0 }]);
    expect(forever).toEqual([]);
  });

  it('a blocked WAIT never answers once the node is killed, even when its timeout comes', () => {
    const { sim, node } = single();
    const replies = send(sim, node, 'WAIT', '1', '100');
    sim.scheduleAt(50 * MS, () => node.crash());
    sim.run(1 * S);
    expect(replies).toEqual([]);
  });

  it('a WAIT that times out leaves the others blocked: each is answered on its own terms', () => {
    const { sim, primary } = pair(1, 200 * MS);
    ask(primary, 'SET', 'k', 'v');
    const short = send(sim, primary, 'WAIT', '1', '100');
    const long = send(sim, primary, 'WAIT', '1', '1000');
    sim.run(5 * S);
    expect(short).toEqual([{ atUs: 100 * MS, reply: 0 }]);
    expect(long).toEqual([{ atUs: 400 * MS, reply: 1 }]);
  });

  it('a WAIT answered by the acknowledgement is not answered again at its timeout', () => {
    const { sim, primary } = pair();
    ask(primary, 'SET', 'k', 'v');
    const replies = send(sim, primary, 'WAIT', '1', '100');
    ask(primary, 'SET', 'k2', 'v');
    sim.run(1 * S);
    expect(replies).toEqual([{ atUs: 2 * MS, reply: 1 }]);
  });

  it('checks its arguments as Redis 7.0 does, the role first', () => {
    const { node, sim } = single();
    expect(text(node, 'WAIT', '1')).toBe("ERR wrong number of arguments for 'wait' command");
    expect(text(node, 'WAIT', 'abc', '0')).toBe('ERR value is not an integer or out of range');
    expect(text(node, 'WAIT', '1', 'abc')).toBe('ERR timeout is not an integer or out of range');
    expect(text(node, 'WAIT', '1', '-1')).toBe('ERR timeout is negative');
    const replica = new RedisNode('redis-1', sim, new LocalClock(sim));
    replica.demoteToReplicaOf(node);
    expect(text(replica, 'WAIT', 'abc', '0')).toBe(
      'ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to replicas are just local and are not propagated.',
    );
  });
});

describe('EVAL and EVALSHA of the built-in scripts (eval.c evalGenericCommand)', () => {
  it('runs a script sent by text or by SHA1, in either case, with KEYS and ARGV split by numkeys', () => {
    const { node } = single();
    ask(node, 'SET', 'lock', 'tok');
    expect(ask(node, 'EVAL', compareAndDelete.lua, '1', 'lock', 'other')).toBe(0);
    // EVAL cached the body: EVALSHA finds it (eval.c luaCreateFunction).
    expect(ask(node, 'EVALSHA', sha1(compareAndDelete.lua).toUpperCase(), '1', 'lock', 'tok')).toBe(1);
    expect(ask(node, 'EXISTS', 'lock')).toBe(0);
  });

  it("each script sees its own KEYS and ARGV, of whatever length, after another script's (the arrays are refilled per EVAL)", () => {
    const { node } = single();
    ask(node, 'HSET', 'a', 'u:1', '1');
    ask(node, 'HSET', 'b', 'u:2', '1');
    // Three keys and four arguments, then one key and two: nothing of the first stays.
    expect(ask(node, 'EVAL', redissonRenewMany.lua, '3', 'a', 'b', 'c', '30000', 'u:1', 'u:9', 'u:3')).toEqual([1, 0, 0]);
    ask(node, 'SET', 's', 'v');
    expect(ask(node, 'EVAL', compareAndDelete.lua, '1', 's', 'x')).toBe(0);
    expect(ask(node, 'EVAL', redissonRenewMany.lua, '1', 'b', '20000', 'u:2')).toEqual([1]);
    expect(ask(node, 'PTTL', 'a')).toBe(30000);
    expect(ask(node, 'PTTL', 'b')).toBe(20000);
    // A redis.call of five arguments, then of two (the scripts' own argument arrays).
    expect(ask(node, 'EVAL', redissonUnlock.lua, '2', 'b', 'ch', '0', '30000', 'u:2')).toBe(1);
    expect(ask(node, 'EXISTS', 'b')).toBe(0);
  });

  it('an unknown SHA1 is NOSCRIPT; an unknown text is refused (no Lua VM in the simulator)', () => {
    const { node } = single();
    expect(text(node, 'EVALSHA', '0123456789012345678901234567890123456789', '0')).toBe('NOSCRIPT No matching script. Please use EVAL.');
    expect(String(text(node, 'EVAL', 'return 1', '0'))).toMatch(/^ERR /);
  });

  it('checks numkeys: an integer, not above the arguments given, not negative', () => {
    const { node } = single();
    const sha = sha1(compareAndDelete.lua);
    expect(ask(node, 'SCRIPT', 'LOAD', compareAndDelete.lua)).toBe(sha);
    expect(text(node, 'EVALSHA', sha, 'x')).toBe('ERR value is not an integer or out of range');
    expect(text(node, 'EVALSHA', sha, '2', 'a')).toBe("ERR Number of keys can't be greater than number of args");
    expect(text(node, 'EVALSHA', sha, '-1')).toBe("ERR Number of keys can't be negative");
    expect(text(node, 'EVALSHA', sha)).toBe("ERR wrong number of arguments for 'evalsha' command");
    expect(text(node, 'EVAL', compareAndDelete.lua)).toBe("ERR wrong number of arguments for 'eval' command");
    expect(text(node, 'EVALSHA', sha, '1', 'a')).toBe(0);
  });

  it('SCRIPT FLUSH forgets a script sent just before it: EVALSHA is NOSCRIPT until the same text is sent again', () => {
    const { node } = single();
    const sha = sha1(compareAndDelete.lua);
    expect(ask(node, 'EVAL', compareAndDelete.lua, '1', 'a', 't')).toBe(0);
    expect(ask(node, 'EVALSHA', sha, '1', 'a', 't')).toBe(0);
    expect(ask(node, 'SCRIPT', 'FLUSH')).toBe('OK');
    expect(text(node, 'EVALSHA', sha, '1', 'a', 't')).toBe('NOSCRIPT No matching script. Please use EVAL.');
    expect(ask(node, 'EVAL', compareAndDelete.lua, '1', 'a', 't')).toBe(0);
    expect(ask(node, 'SCRIPT', 'EXISTS', sha)).toEqual([1]);
    expect(ask(node, 'EVALSHA', sha, '1', 'a', 't')).toBe(0);
  });

  it('numkeys 0 is valid: the shared watchdog with no locks to renew answers an empty list', () => {
    const { node } = single();
    ask(node, 'SCRIPT', 'LOAD', redissonRenewMany.lua);
    expect(ask(node, 'EVALSHA', sha1(redissonRenewMany.lua), '0', '30000')).toEqual([]);
  });

  it("a script's PUBLISH reaches the node's subscribers, and its writes are the caller's", () => {
    const { node } = single();
    const heard: string[] = [];
    node.subscribe('ch', (c, m) => heard.push(`${c}:${m}`));
    ask(node, 'HINCRBY', 'lock', 'uuid:1', '1');
    expect(ask(node, 'EVAL', redissonUnlock.lua, '2', 'lock', 'ch', 'unlocked', '30000', 'uuid:1')).toBe(1);
    expect(heard).toEqual(['ch:unlocked']);
  });
});

describe('pub/sub', () => {
  it('PUBLISH answers how many subscribers got the message; unsubscribing removes one', () => {
    const { node } = single();
    const heard: string[] = [];
    const off = node.subscribe('ch', (_c, m) => heard.push(`a:${m}`));
    node.subscribe('ch', (_c, m) => heard.push(`b:${m}`));
    node.subscribe('other', (_c, m) => heard.push(`o:${m}`));
    expect(ask(node, 'PUBLISH', 'ch', 'm1')).toBe(2);
    off();
    expect(ask(node, 'PUBLISH', 'ch', 'm2')).toBe(1);
    expect(ask(node, 'PUBLISH', 'nobody', 'm3')).toBe(0);
    expect(heard).toEqual(['a:m1', 'b:m1', 'b:m2']);
  });

  it('PUBLISH takes exactly a channel and a message', () => {
    const { node } = single();
    expect(text(node, 'PUBLISH', 'ch')).toBe("ERR wrong number of arguments for 'publish' command");
  });

  it('a killed node forgets its subscribers', () => {
    const { node } = single();
    const heard: string[] = [];
    node.subscribe('ch', (_c, m) => heard.push(m));
    node.crash();
    node.restart(false);
    expect(ask(node, 'PUBLISH', 'ch', 'm')).toBe(0);
    expect(heard).toEqual([]);
  });
});

describe('DEBUG SLEEP (pause)', () => {
  it('queues commands and administrative steps while asleep and runs them in arrival order when it wakes', () => {
    const { node } = single();
    const order: string[] = [];
    node.pause();
    expect(node.paused).toBe(true);
    node.execute(['SET', 'k', 'a'], 'r1', (r) => order.push(`set-a:${String(r)}`));
    node.whenAwake(() => order.push('admin'));
    node.execute(['GET', 'k'], 'r2', (r) => order.push(`get:${String(r)}`));
    node.whenAwake(() => order.push('delivery'));
    expect(order).toEqual([]);
    node.resume();
    expect(node.paused).toBe(false);
    expect(order).toEqual(['set-a:OK', 'admin', 'get:a', 'delivery']);
  });

  it('awake, it runs commands, administrative steps and deliveries at once', () => {
    const { node } = single();
    const order: string[] = [];
    node.whenAwake(() => order.push('admin'));
    node.whenAwake(() => order.push('delivery'));
    expect(order).toEqual(['admin', 'delivery']);
    node.pause();
    node.execute(['SET', 'k', 'v'], 'r1', () => order.push('set'));
    node.pause();
    node.resume();
    expect(node.paused).toBe(false);
    expect(order).toEqual(['admin', 'delivery', 'set']);
    node.resume();
    expect(ask(node, 'PING')).toBe('PONG');
  });

  it('expires nothing while asleep and catches up when it wakes', () => {
    const { sim, node, changes } = single();
    ask(node, 'SET', 'k', 'v', 'PX', '100');
    sim.scheduleAt(50 * MS, () => node.pause());
    sim.scheduleAt(300 * MS, () => node.resume());
    sim.run(299 * MS);
    expect(node.keyspace.rawGet('k')).toBeDefined();
    sim.run(301 * MS);
    expect(node.keyspace.rawGet('k')).toBeUndefined();
    expect(changes.map((c) => `${c.cause}@${sim.nowUs}`).at(-1)).toBe(`expire@${301 * MS}`);
  });

  it('a node killed in its sleep runs nothing of what queued, even when told to wake', () => {
    const { node } = single();
    const order: string[] = [];
    node.pause();
    node.execute(['SET', 'k', 'v'], 'r1', () => order.push('set'));
    node.whenAwake(() => order.push('admin'));
    node.crash();
    node.resume();
    expect(order).toEqual([]);
    expect(node.paused).toBe(false);
    expect(node.keyspace.rawGet('k')).toBeUndefined();
  });
});

describe('active expiry (expire.c activeExpireCycle, as an exact timer)', () => {
  it('a primary deletes a key just after its deadline without anyone asking, reported as an expiry', () => {
    const { sim, node, changes } = single();
    ask(node, 'SET', 'k', 'v', 'PX', '100');
    sim.run(100 * MS);
    expect(node.keyspace.rawGet('k')).toBeDefined();
    sim.run(101 * MS);
    expect(node.keyspace.rawGet('k')).toBeUndefined();
    expect(changes.map((c) => c.cause)).toEqual(['write', 'expire']);
  });

  it('a key whose TTL was extended meanwhile is left alone at the old deadline', () => {
    const { sim, node } = single();
    ask(node, 'SET', 'k', 'v', 'PX', '100');
    sim.scheduleAt(50 * MS, () => ask(node, 'PEXPIRE', 'k', '1000'));
    sim.run(500 * MS);
    expect(node.keyspace.rawGet('k')).toBeDefined();
    sim.run(1051 * MS);
    expect(node.keyspace.rawGet('k')).toBeUndefined();
  });

  it('a replica waits for the primary: its expired key stays until the deletion is replicated', () => {
    const { sim, primary, replica } = pair();
    ask(primary, 'SET', 'k', 'v', 'PX', '100');
    sim.run(100 * MS);
    expect(replica.keyspace.rawGet('k')).toBeDefined();
    sim.run(101 * MS);
    expect(primary.keyspace.rawGet('k')).toBeUndefined();
    expect(replica.keyspace.rawGet('k')).toBeDefined();
    sim.run(102 * MS);
    expect(replica.keyspace.rawGet('k')).toBeUndefined();
  });

  it('a clock stepped forward brings the deadline forward: the key goes at the new instant', () => {
    const { sim, node, changes } = single();
    ask(node, 'SET', 'k', 'v', 'PX', '10000');
    ask(node, 'SET', 'nottl', 'v');
    sim.scheduleAt(1 * S, () => {
      node.clock.jump(5 * S);
      node.clockChanged();
    });
    sim.run(1 * S);
    // The lock key is reported again with its new fate, by the node itself; the key without a TTL is not.
    expect(changes.filter((c) => c.cause === 'clock')).toEqual([
      { key: 'k', entry: node.keyspace.rawGet('k'), cause: 'clock', byTag: '', previousHolder: 'r1' },
    ]);
    sim.run(5 * S);
    expect(node.keyspace.rawGet('k')).toBeDefined();
    sim.run(5 * S + 1 * MS);
    expect(node.keyspace.rawGet('k')).toBeUndefined();
  });

  it('a clock change needs no observer', () => {
    const { node } = single();
    node.observer = null;
    ask(node, 'SET', 'k', 'v', 'PX', '10000');
    expect(() => node.clockChanged()).not.toThrow();
  });

  it('a dead node reports nothing when its clock changes', () => {
    const { node, changes } = single();
    ask(node, 'SET', 'k', 'v', 'PX', '10000');
    node.crash();
    node.clockChanged();
    expect(changes.map((c) => c.cause)).toEqual(['write']);
  });

  it('a dead node expires nothing: its keys are as it left them', () => {
    const { sim, node } = single();
    ask(node, 'SET', 'k', 'v', 'PX', '100');
    node.crash();
    sim.run(1 * S);
    expect(node.keyspace.rawGet('k')).toBeDefined();
  });
});

describe('crash and restart', () => {
  it('a dead node answers nothing and refuses connections; a live one accepts them', () => {
    const { node } = single();
    expect(node.acceptConnection(() => {})).not.toBeNull();
    node.crash();
    expect(node.up).toBe(false);
    expect(ask(node, 'PING')).toBeUndefined();
    expect(node.acceptConnection(() => {})).toBeNull();
    let ran = false;
    node.whenAwake(() => (ran = true));
    expect(ran).toBe(false);
  });

  it('kill -9 closes the client sockets it accepted, except those the clients closed first; a sleeping node still accepts', () => {
    const { node } = single();
    const closed: string[] = [];
    const a = () => closed.push('a');
    const b = () => closed.push('b');
    node.pause();
    expect(node.acceptConnection(a)).not.toBeNull();
    node.acceptConnection(b);
    node.forgetConnection(a);
    node.crash();
    expect(closed).toEqual(['b']);
    node.restart(false);
    node.crash();
    expect(closed).toEqual(['b']);
  });

  it('restarts empty without persistence, or with its data and their deadlines', () => {
    const { node } = single();
    ask(node, 'SET', 'k', 'v', 'PX', '100');
    node.crash();
    node.restart(false);
    expect(node.up).toBe(true);
    expect(node.keyspace.size).toBe(0);

    const kept = single();
    ask(kept.node, 'SET', 'k', 'v', 'PX', '100');
    kept.node.crash();
    kept.sim.run(50 * MS);
    kept.node.restart(true);
    expect(ask(kept.node, 'GET', 'k')).toBe('v');
    kept.sim.run(101 * MS);
    expect(kept.node.keyspace.rawGet('k')).toBeUndefined();
  });
});
