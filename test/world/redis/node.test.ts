/** RedisNode beyond the keyspace: INFO replication as lock clients read it. */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine/simulation.js';
import { LocalClock } from '../../../src/world/clock.js';
import { RedisNode } from '../../../src/world/redis/node.js';
import type { RedisReply } from '../../../src/world/redis/reply.js';

function ask(node: RedisNode, ...args: string[]): RedisReply {
  let out: RedisReply | undefined;
  node.execute(args, 'r1', (r) => (out = r));
  return out as RedisReply;
}

describe('INFO replication', () => {
  it('a primary without replicas reports role:master and connected_slaves:0', () => {
    const sim = new Simulation(1);
    const node = new RedisNode('redis-0', sim, new LocalClock(sim));
    const info = ask(node, 'INFO', 'replication') as string;
    expect(info.split('\r\n')).toContain('role:master');
    expect(info.split('\r\n')).toContain('connected_slaves:0');
  });

  it('a replica reports role:slave and no connected_slaves line', () => {
    const sim = new Simulation(1);
    const primary = new RedisNode('redis-0', sim, new LocalClock(sim));
    const replica = new RedisNode('redis-1', sim, new LocalClock(sim));
    replica.demoteToReplicaOf(primary);
    const info = ask(replica, 'INFO') as string;
    expect(info.split('\r\n')).toContain('role:slave');
    expect(info).not.toContain('connected_slaves');
  });

  it('another section is empty, and two arguments are a syntax error', () => {
    const sim = new Simulation(1);
    const node = new RedisNode('redis-0', sim, new LocalClock(sim));
    expect(ask(node, 'INFO', 'memory')).toBe('');
    expect(String(ask(node, 'INFO', 'replication', 'x'))).toBe('ERR syntax error');
  });
});
