/** A host's connection to a Redis node: messages run in order, wait for a sleeping node, die with a dead one; replies come back. */
import { describe, expect, it } from 'vitest';
import { constant } from '../../src/engine/distribution.js';
import { Simulation } from '../../src/engine/simulation.js';
import { LocalClock } from '../../src/world/clock.js';
import { Fabric, Link } from '../../src/world/network.js';
import { NodeConnection } from '../../src/world/node-connection.js';
import { RedisNode } from '../../src/world/redis/node.js';

const MS = 1_000;

/** A host 1 ms away from redis-0 each way. */
function setup(withNode = true) {
  const sim = new Simulation(1);
  const fabric = new Fabric();
  const node = new RedisNode('redis-0', sim, new LocalClock(sim));
  const rng = sim.random.fork('test');
  const connection = new NodeConnection(
    withNode ? node : null,
    new Link('host', 'redis-0', sim, fabric, constant(1 * MS), rng),
    new Link('redis-0', 'host', sim, fabric, constant(1 * MS), rng),
  );
  const log: string[] = [];
  const at = (what: string) => log.push(`${what}@${sim.nowUs / MS}`);
  return { sim, fabric, node, connection, log, at };
}

describe('NodeConnection.deliver', () => {
  it('runs on an awake node when it arrives, in the order sent', () => {
    const { sim, connection, log, at } = setup();
    connection.deliver(() => at('a'));
    connection.deliver(() => at('b'));
    sim.run();
    expect(log).toEqual(['a@1', 'b@1']);
  });

  it('waits while the node sleeps and runs when it wakes, behind commands that came first', () => {
    const { sim, node, connection, log, at } = setup();
    node.pause();
    connection.command(['SET', 'k', 'v'], 't', () => null, () => at('set-reply'));
    connection.deliver(() => at(`admin sees k=${node.keyspace.rawGet('k') ? 'set' : 'unset'}`));
    sim.scheduleAt(5 * MS, () => node.resume());
    sim.run();
    expect(log).toEqual(['admin sees k=set@5', 'set-reply@6']);
  });

  it('is lost on a dead node, and not run when it restarts; a live node runs it', () => {
    const run = (crash: boolean) => {
      const { sim, node, connection, log, at } = setup();
      if (crash) node.crash();
      connection.deliver(() => at('ran'));
      sim.scheduleAt(5 * MS, () => node.restart(false));
      sim.run();
      return log;
    };
    expect(run(true)).toEqual([]);
    expect(run(false)).toEqual(['ran@1']);
  });

  it('is lost across a cut', () => {
    const { sim, fabric, connection, log, at } = setup();
    fabric.cut([['host', 'redis-0']]);
    connection.deliver(() => at('ran'));
    sim.run();
    expect(log).toEqual([]);
  });

  it('runs at once on arrival where the far end is a bus-only node (no RedisNode)', () => {
    const { sim, connection, log, at } = setup(false);
    connection.deliver(() => at('ran'));
    sim.run();
    expect(log).toEqual(['ran@1']);
  });
});

describe('NodeConnection.command', () => {
  it('the reply comes back a round trip later, with what was read at the node when it ran', () => {
    const { sim, node, connection, log, at } = setup();
    node.execute(['SET', 'k', 'before'], 't', () => {});
    connection.command(['GET', 'k'], 't', (reply) => `${String(reply)}/${node.keyspace.rawGet('k')?.value}`, (v) => at(v));
    // Changed after the GET ran (at 1 ms), before its reply arrives (at 2 ms).
    sim.scheduleAt(1.5 * MS, () => node.execute(['SET', 'k', 'after'], 't', () => {}));
    sim.run();
    expect(log).toEqual(['before/before@2']);
  });

  it('a reply cut off on its way back never arrives; without the cut it does', () => {
    const run = (cut: boolean) => {
      const { sim, fabric, connection, log, at } = setup();
      connection.command(['PING'], 't', (r) => r, (r) => at(String(r)));
      if (cut) sim.scheduleAt(1.5 * MS, () => fabric.cut([['host', 'redis-0']]));
      sim.run();
      return log;
    };
    expect(run(true)).toEqual([]);
    expect(run(false)).toEqual(['PONG@2']);
  });

  it('a dead node never replies', () => {
    const { sim, node, connection, log, at } = setup();
    node.crash();
    connection.command(['PING'], 't', (r) => r, (r) => at(String(r)));
    sim.run();
    expect(log).toEqual([]);
  });

  it('a bus-only node takes no commands', () => {
    const { connection } = setup(false);
    expect(() => connection.command(['PING'], 't', (r) => r, () => {})).toThrow(/not a Redis node/);
  });
});
