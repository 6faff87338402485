/**
 * What the failover deciders (the Sentinels, or the masters of a Redis Cluster) see of the
 * Redis nodes and what they may do to them, and what they report back. The deployment
 * implements `RedisControl`; the deciders never touch a node's role themselves.
 */
import type { RandomStream } from '../../engine/random.js';
import type { RedisNode } from './node.js';

/**
 * The gap between two runs of a Redis timer (serverCron, which runs sentinelTimer and
 * clusterCron) that returns `periodMs`: the next run is set from the end of this one
 * (redis 7.0.15 src/ae.c processTimeEvents: `te->when = now + retval * 1000`) and
 * epoll_wait's timeout is rounded up to a whole millisecond (src/ae_epoll.c aeApiPoll), so
 * each gap is the period plus up to a millisecond.
 */
export function timerGapUs(periodMs: number, rng: RandomStream): number {
  return periodMs * 1000 + rng.int(0, 999);
}

/** What `INFO replication` tells a decider about a node, read when the node runs the command. */
export interface NodeSnapshot {
  role: 'primary' | 'replica';
  /** master_repl_offset of a primary, slave_repl_offset of a replica. */
  offset: number;
  /** The node a replica follows (master_host / master_port); null for a primary. */
  upstream: RedisNode | null;
  /** Since when a replica's link to its primary has been down (null: up). */
  linkDownSinceUs: number | null;
  /** run_id: 40 hex characters, new at every start of the process. */
  runId: string;
}

export interface RedisControl {
  readonly nodes: readonly RedisNode[];
  snapshot(node: RedisNode): NodeSnapshot;
  /** REPLICAOF NO ONE ran on `node`: it is a primary from now on. */
  promote(node: RedisNode): void;
  /** REPLICAOF <primary> ran on `node`: it drops its data and copies `primary`. */
  follow(node: RedisNode, primary: RedisNode): void;
}

/** A step of failure detection or failover, for the history (`sdown`, `odown`, `pfail`, `fail`, ...). */
export type PhaseListener = (phase: string, target: RedisNode, detail: string) => void;
