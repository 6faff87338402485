/** Synchronous access to a Redis node in tests: a command's reply as the node gives it at once. */
import type { RedisNode } from '../../../src/world/redis/node.js';
import type { RedisReply } from '../../../src/world/redis/reply.js';

/** The reply `node` gives to `args` right away (undefined while it is asleep or dead). */
export function ask(node: RedisNode, ...args: string[]): RedisReply | undefined {
  let out: RedisReply | undefined;
  node.execute(args, 'r1', (r) => (out = r));
  return out;
}

/** Whether `key` is in the node's keyspace, expired or not. */
export const has = (node: RedisNode, key: string): boolean => node.keyspace.rawGet(key) !== undefined;
