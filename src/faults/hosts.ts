/** Host names in fault specs -> the world's clients and Redis nodes. */
import type { ClientHost } from '../world/client-host.js';
import type { RedisNode } from '../world/redis/node.js';
import type { ClientWorld, World } from '../world/world.js';

export type Host = { kind: 'client'; client: ClientHost } | { kind: 'redis'; node: RedisNode };

/** `primary` means whichever node is primary at the moment the fault strikes. */
export function findHost(world: ClientWorld | World, name: string): Host {
  const redis = 'redis' in world ? world.redis : null;
  if (name === 'primary' && redis) return { kind: 'redis', node: redis.primary };
  const client = world.clients.find((c) => c.name === name);
  if (client) return { kind: 'client', client };
  const node = redis?.node(name);
  if (node) return { kind: 'redis', node };
  throw new Error(`unknown host ${name}`);
}

/** The host's name on the network (`primary` resolved to the node it named). */
export const hostName = (host: Host): string => (host.kind === 'client' ? host.client.name : host.node.name);

export function findNode(world: World, name: string): RedisNode {
  const host = findHost(world, name);
  if (host.kind !== 'redis') throw new Error(`${name} is not a Redis node`);
  return host.node;
}

/** Every host name on the fabric, for "everyone else" in a partition. */
export function allHostNames(world: World): string[] {
  return [...world.clients.map((c) => c.name), ...world.redis.nodes.map((n) => n.name), 'sentinel'];
}
