/**
 * Scripts that are not lock-sim's built-in ones: the Lua VM that runs them (the node's
 * script cache is script-cache.ts). The VM lives above the world (src/own-code/lua.ts registers it), so the Redis
 * model runs any script user code sends once an own-code lock is loaded, and answers as
 * before otherwise.
 * A node's own `userScripts` runner, when set, comes first (tests set one).
 */
import type { RedisReply } from './reply.js';

export type GlobalScriptRunner = (
  lua: string,
  sha: string,
  keys: readonly string[],
  argv: readonly string[],
  call: (args: string[]) => RedisReply,
) => RedisReply;

let runner: GlobalScriptRunner | null = null;

/** Installs the Lua VM (src/own-code does, when it loads). */
export function setUserScriptRunner(r: GlobalScriptRunner | null): void {
  runner = r;
}

export function userScriptRunner(): GlobalScriptRunner | null {
  return runner;
}
