/**
 * Redis Cluster failure detection and replica failover, node by node on the cluster bus
 * (redis 7.0.15 src/cluster.c; 7.2.4 times it the same, its one change here being a hidden
 * cluster-ping-interval that defaults to node-timeout / 2; 7.4 moved this code to
 * src/cluster_legacy.c). The
 * scenario's shard (redis-0 and its replicas) is one of `masters` shards; the other masters
 * and their replicas (as many as ours) only exist on the bus, on the deciders' side of the
 * network.
 *
 * - clusterCron runs every 100 ms (plus up to 1 ms, failover.ts timerGapUs) on every node
 *   (hz 10). Every 10th run a node PINGs, of 5
 *   nodes drawn at random, the one with the oldest PONG; and it PINGs any node whose last
 *   PONG is older than node-timeout / 2.
 * - PFAIL: a PING unanswered (and no other traffic from the node) for longer than
 *   node-timeout. The clock starts at the first PING sent after the node went silent, so
 *   PFAIL comes node-timeout plus the wait for that PING after the failure.
 * - Every PING and PONG carries gossip: max(3, nodes / 10) random nodes and every node its
 *   sender has in PFAIL, with the sender's flags and PONG time for it (in whole seconds).
 *   A report of PFAIL from a master counts for 2 x node-timeout.
 * - FAIL: a node that has the master in PFAIL itself and hears, by gossip, PFAIL reports
 *   from a majority of the masters (itself included if it is one) marks it FAIL and
 *   broadcasts it. This is the PFAIL -> FAIL gossip time.
 * - The master's replicas then wait 500 ms + random(0..500) + rank x 1000 ms (checked at
 *   their next cron), ask the masters for votes, and the first with a majority takes over;
 *   its PONG tells every node, the old master included when it hears it, to follow it.
 * - A master that no longer reaches a majority of masters (all in PFAIL or FAIL from its own
 *   point of view) sets its cluster state to fail and refuses writes (CLUSTERDOWN); back in
 *   the majority it waits min(node-timeout, 5 s) before accepting them again.
 *
 * Simplified (README says so): a message sent across a partition is lost (no TCP
 * retransmission); a link whose PING has been unanswered for node-timeout / 2 is remade, and
 * a connect that cannot get through is retried at every cron and succeeds at the first one
 * after the partition heals (no SYN backoff). Not modelled: handshakes, slot migration,
 * manual failover, replica migration, pub/sub and module messages; a replica's rank uses the
 * true replication offsets.
 */
import type { Distribution } from '../../engine/distribution.js';
import type { RandomStream, RandomStreams } from '../../engine/random.js';
import type { Simulation } from '../../engine/simulation.js';
import { formatMicros, type Micros } from '../../engine/time.js';
import { Link, type Fabric } from '../network.js';
import { NodeConnection } from '../node-connection.js';
import { SkippableTimer, timerGapUs, type PhaseListener, type RedisControl } from './failover.js';
import type { RedisNode } from './node.js';

const MS = 1000;
/** serverCron runs clusterCron every 100 ms (run_with_period(100), hz 10). */
const CLUSTER_CRON_PERIOD_MS = 100;
/** clusterCron pings a random node every 10 iterations. */
const CLUSTER_RANDOM_PING_EVERY = 10;
const CLUSTER_RANDOM_PING_SAMPLES = 5;
/** cluster.h CLUSTER_FAIL_REPORT_VALIDITY_MULT. */
const CLUSTER_FAIL_REPORT_VALIDITY_MULT = 2;
/** cluster.h CLUSTER_FAIL_UNDO_TIME_MULT. */
const CLUSTER_FAIL_UNDO_TIME_MULT = 2;
/** clusterHandleSlaveFailover: DELAY = 500 ms + random(0..500 ms) + REPLICA_RANK * 1000 ms. */
const CLUSTER_ELECTION_FIXED_US = 500 * MS;
const CLUSTER_ELECTION_RANDOM_MS = 500;
const CLUSTER_ELECTION_RANK_US = 1000 * MS;
/** cluster.h CLUSTER_MIN_REJOIN_DELAY / CLUSTER_MAX_REJOIN_DELAY. */
const CLUSTER_MIN_REJOIN_DELAY_US = 500 * MS;
const CLUSTER_MAX_REJOIN_DELAY_US = 5000 * MS;
/** cluster-replica-validity-factor default, and repl-ping-replica-period (10 s). */
const CLUSTER_REPLICA_VALIDITY_FACTOR = 10;
const REPL_PING_REPLICA_PERIOD_US = 10_000 * MS;

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

