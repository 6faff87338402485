/**
 * redis.call from inside a script, as redis 7.0.15 runs it (script_lua.c luaRedisGenericCommand,
 * script.c scriptCall, scriptVerifyCommandArity and scriptVerifyWriteCommandAllow): the command is checked (unknown,
 * arity, NOSCRIPT flag, a write refused by a replica or a primary short of good replicas), run,
 * and an error reply raises a Lua error that ends the script. Writes made before the error
 * stay (no rollback). The client then gets the error with where it happened:
 * "<error> script: <sha1 of the body>, on @user_script:<line>." (measured on redis-server
 * 7.0.15: `EVAL "return redis.call('hexists', KEYS[1], 'x')" 1 <a string key>` answers
 * "WRONGTYPE Operation against a key holding the wrong kind of value script: fdfae435...,
 * on @user_script:1.").
 *
 * The built-in scripts' native code calls this with the line of each redis.call in its Lua
 * text; a Lua VM for user scripts can call it from its redis.call.
 */
import { checkShape, commandInfo, effectiveSpec, runResolvedKeyspaceCommand } from './commands.js';
import type { Keyspace } from './keyspace.js';
import { PubSub } from './pubsub.js';
import { RedisErrorReply, type RedisReply } from './reply.js';

export interface ScriptContext {
  keyspace: Keyspace;
  /** PUBLISH from inside the script; returns the number of receivers. */
  publish(channel: string, message: string): number;
  /** INFO from inside the script (allowed there: no NOSCRIPT flag); absent, INFO answers "". */
  info?(args: readonly string[]): RedisReply;
  /** PUBSUB CHANNELS / NUMSUB / NUMPAT from inside the script (no NOSCRIPT flag); absent, they answer as a node without subscribers. */
  pubsub?(args: readonly string[]): RedisReply;
  /** The request on whose behalf the script runs. */
  tag: string;
  /** SHA1 of the script body (the error messages name it). */
  sha: string;
  /** Why this node refuses a write right now (READONLY, NOREPLICAS), or null. */
  writeRefusal(): string | null;
}

/** PUBSUB of a context without a node: nobody subscribed. */
const NO_SUBSCRIBERS = (args: readonly string[]): RedisReply => new PubSub().pubsubCommand(args);

/** A redis.call that failed: the script ends and the client gets `reply`. */
export class ScriptCallError extends Error {
  constructor(readonly reply: RedisErrorReply) {
    super(reply.message);
  }
}

/** The error the client sees for `message` raised at `line` of the script. */
function scriptError(ctx: ScriptContext, line: number, message: string): ScriptCallError {
  return new ScriptCallError(new RedisErrorReply(`${message} script: ${ctx.sha}, on @user_script:${line}.`));
}

/** redis.call(...) at `line` of the running script: the reply, or a thrown ScriptCallError. */
export function scriptCall(ctx: ScriptContext, line: number, args: readonly string[]): RedisReply {
  const reply = scriptCallReply(ctx, args);
  if (reply instanceof RedisErrorReply) throw scriptError(ctx, line, reply.message);
  return reply;
}

/**
 * redis.call(...) with its error as a reply, not yet placed in the script (a Lua VM that
 * knows the line itself, and redis.pcall, which returns the error as a table).
 */
export function scriptCallReply(ctx: ScriptContext, args: readonly string[]): RedisReply {
  const cmd = commandInfo(args[0], ctx.keyspace.server);
  const spec = cmd.spec;
  if (spec === undefined) return new RedisErrorReply('ERR Unknown Redis command called from script');
  // script.c scriptVerifyCommandArity: lookupCommand finds no command for an unknown subcommand.
  const shape = checkShape(args, cmd);
  if (shape !== null && shape.message.startsWith('ERR unknown subcommand')) return new RedisErrorReply('ERR Unknown Redis command called from script');
  if (shape !== null) return new RedisErrorReply('ERR Wrong number of args calling Redis command from script');
  // A container's flags are its subcommand's (CLIENT ID is NOSCRIPT, PUBSUB NUMSUB is not).
  const flags = spec.subcommands === undefined ? spec : (effectiveSpec(args, cmd) ?? spec);
  if (flags.noscript) return new RedisErrorReply('ERR This Redis command is not allowed from script');
  if (flags.write) {
    const refusal = ctx.writeRefusal();
    if (refusal !== null) return new RedisErrorReply(refusal);
  }
  const name = cmd.name;
  if (name === 'pubsub') return (ctx.pubsub ?? NO_SUBSCRIBERS)(args);
  return name === 'publish' ? ctx.publish(args[1], args[2]) : name === 'info' ? (ctx.info?.(args) ?? '') : runResolvedKeyspaceCommand(ctx.keyspace, args, ctx.tag, cmd);
}
