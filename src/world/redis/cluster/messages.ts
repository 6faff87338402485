/**
 * What a node of the cluster bus does with a message that reached it (redis 7.0.15
 * src/cluster.c clusterProcessPacket, clusterProcessGossipSection). A part of the Cluster model
 * (cluster.ts) on its state (state.ts): PONGs go back on bus.ts; failure reports and the
 * cluster state are detection.ts's, votes and configurations election.ts's.
 */
import type { ClusterBus } from './bus.js';
import type { BusNode, Message, PeerState } from './bus-node.js';
import { MS } from './constants.js';
import type { FailureDetection } from './detection.js';
import type { Election } from './election.js';
import type { ClusterState } from './state.js';

export class MessageHandler {
  constructor(
    private readonly state: ClusterState,
    private readonly bus: ClusterBus,
    private readonly detection: FailureDetection,
    private readonly election: Election,
  ) {}

  /** What `to` does with message `m` that reached it (clusterProcessPacket). */
  receive(to: BusNode, m: Message): void {
    const now = this.state.now;
    const s = to.peers.get(m.from) as PeerState;
    s.dataReceivedUs = now;
    if (m.kind === 'fail') {
      const about = m.about === to ? null : (to.peers.get(m.about) as PeerState);
      if (about && !about.fail) {
        about.fail = true;
        about.pfail = false;
        about.failTimeUs = now;
        this.detection.updateState(to);
      }
      return;
    }
    if (m.kind === 'auth-request') return this.election.voteIfNeeded(to, m.from, m.of, m.epoch);
    if (m.kind === 'auth-ack') {
      if (m.epoch >= to.authEpoch) {
        to.authCount++;
        this.election.handleSlaveFailover(to);
      }
      return;
    }
    if (m.epoch > to.currentEpoch) to.currentEpoch = m.epoch;
    if (m.kind === 'ping') this.bus.send(to, m.from, this.bus.header(to, 'pong'));
    else {
      s.pongReceivedUs = now;
      s.pingSentUs = null;
      if (s.pfail) {
        s.pfail = false;
        this.detection.updateState(to);
      } else if (s.fail) this.detection.clearFailureIfNeeded(to, m.from, s);
    }
    if (m.master && m.configEpoch > 0) this.election.learnConfig(to, m.from, m.configEpoch);
    // clusterProcessGossipSection: failure reports count only from masters.
    for (const g of m.gossip) {
      if (g.node === to) continue;
      const gs = to.peers.get(g.node) as PeerState;
      if (m.master) {
        if (g.failing) {
          gs.reports.set(m.from, now);
          this.detection.markFailingIfNeeded(to, g.node);
        } else gs.reports.delete(m.from);
      }
      if (!g.failing && gs.pingSentUs === null && this.detection.reportCount(to, g.node) === 0 && g.pongUs <= now + 500 * MS && g.pongUs > gs.pongReceivedUs) {
        gs.pongReceivedUs = g.pongUs;
      }
    }
  }
}
