/**
 * INFO (redis 7.0.15 src/server.c infoCommand, genRedisInfoString): the replication section,
 * the one lock clients read. A part of RedisNode (node.ts), which it reads through `InfoHost`.
 */
import type { RedisReply } from './reply.js';

/** INFO section names whose output holds the replication section (server.c genRedisInfoString). */
const INFO_WITH_REPLICATION = new Set(['default', 'all', 'everything', 'replication']);

/** What INFO reads of its node. */
interface InfoHost {
  readonly role: 'primary' | 'replica';
  readonly replicationOffset: number;
  connectedReplicas(): number;
}

/** Whether INFO's section names (args[1..]) include one that holds the replication section. */
function asksForReplication(args: readonly string[]): boolean {
  for (let i = 1; i < args.length; i++) if (INFO_WITH_REPLICATION.has(args[i].toLowerCase())) return true;
  return false;
}

/**
 * INFO [section]: the replication section, the one lock clients read (Redisson's
 * syncedEval takes `connected_slaves` from it for WAIT). Lines as Redis 7 prints them
 * (`server.c` genRedisInfoString), CRLF-separated; other sections are empty here.
 */
export function infoCommand(node: InfoHost, args: readonly string[]): RedisReply {
  // Redis 7 takes several section names (server.c genInfoSectionDict); none means "default".
  if (args.length > 1 && !asksForReplication(args)) return '';
  // One string, no array of lines (Redisson reads INFO replication before each WAIT).
  if (node.role === 'primary') {
    return `# Replication\r\nrole:master\r\nconnected_slaves:${node.connectedReplicas()}\r\nmaster_repl_offset:${node.replicationOffset}\r\n`;
  }
  return `# Replication\r\nrole:slave\r\nslave_repl_offset:${node.replicationOffset}\r\n`;
}
