/**
 * A Sentinel's failure detection (redis 7.0.15 src/sentinel.c): SDOWN from its own PINGs
 * (sentinelCheckSubjectivelyDown), ODOWN from what the other Sentinels answer to
 * SENTINEL is-master-down-by-addr (sentinelCheckObjectivelyDown,
 * sentinelAskMasterStateToOtherSentinels), and its answers to them, votes included. A part
 * of a Sentinel (process.ts) on its state (state.ts); votes are election.ts's.
 */
import type { RedisNode } from '../node.js';
import type { Election } from './election.js';
import { SENTINEL_ASK_PERIOD_US, SENTINEL_INFO_PERIOD_US } from './periods.js';
import type { MasterDownReply, Peer, SentinelState } from './state.js';
import type { InstanceView, PeerView } from './view.js';

export class Detection {
  constructor(
    private readonly state: SentinelState,
    private readonly election: Election,
    /** Plans the next timer tick that has something to do (process.ts). */
    private readonly plan: () => void,
  ) {}

  /** sentinelCheckSubjectivelyDown. */
  checkSubjectivelyDown(view: InstanceView, now: number): void {
    const s = this.state;
    const { downAfterUs } = s.world.params;
    let elapsed = 0;
    if (view.actPingUs !== null) elapsed = now - view.actPingUs;
    else if (!view.connected) elapsed = now - view.lastAvailUs;
    const down =
      elapsed > downAfterUs ||
      // a master that reports itself a replica for long enough
      (view === s.master && view.roleReported === 'replica' && now - view.roleReportedUs > downAfterUs + 2 * SENTINEL_INFO_PERIOD_US);
    if (down && !view.sdown) {
      view.sdown = true;
      view.sdownSinceUs = now;
      if (view === s.master) s.world.sdown(s.id, view.node);
    } else if (!down && view.sdown) {
      view.sdown = false;
    }
  }

  /** sentinelCheckObjectivelyDown: this Sentinel plus the peers whose last reply said down. */
  checkObjectivelyDown(now: number): void {
    const s = this.state;
    const m = s.master;
    let agreeing = 0;
    let odown = false;
    if (m.sdown) {
      agreeing = 1 + s.peers.filter((p) => p.view.masterDown).length;
      odown = agreeing >= s.world.params.quorum;
    }
    if (odown && !m.odown) {
      m.odown = true;
      m.odownSinceUs = now;
      s.world.odown(s.id, m.node, agreeing);
    } else if (!odown && m.odown) {
      m.odown = false;
    }
  }

  /** sentinelAskMasterStateToOtherSentinels: while SDOWN, once per ASK_PERIOD unless forced. */
  askMasterStateToOtherSentinels(now: number, forced: boolean): void {
    const s = this.state;
    const m = s.master;
    for (const peer of s.peers) {
      const v = peer.view;
      if (now - v.lastMasterDownReplyUs > 5 * SENTINEL_ASK_PERIOD_US) {
        v.masterDown = false;
        v.leader = null;
      }
      if (!m.sdown) continue;
      if (!forced && now - v.lastMasterDownReplyUs < SENTINEL_ASK_PERIOD_US) continue;
      this.askPeer(peer, m.node, s.currentEpoch, m.failoverState !== 'none' ? s.id : '*');
    }
  }

  /**
   * SENTINEL is-master-down-by-addr to one peer, its reply back. A method of its own: the loop
   * above then captures nothing, where a closure made in it had every pass allocate a context
   * for its variables, asking or not (two passes per tick).
   */
  private askPeer(peer: Peer, node: RedisNode, epoch: number, runId: string): void {
    peer.out.send(() => {
      const reply = peer.process.isMasterDownByAddr(node, epoch, runId);
      peer.back.send(() => this.receiveIsMasterDownReply(peer.view, reply));
    });
  }

  /** @internal SENTINEL is-master-down-by-addr, answered by this Sentinel. */
  isMasterDownByAddr(node: RedisNode, reqEpoch: number, runId: string): MasterDownReply {
    const m = this.state.master;
    if (m.node !== node) return { isDown: false, leader: null, leaderEpoch: 0 };
    if (runId === '*') return { isDown: m.sdown, leader: null, leaderEpoch: 0 };
    const vote = this.election.voteLeader(reqEpoch, runId);
    this.plan();
    return { isDown: m.sdown, leader: vote.leader, leaderEpoch: vote.leaderEpoch };
  }

  /** sentinelReceiveIsMasterDownReply. */
  private receiveIsMasterDownReply(v: PeerView, reply: MasterDownReply): void {
    v.lastMasterDownReplyUs = this.state.now;
    v.masterDown = reply.isDown;
    if (reply.leader !== null) {
      v.leader = reply.leader;
      v.leaderEpoch = reply.leaderEpoch;
    }
    this.plan();
  }
}
