/**
 * SCRIPT LOAD / EXISTS / FLUSH on a node's script cache (script-cache.ts). A part of RedisNode
 * (node.ts).
 */
import { asciiLower } from './commands.js';
import { RedisErrorReply, type RedisReply } from './reply.js';
import type { ScriptCache } from './script-cache.js';

/**
 * SCRIPT LOAD / EXISTS / FLUSH (redis 7.0.15 eval.c scriptCommand). LOAD caches the body and
 * answers its SHA1 (a Lua VM would also compile it); EXISTS answers 1 or 0 per SHA1; FLUSH
 * takes no option or ASYNC / SYNC.
 */
export function scriptCommand(scripts: ScriptCache, args: readonly string[]): RedisReply {
  const sub = asciiLower(args[1]);
  if (sub === 'load') return scripts.add(args[2]);
  if (sub === 'exists') return args.slice(2).map((sha) => (scripts.has(sha) ? 1 : 0));
  if (args.length === 3 && !['async', 'sync'].includes(asciiLower(args[2]))) {
    return new RedisErrorReply('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
  }
  if (args.length > 3) return new RedisErrorReply('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
  scripts.flush();
  return 'OK';
}
