import { randomUUID } from 'node:crypto';

export const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
export function token<T extends string>(prefix: T): `${T}:${string}` {
  return `${prefix}:${randomUUID()}`;
}
