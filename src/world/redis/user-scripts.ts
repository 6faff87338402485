/**
 * Scripts that are not lock-sim's built-in ones: a node's script cache and the Lua VM that
 * runs them. The VM lives above the world (src/own-code/lua.ts registers it), so the Redis
 * model runs any script user code sends once an own-code lock is loaded, and answers as
 * before otherwise.
 *
 * The cache follows redis 7.0.15 eval.c: EVAL and SCRIPT LOAD add a script under its SHA1,
 * EVALSHA of an unknown SHA1 answers NOSCRIPT, SCRIPT FLUSH empties it. It lives in the
 * server's memory only: a restart empties it, and replicas do not get it (scripts replicate
 * as their effects since 7.0), so after a failover EVALSHA meets NOSCRIPT on the new primary.
 */
import { RedisErrorReply, wrongArgs, type RedisReply } from './reply.js';
import { sha1 } from './scripts.js';

export type UserScriptRunner = (
  lua: string,
  sha: string,
  keys: readonly string[],
  argv: readonly string[],
  call: (args: string[]) => RedisReply,
) => RedisReply;

let runner: UserScriptRunner | null = null;

/** Installs the Lua VM (src/own-code does, when it loads). */
export function setUserScriptRunner(r: UserScriptRunner | null): void {
  runner = r;
}

export function userScriptRunner(): UserScriptRunner | null {
  return runner;
}

export class ScriptCache {
  private readonly bySha = new Map<string, string>();

  add(lua: string): string {
    const sha = sha1(lua);
    this.bySha.set(sha, lua);
    return sha;
  }

  get(sha: string): string | undefined {
    return this.bySha.get(sha.toLowerCase());
  }

  clear(): void {
    this.bySha.clear();
  }

  /** SCRIPT LOAD | EXISTS | FLUSH (eval.c scriptCommand). */
  command(args: readonly string[]): RedisReply {
    if (args.length < 2) return wrongArgs('script');
    const sub = args[1].toUpperCase();
    if (sub === 'LOAD') {
      if (args.length !== 3) return new RedisErrorReply(`ERR unknown subcommand or wrong number of arguments for '${args[1]}'. Try SCRIPT HELP.`);
      return this.add(args[2]);
    }
    if (sub === 'EXISTS') {
      if (args.length < 3) return new RedisErrorReply(`ERR unknown subcommand or wrong number of arguments for '${args[1]}'. Try SCRIPT HELP.`);
      return args.slice(2).map((sha) => (this.bySha.has(sha.toLowerCase()) ? 1 : 0));
    }
    if (sub === 'FLUSH') {
      this.clear();
      return 'OK';
    }
    return new RedisErrorReply(`ERR unknown subcommand '${args[1]}'. Try SCRIPT HELP.`);
  }
}
