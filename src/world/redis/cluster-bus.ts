/**
 * The cluster bus (redis 7.0.15 src/cluster.c): its nodes, each with its flags, epochs and
 * view of every other node (clusterNode, clusterLink), and the messages between them: PING
 * and PONG with their gossip section (clusterSendPing), FAIL, failover auth request and ack.
 * The base of the layers of the Cluster model (bus <- failure detection <- election <-
 * ClusterFailover in cluster-failover.ts): the state they share is declared here.
 */
import type { Distribution } from '../../engine/distribution.js';
import type { RandomStream, RandomStreams } from '../../engine/random.js';
import type { Simulation } from '../../engine/simulation.js';
import type { Micros } from '../../engine/time.js';
import { Link, type Fabric } from '../network.js';
import { NodeConnection } from '../node-connection.js';
import type { PhaseListener, RedisControl, SkippableTimer } from './failover.js';
import type { RedisNode } from './node.js';

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

export abstract class ClusterBus {
  onPhase: PhaseListener | null = null;
  protected readonly nodes: BusNode[] = [];
  protected readonly byRedis = new Map<RedisNode, BusNode>();
  private readonly links = new Map<string, Link>();
  private readonly connections = new Map<string, NodeConnection>();
  protected readonly quorum: number;

  constructor(
    protected readonly sim: Simulation,
    protected readonly params: ClusterParams,
    protected readonly control: RedisControl,
    protected readonly fabric: Fabric,
    protected readonly random: RandomStreams,
  ) {
    // cluster->size is the number of masters serving slots; quorum = size / 2 + 1.
    this.quorum = Math.floor(params.masters / 2) + 1;
  }

  /** What a node does with a message that reached it (cluster-failover.ts). */
  protected abstract receive(to: BusNode, m: Message): void;

  protected bus(name: string, redis: RedisNode | null, host: string, shard: number): BusNode {
    const b = new BusNode(name, redis, host, shard, this.random.fork(`cluster/${name}`));
    this.nodes.push(b);
    if (redis) this.byRedis.set(redis, b);
    return b;
  }

  protected get now(): number {
    return this.sim.nowUs;
  }

  /** `to` handles the message when it arrives and is awake (never if it is dead). */
  protected send(from: BusNode, to: BusNode, message: Message): void {
    this.connection(from, to).deliver(() => {
      this.receive(to, message);
      to.timer.plan();
    });
  }

  /**
   * The bus connection `from` opened to `to`. What `to` sends back (a PONG, a vote) travels
   * on the way back of the same pair of hosts: the link `to` -> `from`, one per direction.
   */
  private connection(from: BusNode, to: BusNode): NodeConnection {
    const key = `${from.name}->${to.name}`;
    let connection = this.connections.get(key);
    if (!connection) {
      connection = new NodeConnection(to.redis, this.link(from, to), this.link(to, from));
      this.connections.set(key, connection);
    }
    return connection;
  }

  /** One direction between two bus nodes, with its own stream of draws. */
  private link(from: BusNode, to: BusNode): Link {
    const key = `${from.name}->${to.name}`;
    let link = this.links.get(key);
    if (!link) {
      link = new Link(from.host, to.host, this.sim, this.fabric, this.params.latency, this.random.fork(`cluster/${key}`));
      this.links.set(key, link);
    }
    return link;
  }

  protected header(from: BusNode, kind: 'ping' | 'pong'): Message {
    return {
      kind,
      from,
      epoch: from.currentEpoch,
      master: from.isMaster,
      shard: from.shard,
      configEpoch: from.configEpoch,
      gossip: this.gossip(from),
    };
  }

  /** clusterSendPing: a PING marks ping_sent; PONGs are replies. */
  protected ping(from: BusNode, to: BusNode): void {
    (from.peers.get(to) as PeerState).pingSentUs = this.now;
    this.send(from, to, this.header(from, 'ping'));
  }

  /**
   * The gossip section: `wanted` = max(3, nodes / 10) (at most nodes - 2) distinct random
   * nodes other than the sender and those it has in PFAIL, then every node in PFAIL.
   */
  private gossip(from: BusNode): GossipEntry[] {
    const n = this.nodes.length;
    const wanted = Math.min(Math.max(3, Math.floor(n / 10)), n - 2);
    const entries: GossipEntry[] = [];
    const chosen = new Set<BusNode>();
    const entry = (node: BusNode, s: PeerState): GossipEntry => ({ node, failing: s.pfail || s.fail, pongUs: Math.floor(s.pongReceivedUs / 1e6) * 1e6 });
    for (let tries = wanted * 3; tries > 0 && entries.length < wanted; tries--) {
      const node = this.nodes[from.rng.int(0, n - 1)];
      if (node === from || chosen.has(node)) continue;
      const s = from.peers.get(node) as PeerState;
      if (s.pfail) continue;
      chosen.add(node);
      entries.push(entry(node, s));
    }
    for (const [node, s] of from.peers) if (s.pfail) entries.push(entry(node, s));
    return entries;
  }

  protected countFlagged(node: BusNode, test: (s: PeerState) => boolean): number {
    let n = 0;
    for (const b of this.nodes) if (b !== node && b.seenAsMaster && test(b.peers.get(node) as PeerState)) n++;
    return n;
  }

  protected phase(phase: string, node: BusNode, detail: string): void {
    if (node.redis) this.onPhase?.(phase, node.redis, detail);
  }
}
