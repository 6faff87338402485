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
 *   point of view) sets its cluster state to fail and refuses keyed commands, reads too (CLUSTERDOWN); back in
 *   the majority it waits min(node-timeout, 5 s) before accepting them again.
 *
 * Simplified (docs/model/failover.md says so): a message sent across a partition is lost (no TCP
 * retransmission); a link whose PING has been unanswered for node-timeout / 2 is remade, and
 * a connect that cannot get through is retried at every cron and succeeds at the first one
 * after the partition heals (no SYN backoff). Not modelled: handshakes, slot migration,
 * manual failover, replica migration, pub/sub and module messages; a replica's rank uses the
 * true replication offsets.
 *
 * This file: the cluster's setup, clusterCron, and what a node does with a message. The
 * model is built in layers, one responsibility per file, each on the one before:
 * cluster-bus.ts (nodes, their views of each other, messages and gossip; the shared state),
 * cluster-detection.ts (PFAIL -> FAIL, the cluster state), cluster-election.ts (replica
 * failover). cluster-constants.ts holds cluster.h's periods and multipliers.
 */
import type { RandomStreams } from '../../engine/random.js';
import type { Simulation } from '../../engine/simulation.js';
import { formatMicros } from '../../engine/time.js';
import type { Fabric } from '../network.js';
import { SkippableTimer, timerGapUs, type RedisControl } from './failover.js';
import type { BusNode, ClusterParams, Message, PeerState } from './cluster-bus.js';
import { ClusterElection } from './cluster-election.js';
import { CLUSTER_CRON_PERIOD_MS, CLUSTER_RANDOM_PING_EVERY, CLUSTER_RANDOM_PING_SAMPLES, MS } from './cluster-constants.js';
import type { RedisNode } from './node.js';

export type { ClusterParams } from './cluster-bus.js';

/** Failure detection and failover of a Redis Cluster: setup, the cron, and what a node does with a message. */
export class ClusterFailover extends ClusterElection {
  constructor(sim: Simulation, params: ClusterParams, control: RedisControl, fabric: Fabric, random: RandomStreams) {
    super(sim, params, control, fabric, random);
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

  /** Whether this node's cluster state is fail (it answers CLUSTERDOWN to every keyed command, reads too: node.ts admissionError). */
  refusesWrites(node: RedisNode): boolean {
    const b = this.byRedis.get(node);
    return b !== undefined && b.isMaster && !b.clusterOk;
  }

  protected override receive(to: BusNode, m: Message): void {
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
}
