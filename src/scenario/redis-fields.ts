/**
 * Which `redis:` fields mean something for which topology. A field given for a topology it
 * does not apply to is refused (as a variant option given to another lock is), so a typo'd
 * topology or a copied block never goes silently unused; scenario/to-yaml.ts writes only the
 * fields that apply.
 */
import type { Topology } from '../spec/redis.js';

interface FieldRule {
  topologies: readonly Topology[];
  /** The message when the field is given elsewhere (default: "<field> applies to topology: ..."). */
  refusal?: string;
}

const replicated: readonly Topology[] = ['sentinel', 'cluster'];
const all: readonly Topology[] = ['standalone', 'sentinel', 'cluster', 'independent'];

const REDIS_FIELD_RULES: Readonly<Record<string, FieldRule>> = {
  topology: { topologies: all },
  server: { topologies: all },
  replicas: { topologies: replicated, refusal: 'a standalone Redis has no replicas; use topology: sentinel or cluster' },
  masters: { topologies: ['independent', 'cluster'], refusal: 'masters applies to topology: independent (Redlock) or cluster (masters in the cluster)' },
  'replication-backlog': { topologies: replicated },
  'replication-lag': { topologies: replicated },
  'repl-timeout': { topologies: replicated },
  'down-after': { topologies: ['sentinel'] },
  sentinels: { topologies: ['sentinel'] },
  quorum: { topologies: ['sentinel'] },
  'failover-timeout': { topologies: ['sentinel'] },
  'node-timeout': { topologies: ['cluster'] },
  rediscover: { topologies: replicated },
  // A primary with min-replicas-to-write and no replica refuses every write (redis.conf): it
  // means something on any server, if only that.
  'min-replicas-to-write': { topologies: all },
  'min-replicas-max-lag': { topologies: all },
  // Removed fields are refused by the schema with their own message.
  promotion: { topologies: all },
};

export function redisFieldApplies(field: string, topology: Topology): boolean {
  return REDIS_FIELD_RULES[field]?.topologies.includes(topology) ?? true;
}

/** Why `field` is refused for `topology`, or null when it applies. */
export function redisFieldRefusal(field: string, topology: Topology): string | null {
  if (redisFieldApplies(field, topology)) return null;
  const rule = REDIS_FIELD_RULES[field];
  return rule.refusal ?? `${field} applies to topology: ${rule.topologies.join(' or ')}, not ${topology}`;
}
