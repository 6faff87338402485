/**
 * How a command file declares its commands to commands.ts: name, arity and flags as redis
 * 7.0.15 src/commands/<name>.json gives them, and the keyspace handler (none for commands the
 * node runs itself). Flags: `w` WRITE (a replica refuses it: READONLY), `n` NOSCRIPT (refused
 * inside EVAL), `b` BLOCKING (the node may block the client), `k` no keys (no key_specs: a
 * cluster node that is down still serves it).
 */
import type { Keyspace } from './keyspace.js';
import type { RedisReply } from './reply.js';

export type Handler = (ks: Keyspace, args: readonly string[], tag: string) => RedisReply;

export type CommandDef = readonly [name: string, arity: number, flags: string, handler: Handler | null];
