/**
 * A node of the cluster bus (redis 7.0.15 src/cluster.c, clusterNode and clusterLink): its own
 * flags, epochs and view of every other node, and the messages between nodes: PING and PONG
 * with their gossip section (clusterSendPing), FAIL, failover auth request and ack. The state
 * the parts of the Cluster model (state.ts and the parts that receive it) work on.
 */
import type { Distribution } from '../../../engine/distribution.js';
import type { RandomStream } from '../../../engine/random.js';
import type { Micros } from '../../../engine/time.js';
import type { SkippableTimer } from '../failover.js';
import type { RedisNode } from '../node.js';

export interface ClusterParams {
  nodeTimeoutUs: Micros;
  /** Masters in the cluster, the scenario's shard included. */
  masters: number;
  /** Replicas of each master (the scenario's shard has as many). */
  replicas: number;
  /** One-way latency on the cluster bus. */
  latency: Distribution;
  /** Run every cron, even idle ones (tests: the outcome is the same). */
  everyCron?: boolean;
  /** The fabric host of the other shards' nodes (the majority side). */
  othersHost: string;
}

export interface PeerState {
  /** A connection to the node exists (or is being made). */
  linkUp: boolean;
  /** A connect started in this cron that will fail (refused, or its SYN lost in a partition). */
  connecting: boolean;
  linkSinceUs: number;
  pingSentUs: number | null;
  pongReceivedUs: number;
  dataReceivedUs: number;
  pfail: boolean;
  fail: boolean;
  failTimeUs: number;
  /** Failure reports: master -> when it last reported this node PFAIL or FAIL. */
  reports: Map<BusNode, number>;
  /** voted_time: when this node last voted for a replica of that master. */
  votedTimeUs: number;
}

export interface GossipEntry {
  node: BusNode;
  failing: boolean;
  /** pong_received as gossiped: whole seconds. */
  pongUs: number;
}

export type Message =
  | { kind: 'ping' | 'pong'; from: BusNode; epoch: number; master: boolean; shard: number; configEpoch: number; gossip: GossipEntry[] }
  | { kind: 'fail'; from: BusNode; about: BusNode }
  | { kind: 'auth-request'; from: BusNode; epoch: number; of: BusNode }
  | { kind: 'auth-ack'; from: BusNode; epoch: number };

/** One node of the cluster bus: its own flags, epochs and view of every other node. */
export class BusNode {
  /** clusterCron's timer; `firstIteration` is where its counter stood at time 0. */
  timer!: SkippableTimer;
  firstIteration = 0;
  currentEpoch = 0;
  configEpoch = 0;
  lastVoteEpoch = 0;
  readonly peers = new Map<BusNode, PeerState>();
  /** The master this node follows, or null for a master. */
  masterOf: BusNode | null = null;
  clusterOk = true;
  amongMinorityUs = -Infinity;
  // clusterHandleSlaveFailover state
  authTimeUs = -Infinity;
  authRank = 0;
  authSent = false;
  authCount = 0;
  authEpoch = 0;

  constructor(
    readonly name: string,
    readonly redis: RedisNode | null,
    readonly host: string,
    readonly shard: number,
    readonly rng: RandomStream,
  ) {}

  /** Master as the other nodes see it (after a failover, before the old master hears of it, they differ). */
  get seenAsMaster(): boolean {
    return this.masterOf === null;
  }

  /** Master as the node itself believes. */
  get isMaster(): boolean {
    return this.redis ? this.redis.role === 'primary' : this.masterOf === null;
  }

  /** Our RedisNodes run the cron and the bus only while up and awake. */
  get serving(): boolean {
    return this.redis === null || (this.redis.up && !this.redis.paused);
  }
}
