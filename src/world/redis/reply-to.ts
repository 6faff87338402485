/**
 * Where a command's reply goes: a callback, or an object that takes it (a client command in
 * flight, world/command-trip.ts: no closure per command).
 */
import type { RedisReply } from './reply.js';

export type ReplyTo = ((r: RedisReply) => void) | { nodeReplied(r: RedisReply): void };

export const answer = (to: ReplyTo, r: RedisReply): void => {
  if (typeof to === 'function') to(r);
  else to.nodeReplied(r);
};