interface PeerState {
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

interface GossipEntry {
  node: BusNode;
  failing: boolean;
  /** pong_received as gossiped: whole seconds. */
  pongUs: number;
}

type Message =
  | { kind: 'ping' | 'pong'; from: BusNode; epoch: number; master: boolean; shard: number; configEpoch: number; gossip: GossipEntry[] }
  | { kind: 'fail'; from: BusNode; about: BusNode }
  | { kind: 'auth-request'; from: BusNode; epoch: number; of: BusNode }
  | { kind: 'auth-ack'; from: BusNode; epoch: number };

/** One node of the cluster bus: its own flags, epochs and view of every other node. */
class BusNode {
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

export class ClusterFailover {
  onPhase: PhaseListener | null = null;
  private readonly nodes: BusNode[] = [];
  private readonly byRedis = new Map<RedisNode, BusNode>();
  private readonly links = new Map<string, Link>();
  private readonly connections = new Map<string, NodeConnection>();
  private readonly quorum: number;

  constructor(
    private readonly sim: Simulation,
    private readonly params: ClusterParams,
    private readonly control: RedisControl,
    private readonly fabric: Fabric,
    private readonly random: RandomStreams,
  ) {
    // cluster->size is the number of masters serving slots; quorum = size / 2 + 1.
    this.quorum = Math.floor(params.masters / 2) + 1;
    const ours = control.nodes;
    const primary = this.bus(`${ours[0].name}`, ours[0], ours[0].name, 0);
    for (const r of ours.slice(1)) this.bus(r.name, r, r.name, 0).masterOf = primary;
    for (let s = 1; s < params.masters; s++) {
      const m = this.bus(`cluster-master-${s + 1}`, null, params.othersHost, s);
      for (let k = 1; k <= params.replicas; k++) this.bus(`cluster-replica-${s + 1}-${k}`, null, params.othersHost, s).masterOf = m;
    }
    // At time 0 the cluster has been running: every node heard from every other within the
    // last node-timeout / 2, and the crons (and their every-10th random PING) run at random
    // phases.
    for (const a of this.nodes) {
      for (const b of this.nodes) {
        if (a === b) continue;
        const pong = -a.rng.int(0, Math.floor(params.nodeTimeoutUs / 2));
        a.peers.set(b, {
          linkUp: true,
          connecting: false,
          linkSinceUs: -params.nodeTimeoutUs,
          pingSentUs: null,
          pongReceivedUs: pong,
          dataReceivedUs: pong,
          pfail: false,
          fail: false,
          failTimeUs: 0,
          reports: new Map(),
          votedTimeUs: -Infinity,
        });
      }
      a.firstIteration = a.rng.int(0, CLUSTER_RANDOM_PING_EVERY - 1);
      const timerRng = random.fork(`cluster/${a.name}/timer`);
      a.timer = new SkippableTimer(
        sim,
        timerRng.int(0, CLUSTER_CRON_PERIOD_MS * MS - 1),
        () => timerGapUs(CLUSTER_CRON_PERIOD_MS, timerRng),
        (index) => this.cron(a, a.firstIteration + index),
        () => this.nextDueUs(a),
        params.everyCron === true,
      );
    }
    for (const a of this.nodes) a.timer.plan();
  }

  /** A node slept, woke, restarted or the network changed: every node re-plans its cron. */
  changed(): void {
    for (const b of this.nodes) b.timer.plan();
  }

