/**
 * clusterCron (redis 7.0.15 src/cluster.c), every 100 ms on every node that is up and awake:
 * reconnects, the random PING, the node-timeout / 2 PINGs, PFAIL; and when a cron next has
 * anything to do (failover.ts SkippableTimer skips the others). A part of the Cluster model
 * (cluster.ts) on its state (state.ts): PINGs go on bus.ts, the cluster state is
 * detection.ts's, the replica failover election.ts's.
 */
import { formatMicros } from '../../../engine/time.js';
import type { ClusterBus } from './bus.js';
import type { BusNode, PeerState } from './bus-node.js';
import { CLUSTER_RANDOM_PING_EVERY, CLUSTER_RANDOM_PING_SAMPLES } from './constants.js';
import type { FailureDetection } from './detection.js';
import type { Election } from './election.js';
import type { ClusterState } from './state.js';

export class Cron {
  constructor(
    private readonly state: ClusterState,
    private readonly bus: ClusterBus,
    private readonly detection: FailureDetection,
    private readonly election: Election,
  ) {}

  /**
   * The earliest time a cron of this node would do something: its every-10th random PING, a
   * PING due by the node-timeout / 2 rule, a PFAIL, a link to remake or a connect that would
   * now succeed; every cron while its cluster state is fail or its master is FAIL.
   */
  nextDueUs(b: BusNode): number {
    if (!b.serving) return Infinity;
    const now = this.state.now;
    if (!b.clusterOk || (b.masterOf && !b.isMaster && (b.peers.get(b.masterOf) as PeerState).fail)) return now;
    const nt = this.state.params.nodeTimeoutUs;
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
  cron(b: BusNode, iteration: number): void {
    if (!b.serving) return;
    const now = this.state.now;
    const { nodeTimeoutUs } = this.state.params;
    // clusterNodeCronHandleReconnect: a missing link is connected again, asynchronously; a
    // PING is queued on it once connected (keeping an older unanswered ping_sent). A connect
    // that fails (a dead node) only fails after this cron, in which the link counts.
    for (const [node, s] of b.peers) {
      if (s.linkUp) continue;
      s.linkUp = true;
      s.linkSinceUs = now;
      if (this.reachable(b, node)) {
        const older = s.pingSentUs;
        this.bus.ping(b, node);
        if (older !== null) s.pingSentUs = older;
      } else s.connecting = true;
    }
    if (iteration % CLUSTER_RANDOM_PING_EVERY === 0) {
      let oldest: BusNode | null = null;
      for (let j = 0; j < CLUSTER_RANDOM_PING_SAMPLES; j++) {
        const node = this.state.nodes[b.rng.int(0, this.state.nodes.length - 1)];
        if (node === b) continue;
        const s = b.peers.get(node) as PeerState;
        if (!s.linkUp || s.pingSentUs !== null) continue;
        if (oldest === null || (b.peers.get(oldest) as PeerState).pongReceivedUs > s.pongReceivedUs) oldest = node;
      }
      if (oldest) this.bus.ping(b, oldest);
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
        this.bus.ping(b, node);
        continue;
      }
      if (s.pingSentUs === null) continue;
      const delayUs = Math.min(now - s.pingSentUs, now - s.dataReceivedUs);
      if (delayUs > nodeTimeoutUs && !s.pfail && !s.fail) {
        s.pfail = true;
        update = true;
        if (b.isMaster && node.seenAsMaster && node.redis && this.state.countFlagged(node, (p) => p.pfail || p.fail) === 1) {
          this.state.phase('pfail', node, `${b.name} has had no answer from ${node.name} for over ${formatMicros(nodeTimeoutUs)} (PFAIL)`);
        }
      }
    }
    for (const s of b.peers.values()) {
      if (!s.connecting) continue;
      s.connecting = false;
      s.linkUp = false;
    }
    if (!b.isMaster) this.election.handleSlaveFailover(b);
    if (update || !b.clusterOk) this.detection.updateState(b);
  }

  /** A connect from `a` to `b` would succeed now (a sleeping Redis still accepts connections). */
  private reachable(a: BusNode, b: BusNode): boolean {
    return (b.redis === null || b.redis.up) && !this.state.fabric.isCut(a.host, b.host);
  }
}
