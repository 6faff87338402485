/**
 * What a node refuses before it runs a command (redis 7.0.15 src/server.c processCommand): the
 * command's shape, a write on a replica, a command outside the pub/sub context, a write (or a
 * keyed command on a cluster node that is down) on a primary that refuses them now. A part of
 * RedisNode (node.ts), which it reads through `AdmissionHost`.
 */
import { checkShape, fullName, type CommandInfo } from './commands.js';
import { RedisErrorReply } from './reply.js';
import type { ClientSession } from './session.js';
import { PUBSUB_CONTEXT_COMMANDS } from './session-commands.js';

export const ERR_READONLY = new RedisErrorReply("READONLY You can't write against a read only replica.");

/** What admission reads of its node. */
interface AdmissionHost {
  readonly role: 'primary' | 'replica';
  /** Why this primary refuses writes right now, or null (RedisNode.writeRefusal). */
  readonly writeRefusal: (() => string | null) | null;
}

/**
 * What redis 7.0.15 server.c processCommand refuses before running a command: an unknown
 * command or wrong arity, then a write on a replica (READONLY) or on a primary that refuses
 * writes now (NOREPLICAS; CLUSTERDOWN). EVAL and EVALSHA are no WRITE commands in 7.0: a
 * script's writes are refused inside it (script-call.ts), except by a cluster node that is
 * down, which refuses the command itself.
 */
export function admissionError(node: AdmissionHost, args: readonly string[], cmd: CommandInfo, session?: ClientSession): RedisErrorReply | null {
  const shape = checkShape(args, cmd);
  if (shape !== null) return shape;
  const spec = cmd.spec;
  if (spec?.write && node.role === 'replica') return ERR_READONLY;
  if (session?.subscribed === true && !PUBSUB_CONTEXT_COMMANDS.has(cmd.name)) return pubsubContextError(args, cmd);
  // A cluster node whose state is fail refuses every command with keys, reads included
  // (redis 7.0.15 cluster.c getNodeByQuery: "Cluster is globally down but we got keys?",
  // CLUSTER_REDIR_DOWN_STATE unless cluster-allow-reads-when-down, default no); keyless
  // ones (PING, INFO, PUBLISH, WAIT, SCRIPT) are served. Scripts are refused whatever their
  // number of keys (the model's simplification: a lock script always has one).
  if ((spec?.write || cmd.keyed) && node.writeRefusal) {
    const refusal = node.writeRefusal();
    if (refusal !== null && (spec?.write || refusal.startsWith('CLUSTERDOWN'))) return new RedisErrorReply(refusal);
  }
  return null;
}

/** server.c processCommand: what a RESP2 client in the pub/sub context may not send. */
export function pubsubContextError(args: readonly string[], cmd: CommandInfo): RedisErrorReply {
  return new RedisErrorReply(`ERR Can't execute '${fullName(args, cmd)}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context`);
}
