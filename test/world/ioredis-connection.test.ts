/** ioredis 4.28.5 with its defaults, as node-redlock uses it: dead, restarted, asleep and cut-off servers. */
import { describe, expect, it } from 'vitest';
import { constant } from '../../src/engine/distribution.js';
import { Simulation } from '../../src/engine/simulation.js';
import { LocalClock } from '../../src/world/clock.js';
import { IoredisConnection, MAX_RETRIES_PER_REQUEST_ERROR, type IoredisOutcome } from '../../src/world/ioredis-connection.js';
import { Fabric } from '../../src/world/network.js';
import { RedisNode } from '../../src/world/redis/node.js';

function setup() {
  const sim = new Simulation(1);
  const fabric = new Fabric();
  const node = new RedisNode('redis-0', sim, new LocalClock(sim));
  const group = sim.group('client-1');
  const connection = new IoredisConnection({ sim, fabric, latency: constant(1_000), rng: sim.random.fork('t') }, 'client-1', node, group);
  const replies: Array<[number, IoredisOutcome]> = [];
  const send = (atUs: number, ...args: string[]) =>
    sim.scheduleAt(atUs, () => connection.send(args, 'r1', (o) => replies.push([sim.nowUs, o])));
  return { sim, fabric, node, group, connection, replies, send };
}

describe('ioredis connection', () => {
  it('answers in one round trip when the server is up', () => {
    const { sim, replies, send } = setup();
    send(0, 'SET', 'k', 'v', 'NX', 'PX', '10000');
    sim.run();
    expect(replies).toEqual([[2_000, { status: 'ok', reply: 'OK' }]]);
  });

  it('fails a command to a killed server with MaxRetriesPerRequestError at the 21st close, about 10.5 s on', () => {
    const { sim, node, replies, send } = setup();
    sim.scheduleAt(0, () => node.crash());
    send(100_000, 'SET', 'k', 'v', 'NX', 'PX', '10000');
    sim.run(60_000_000);
    expect(replies).toHaveLength(1);
    const [atUs, outcome] = replies[0];
    expect(outcome).toEqual({ status: 'error', message: MAX_RETRIES_PER_REQUEST_ERROR });
    // Reconnects after 50, 100, ..., 1000 ms (20 of them), each refused in a round trip:
    // measured with ioredis 4.28.5 and a killed redis-server: 10.55 s.
    expect(atUs).toBe(1_000 + 10_500_000 + 20 * 2_000);
  });

  it('sends the waiting command to the server once it restarts (empty), where it runs', () => {
    const { sim, node, replies, send } = setup();
    sim.scheduleAt(0, () => node.crash());
    sim.scheduleAt(2_000_000, () => node.restart(false));
    send(100_000, 'SET', 'k', 'v', 'NX');
    sim.run(60_000_000);
    expect(replies.map(([, o]) => o)).toEqual([{ status: 'ok', reply: 'OK' }]);
    // FIN at 1 ms, 8 reconnects refused (50 ... 400 ms apart, a round trip each), the 9th
    // after 450 ms connects (2.269 s), passes the ready check and resends the SET
    // (measured: ready at 2.28 s, the SET ran on the restarted server).
    expect(replies[0][0]).toBe(1_000 + 2_250_000 + 8 * 2_000 + 2_000 + 2_000 + 2_000);
    expect(node.keyspace.rawGet('k')).toBeDefined();
  });

  it('waits for a sleeping server (DEBUG SLEEP) with no timeout and gets the reply when it wakes', () => {
    const { sim, node, replies, send } = setup();
    sim.scheduleAt(0, () => node.pause());
    sim.scheduleAt(3_000_000, () => node.resume());
    send(100_000, 'SET', 'k', 'v', 'NX', 'PX', '10000');
    sim.run();
    expect(replies).toEqual([[3_001_000, { status: 'ok', reply: 'OK' }]]);
  });

  it('waits across a partition for TCP to deliver after it heals (5 s cut: the retransmission at 6.2 s)', () => {
    const { sim, fabric, replies, send } = setup();
    sim.scheduleAt(0, () => fabric.cut([['client-1', 'redis-0']]));
    sim.scheduleAt(5_000_000, () => fabric.heal([['client-1', 'redis-0']]));
    send(100_000, 'SET', 'k', 'v', 'NX', 'PX', '10000');
    sim.run();
    expect(replies).toEqual([[100_000 + 6_200_000 + 2_000, { status: 'ok', reply: 'OK' }]]);
  });

  it('delivers a command in flight when the client process is killed: it runs on the server, its reply reaches nobody', () => {
    const { sim, node, group, connection, replies, send } = setup();
    send(0, 'SET', 'k', 'v', 'NX');
    sim.scheduleAt(500, () => {
      group.kill();
      connection.dispose();
    });
    sim.run();
    expect(node.keyspace.rawGet('k')).toBeDefined();
    expect(replies).toEqual([]);
  });

  it('closes the socket of a killed client once what it sent is through: a later server crash sends it nothing', () => {
    const { sim, node, group, connection, send } = setup();
    send(0, 'SET', 'k', 'v', 'NX');
    sim.scheduleAt(500, () => {
      group.kill();
      connection.dispose();
    });
    sim.run(10_000);
    const before = sim.eventCount;
    sim.scheduleAt(20_000, () => node.crash());
    sim.run();
    // The crash itself, and no FIN towards the dead client.
    expect(sim.eventCount - before).toBe(1);
  });

  it('lets a GC pause of the client delay its reconnects (the timers run on its event loop)', () => {
    const { sim, node, group, replies, send } = setup();
    sim.scheduleAt(0, () => node.crash());
    sim.scheduleAt(10_000, () => group.pause());
    sim.scheduleAt(30_010_000, () => group.resume());
    send(100_000, 'SET', 'k', 'v', 'NX', 'PX', '10000');
    sim.run(80_000_000);
    // The first reconnect (due at 51 ms) waits for the end of the pause; the 21st close follows 10.5 s later.
    expect(replies).toHaveLength(1);
    expect(replies[0][0]).toBeGreaterThan(30_010_000 + 10_450_000);
  });
});
