/** A client command as one object for its round trip: the legs of NodeConnection.command, and a reply to an earlier incarnation dropped. */
import { describe, expect, it } from 'vitest';
import { constant } from '../../src/engine/distribution.js';
import { Simulation } from '../../src/engine/simulation.js';
import { LocalClock } from '../../src/world/clock.js';
import { CommandTrip } from '../../src/world/command-trip.js';
import { Fabric, Link } from '../../src/world/network.js';
import { NodeConnection } from '../../src/world/node-connection.js';
import { RedisNode } from '../../src/world/redis/node.js';

const MS = 1_000;

/** A client 1 ms away from redis-0 each way. */
function setup() {
  const sim = new Simulation(1);
  const fabric = new Fabric();
  const node = new RedisNode('redis-0', sim, new LocalClock(sim));
  const rng = sim.random.fork('test');
  const connection = new NodeConnection(
    node,
    new Link('client', 'redis-0', sim, fabric, constant(1 * MS), rng),
    new Link('redis-0', 'client', sim, fabric, constant(1 * MS), rng),
  );
  const owner = { incarnation: 0 };
  const send = (...args: string[]) => new CommandTrip(owner, owner.incarnation, connection, node, args, 'r1').start();
  return { sim, fabric, node, owner, send };
}

describe('CommandTrip', () => {
  it('runs on the node when it arrives and fires with the reply when that is back', () => {
    const { sim, node, send } = setup();
    const set = send('SET', 'k', 'v');
    const get = send('GET', 'k');
    sim.run(1.5 * MS);
    expect(node.keyspace.rawGet('k')?.value).toBe('v');
    expect(set.fired).toBe(false);
    sim.run();
    expect([set.value, get.value, sim.nowUs]).toEqual(['OK', 'v', 2 * MS]);
  });

  it('a blocked WAIT answers through the trip when its timeout ends', () => {
    const { sim, send } = setup();
    const wait = send('WAIT', '1', '5');
    sim.run();
    // No replica: WAIT 1 5 blocks 5 ms and answers 0 acknowledgements, 1 ms out and 1 ms back.
    expect([wait.value, sim.nowUs]).toEqual([0, 7 * MS]);
  });

  it('a reply that comes back after its process crashed (a new incarnation) is dropped', () => {
    const { sim, owner, node, send } = setup();
    const trip = send('SET', 'k', 'v');
    sim.schedule(1.5 * MS, () => owner.incarnation++);
    sim.run();
    expect(trip.fired).toBe(false);
    // The command itself ran: the kernel had sent it.
    expect(node.keyspace.rawGet('k')?.value).toBe('v');
  });

  it('a reply that came back before the crash was delivered', () => {
    const { sim, owner, send } = setup();
    const trip = send('SET', 'k', 'v');
    sim.schedule(2.5 * MS, () => owner.incarnation++);
    sim.run();
    expect(trip.value).toBe('OK');
  });

  it('a reply lost on a link cut on the way back never fires', () => {
    const { sim, fabric, node, send } = setup();
    const trip = send('SET', 'k', 'v');
    sim.schedule(1.5 * MS, () => fabric.cut([['client', 'redis-0']]));
    sim.run();
    expect(trip.fired).toBe(false);
    expect(node.keyspace.rawGet('k')?.value).toBe('v');
  });
});