  /** kill -9 of one of our nodes: every connection to it closes. */
  nodeCrashed(node: RedisNode): void {
    const dead = this.byRedis.get(node);
    if (!dead) return;
    for (const b of this.nodes) if (b !== dead) (b.peers.get(dead) as PeerState).linkUp = false;
    for (const s of dead.peers.values()) s.linkUp = false;
    this.changed();
  }

  /** Whether this node's cluster state is fail (it answers CLUSTERDOWN). */
  refusesWrites(node: RedisNode): boolean {
    const b = this.byRedis.get(node);
    return b !== undefined && b.isMaster && !b.clusterOk;
  }

  private bus(name: string, redis: RedisNode | null, host: string, shard: number): BusNode {
    const b = new BusNode(name, redis, host, shard, this.random.fork(`cluster/${name}`));
    this.nodes.push(b);
    if (redis) this.byRedis.set(redis, b);
    return b;
  }

  private get now(): number {
    return this.sim.nowUs;
  }

  // ---------------------------------------------------------------- messages

  /** `to` handles the message when it arrives and is awake (never if it is dead). */
  private send(from: BusNode, to: BusNode, message: Message): void {
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

  private header(from: BusNode, kind: 'ping' | 'pong'): Message {
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
  private ping(from: BusNode, to: BusNode): void {
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

  private receive(to: BusNode, m: Message): void {
    const now = this.now;
    const s = to.peers.get(m.from) as PeerState;
    s.dataReceivedUs = now;
    if (m.kind === 'fail') {
      const about = m.about === to ? null : (to.peers.get(m.about) as PeerState);
      if (about && !about.fail) {
        about.fail = true;
        about.pfail = false;
        about.failTimeUs = now;
        this.updateState(to);
      }
      return;
    }
    if (m.kind === 'auth-request') return this.voteIfNeeded(to, m.from, m.of, m.epoch);
    if (m.kind === 'auth-ack') {
      if (m.epoch >= to.authEpoch) {
        to.authCount++;
        this.handleSlaveFailover(to);
      }
      return;
    }
    if (m.epoch > to.currentEpoch) to.currentEpoch = m.epoch;
    if (m.kind === 'ping') this.send(to, m.from, this.header(to, 'pong'));
    else {
      s.pongReceivedUs = now;
      s.pingSentUs = null;
      if (s.pfail) {
        s.pfail = false;
        this.updateState(to);
      } else if (s.fail) this.clearFailureIfNeeded(to, m.from, s);
    }
    if (m.master && m.configEpoch > 0) this.learnConfig(to, m.from, m.configEpoch);
    // clusterProcessGossipSection: failure reports count only from masters.
    for (const g of m.gossip) {
      if (g.node === to) continue;
      const gs = to.peers.get(g.node) as PeerState;
      if (m.master) {
        if (g.failing) {
          gs.reports.set(m.from, now);
          this.markFailingIfNeeded(to, g.node);
        } else gs.reports.delete(m.from);
      }
      if (!g.failing && gs.pingSentUs === null && this.reportCount(to, g.node) === 0 && g.pongUs <= now + 500 * MS && g.pongUs > gs.pongReceivedUs) {
        gs.pongReceivedUs = g.pongUs;
      }
    }
  }

  // ---------------------------------------------------------------- the cron

  /**
   * The earliest time a cron of this node would do something: its every-10th random PING, a
   * PING due by the node-timeout / 2 rule, a PFAIL, a link to remake or a connect that would
   * now succeed; every cron while its cluster state is fail or its master is FAIL.
   */
  private nextDueUs(b: BusNode): number {
    if (!b.serving) return Infinity;
    const now = this.now;
    if (!b.clusterOk || (b.masterOf && !b.isMaster && (b.peers.get(b.masterOf) as PeerState).fail)) return now;
    const nt = this.params.nodeTimeoutUs;
    let due = b.timer.firstRunWhere((i) => (b.firstIteration + i) % CLUSTER_RANDOM_PING_EVERY === 0);
    for (const [node, s] of b.peers) {
      if (!s.linkUp && this.reachable(b, node)) return now;
      if (s.pingSentUs === null) due = Math.min(due, s.pongReceivedUs + nt / 2 + 1);
      else {
        if (s.linkUp) due = Math.min(due, Math.max(s.linkSinceUs + nt, s.pingSentUs + nt / 2, s.dataReceivedUs + nt / 2) + 1);
        if (!s.pfail && !s.fail) due = Math.min(due, Math.max(s.pingSentUs, s.dataReceivedUs) + nt + 1);
      }
    }
    return due;
  }

  /** clusterCron, every 100 ms on every node that is up and awake. */
  private cron(b: BusNode, iteration: number): void {
    if (!b.serving) return;
    const now = this.now;
    const { nodeTimeoutUs } = this.params;
    // clusterNodeCronHandleReconnect: a missing link is connected again, asynchronously; a
    // PING is queued on it once connected (keeping an older unanswered ping_sent). A connect
    // that fails (a dead node) only fails after this cron, in which the link counts.
    for (const [node, s] of b.peers) {
      if (s.linkUp) continue;
      s.linkUp = true;
      s.linkSinceUs = now;
      if (this.reachable(b, node)) {
        const older = s.pingSentUs;
        this.ping(b, node);
        if (older !== null) s.pingSentUs = older;
      } else s.connecting = true;
    }
    if (iteration % CLUSTER_RANDOM_PING_EVERY === 0) {
      let oldest: BusNode | null = null;
      for (let j = 0; j < CLUSTER_RANDOM_PING_SAMPLES; j++) {
        const node = this.nodes[b.rng.int(0, this.nodes.length - 1)];
        if (node === b) continue;
        const s = b.peers.get(node) as PeerState;
        if (!s.linkUp || s.pingSentUs !== null) continue;
        if (oldest === null || (b.peers.get(oldest) as PeerState).pongReceivedUs > s.pongReceivedUs) oldest = node;
      }
      if (oldest) this.ping(b, oldest);
    }
    let update = false;
    for (const [node, s] of b.peers) {
      // A link with a PING unanswered for half the timeout, and no traffic, is closed and
      // made again (the new connection re-sends the PING).
      if (
        s.linkUp &&
        now - s.linkSinceUs > nodeTimeoutUs &&
        s.pingSentUs !== null &&
        now - s.pingSentUs > nodeTimeoutUs / 2 &&
        now - s.dataReceivedUs > nodeTimeoutUs / 2
      ) {
        s.linkUp = false;
      }
      if (s.linkUp && s.pingSentUs === null && now - s.pongReceivedUs > nodeTimeoutUs / 2) {
        this.ping(b, node);
        continue;
      }
      if (s.pingSentUs === null) continue;
      const delayUs = Math.min(now - s.pingSentUs, now - s.dataReceivedUs);
      if (delayUs > nodeTimeoutUs && !s.pfail && !s.fail) {
        s.pfail = true;
        update = true;
        if (b.isMaster && node.seenAsMaster && node.redis && this.countFlagged(node, (p) => p.pfail || p.fail) === 1) {
          this.phase('pfail', node, `${b.name} has had no answer from ${node.name} for over ${formatMicros(nodeTimeoutUs)} (PFAIL)`);
        }
      }
    }
    for (const s of b.peers.values()) {
      if (!s.connecting) continue;
      s.connecting = false;
      s.linkUp = false;
    }
    if (!b.isMaster) this.handleSlaveFailover(b);
    if (update || !b.clusterOk) this.updateState(b);
  }

  /** A connect from `a` to `b` would succeed now (a sleeping Redis still accepts connections). */
  private reachable(a: BusNode, b: BusNode): boolean {
    return (b.redis === null || b.redis.up) && !this.fabric.isCut(a.host, b.host);
  }

  private countFlagged(node: BusNode, test: (s: PeerState) => boolean): number {
    let n = 0;
    for (const b of this.nodes) if (b !== node && b.seenAsMaster && test(b.peers.get(node) as PeerState)) n++;
    return n;
  }

  // ---------------------------------------------------------------- PFAIL -> FAIL

  /** clusterNodeFailureReportsCount: reports younger than 2 x node-timeout. */
  private reportCount(b: BusNode, node: BusNode): number {
    const s = b.peers.get(node) as PeerState;
    const maxAge = this.params.nodeTimeoutUs * CLUSTER_FAIL_REPORT_VALIDITY_MULT;
    for (const [reporter, at] of s.reports) if (this.now - at > maxAge) s.reports.delete(reporter);
    return s.reports.size;
  }

  /** markNodeAsFailingIfNeeded: own PFAIL plus reports from a majority of the masters. */
  private markFailingIfNeeded(b: BusNode, node: BusNode): void {
    const s = b.peers.get(node) as PeerState;
    if (!s.pfail || s.fail) return;
    const failures = this.reportCount(b, node) + (b.isMaster ? 1 : 0);
    if (failures < this.quorum) return;
    s.pfail = false;
    s.fail = true;
    s.failTimeUs = this.now;
    if (node.redis && node.seenAsMaster && this.nodes.every((o) => o === node || o === b || !(o.peers.get(node) as PeerState).fail)) {
      this.phase('fail', node, `${b.name} marks ${node.name} FAIL: ${failures} of ${this.params.masters} masters report it unreachable`);
    }
    for (const other of this.nodes) if (other !== b) this.send(b, other, { kind: 'fail', from: b, about: node });
    this.updateState(b);
  }

  /** clearNodeFailureIfNeeded: a master that still has its slots gets its FAIL back after 2 x node-timeout. */
  private clearFailureIfNeeded(b: BusNode, node: BusNode, s: PeerState): void {
    if (!node.seenAsMaster || this.now - s.failTimeUs > this.params.nodeTimeoutUs * CLUSTER_FAIL_UNDO_TIME_MULT) {
      s.fail = false;
      this.updateState(b);
    }
  }

  // ---------------------------------------------------------------- replica failover

  /** clusterHandleSlaveFailover. */
  private handleSlaveFailover(b: BusNode): void {
    const master = b.masterOf;
    if (!master || !b.serving) return;
    const ms = b.peers.get(master) as PeerState;
    if (!ms.fail) return;
    const now = this.now;
    const { nodeTimeoutUs } = this.params;
    const authTimeoutUs = Math.max(nodeTimeoutUs * 2, 2000 * MS);
    const authRetryUs = authTimeoutUs * 2;
    // cluster-replica-validity-factor: a replica disconnected for too long does not try.
    if (b.redis) {
      const since = this.control.snapshot(b.redis).linkDownSinceUs;
      let dataAgeUs = since === null ? 0 : Math.floor((now - since) / 1e6) * 1e6;
      if (dataAgeUs > nodeTimeoutUs) dataAgeUs -= nodeTimeoutUs;
      if (dataAgeUs > REPL_PING_REPLICA_PERIOD_US + nodeTimeoutUs * CLUSTER_REPLICA_VALIDITY_FACTOR) return;
    }
    if (now - b.authTimeUs > authRetryUs) {
      b.authRank = this.rank(b);
      b.authTimeUs = now + CLUSTER_ELECTION_FIXED_US + b.rng.int(0, CLUSTER_ELECTION_RANDOM_MS - 1) * MS + b.authRank * CLUSTER_ELECTION_RANK_US;
      b.authCount = 0;
      b.authSent = false;
      return;
    }
    if (!b.authSent) {
      const rank = this.rank(b);
      if (rank > b.authRank) {
        b.authTimeUs += (rank - b.authRank) * CLUSTER_ELECTION_RANK_US;
        b.authRank = rank;
      }
    }
    if (now < b.authTimeUs || now - b.authTimeUs > authTimeoutUs) return;
    if (!b.authSent) {
      b.currentEpoch++;
      b.authEpoch = b.currentEpoch;
      b.authSent = true;
      for (const other of this.nodes) if (other !== b) this.send(b, other, { kind: 'auth-request', from: b, epoch: b.authEpoch, of: master });
      return;
    }
    if (b.authCount >= this.quorum) this.replaceMaster(b, master);
  }

  /** clusterGetSlaveRank: replicas of the same master with a larger replication offset. */
  private rank(b: BusNode): number {
    if (!b.redis) return 0;
    const mine = b.redis.replicationOffset;
    let rank = 0;
    for (const other of this.nodes) {
      if (other !== b && other.masterOf === b.masterOf && other.redis && other.redis.replicationOffset > mine) rank++;
    }
    return rank;
  }

  /** clusterSendFailoverAuthIfNeeded: one vote per epoch, one per failed master per 2 x node-timeout. */
  private voteIfNeeded(voter: BusNode, replica: BusNode, master: BusNode, epoch: number): void {
    if (epoch > voter.currentEpoch) voter.currentEpoch = epoch;
    if (!voter.isMaster) return;
    if (epoch < voter.currentEpoch || voter.lastVoteEpoch === voter.currentEpoch) return;
    const ms = voter.peers.get(master);
    if (!ms || !ms.fail) return;
    if (this.now - ms.votedTimeUs < this.params.nodeTimeoutUs * 2) return;
    voter.lastVoteEpoch = voter.currentEpoch;
    ms.votedTimeUs = this.now;
    this.send(voter, replica, { kind: 'auth-ack', from: voter, epoch: voter.currentEpoch });
  }

  /** clusterFailoverReplaceYourMaster: take the slots, tell everyone with a PONG. */
  private replaceMaster(b: BusNode, master: BusNode): void {
    b.masterOf = null;
    b.configEpoch = b.authEpoch;
    master.masterOf = b;
    for (const other of this.nodes) if (other.masterOf === master) other.masterOf = b;
    if (b.redis) this.control.promote(b.redis);
    this.updateState(b);
    for (const other of this.nodes) if (other !== b) this.send(b, other, this.header(b, 'pong'));
  }

  /**
   * A master of our shard with a newer configuration: our nodes that still follow (or are)
   * the old master replicate from it (clusterUpdateSlotsConfigWith).
   */
  private learnConfig(to: BusNode, from: BusNode, configEpoch: number): void {
    if (from.shard !== 0 || to.shard !== 0 || to === from || !to.redis || !from.redis) return;
    if (configEpoch <= to.configEpoch) return;
    to.configEpoch = configEpoch;
    to.masterOf = from;
    const redis = to.redis;
    if (redis.role === 'primary' || this.control.snapshot(redis).upstream !== from.redis) this.control.follow(redis, from.redis);
    this.updateState(to);
  }

  /**
   * clusterUpdateState: fail when a master with slots is FAIL or when fewer than a majority
   * of the masters are reachable; a master back in the majority waits the rejoin delay.
   */
  private updateState(b: BusNode): void {
    const now = this.now;
    let ok = true;
    let reachable = b.isMaster ? 1 : 0;
    for (const [node, s] of b.peers) {
      if (!node.seenAsMaster) continue;
      if (s.fail) ok = false;
      if (!s.fail && !s.pfail) reachable++;
    }
    if (reachable < this.quorum) {
      ok = false;
      b.amongMinorityUs = now;
    }
    if (ok === b.clusterOk) return;
    const rejoinUs = Math.min(Math.max(this.params.nodeTimeoutUs, CLUSTER_MIN_REJOIN_DELAY_US), CLUSTER_MAX_REJOIN_DELAY_US);
    if (ok && b.isMaster && now - b.amongMinorityUs < rejoinUs) return;
    b.clusterOk = ok;
  }

  private phase(phase: string, node: BusNode, detail: string): void {
    if (node.redis) this.onPhase?.(phase, node.redis, detail);
  }
}
