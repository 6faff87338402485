/** A scenario's `redis:` block, resolved: the Redis servers the world builds (world/redis/deployment.ts). */
import type { Distribution } from '../engine/distribution.js';
import type { Micros } from '../engine/time.js';

export type Topology = 'standalone' | 'sentinel' | 'cluster' | 'independent';
export const TOPOLOGIES: readonly Topology[] = ['standalone', 'sentinel', 'cluster', 'independent'];

/**
 * Which server the nodes run (`redis.server`): it decides which commands exist and which SET
 * options parse (world/redis/server-versions.ts, with each project's source). redis-7.0 is
 * redis-server 7.0.15, the model's reference and what test/conformance measures.
 */
export const SERVER_VERSIONS = ['redis-7.0', 'redis-7.4', 'redis-8.4', 'valkey-8.1', 'valkey-9.0'] as const;
export type ServerVersion = (typeof SERVER_VERSIONS)[number];

/** The Redis servers: how many, how they replicate and who decides a failover, when. */
export interface DeploymentSpec {
  topology: Topology;
  /** The server every node runs (absent: redis-7.0, the model's reference). */
  server?: ServerVersion;
  replicas: number;
  /** Number of independent masters (topology `independent`), or of masters in the cluster. */
  masters: number;
  /** Time a change waits in the primary's output buffer: lost if the primary dies. */
  replicationBacklog: Distribution;
  /** Network propagation of a change once on the wire: delivered even if the primary dies. */
  replicationLag: Distribution;
  /** repl-timeout: how long a primary keeps listing a replica it does not hear from. */
  replTimeoutUs: Micros;
  downAfterUs: Micros;
  nodeTimeoutUs: Micros;
  /** Sentinel: how many Sentinels, how many must agree the primary is down, failover-timeout. */
  sentinels: number;
  quorum: number;
  failoverTimeoutUs: Micros;
  /** min-replicas-to-write (0: off, the Redis default). */
  minReplicasToWrite: number;
  minReplicasMaxLagUs: Micros;
}

/** The `redis:` block: the servers, and how the clients follow a failover. */
export interface RedisSpec extends DeploymentSpec {
  server: ServerVersion;
  /** Extra time a client takes to act on a switch the deciders announce (drawn per client). */
  rediscover: Distribution;
}
