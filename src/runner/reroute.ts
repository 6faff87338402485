/**
 * Clients learn the primary from the deciders: each acts on an announced switch its own
 * `rediscover` later (drawn per client); one cut off from them keeps its old view until it
 * can ask them again.
 */
import { sample } from '../engine/distribution.js';
import type { FaultContext } from '../faults/fault-context.js';
import type { Scenario } from '../spec/scenario.js';
import type { ClientHost } from '../world/client-host.js';
import type { SimTransport } from '../world/sim-transport.js';
import { DECIDERS } from '../world/redis/deployment.js';
import type { World } from '../world/world.js';

/**
 * Makes the clients follow the deciders' announcements (registered with `onSwitch`, so after
 * the listeners registered before it). Returns what to call when the network changed: a
 * client that can reach the deciders again asks them.
 */
export function followAnnouncements(world: World, scenario: Scenario, nemesis: FaultContext['record']): () => void {
  const { sim } = world;
  const pending = new Set<ClientHost<SimTransport>>();
  const reroute = (): void => {
    const groups = new Map<number, ClientHost<SimTransport>[]>();
    for (const client of world.clients) {
      if (pending.has(client) || client.transport.primary === world.redis.announced || world.fabric.isCut(client.name, DECIDERS)) continue;
      // A client that polls the Sentinels (Redisson) learns of the switch anywhere within its
      // poll period: `redis.rediscover` is where that goes. Its default stays 0 (the
      // announcement at once, as Jedis's MasterListener and ioredis's failover detector act);
      // a Redisson scenario writes `rediscover: uniform(0ms, 1s)` for scanInterval.
      const delayUs = sample(scenario.redis.rediscover, sim.random.fork(`rediscover/${client.name}`));
      pending.add(client);
      const group = groups.get(delayUs);
      if (group) group.push(client);
      else groups.set(delayUs, [client]);
    }
    for (const [delayUs, clients] of groups) {
      sim.schedule(delayUs, () => {
        const primary = world.redis.announced;
        const moved: string[] = [];
        for (const client of clients) {
          pending.delete(client);
          if (client.transport.primary === primary || world.fabric.isCut(client.name, DECIDERS)) continue;
          client.transport.switchPrimary(primary);
          moved.push(client.name);
        }
        if (moved.length > 0) nemesis('rediscover', 'event', primary.name, `${moved.join(', ')} now send to ${primary.name}`);
      });
    }
  };
  world.redis.onSwitch(() => reroute());
  return reroute;
}
