/**
 * A Sentinel's failover state machine (redis 7.0.15 src/sentinel.c
 * sentinelFailoverStateMachine), one state per tick: wait to be elected, select the replica,
 * REPLICAOF NO ONE, wait for its INFO to say master, point the other replicas at it, then
 * +switch-master; an attempt that fails is aborted and retried after 2 x failover-timeout.
 * A part of a Sentinel (process.ts) on its state (state.ts): the leader is election.ts's, the
 * REPLICAOFs go on links.ts's connections.
 */
import { formatMicros } from '../../../engine/time.js';
import type { RedisNode } from '../node.js';
import type { Election } from './election.js';
import type { NodeLinks } from './links.js';
import { MS, SENTINEL_ELECTION_TIMEOUT_US, SENTINEL_INFO_PERIOD_US, SENTINEL_PARALLEL_SYNCS, SENTINEL_PING_PERIOD_US } from './periods.js';
import type { SentinelState } from './state.js';
import { InstanceView, MasterView } from './view.js';

export class FailoverMachine {
  constructor(
    private readonly state: SentinelState,
    private readonly election: Election,
    private readonly links: NodeLinks,
  ) {}

  /** sentinelStartFailoverIfNeeded: ODOWN, none in progress, none started in 2 x failover-timeout. */
  startFailoverIfNeeded(now: number): boolean {
    const m = this.state.master;
    if (!m.odown || m.failoverState !== 'none') return false;
    if (now - m.failoverStartUs < 2 * this.state.world.params.failoverTimeoutUs) return false;
    // sentinelStartFailover: the desync only matters to the next attempt.
    m.failoverState = 'wait-start';
    m.failoverEpoch = ++this.state.currentEpoch;
    m.failoverStartUs = now + this.election.desyncUs();
    m.failoverStateChangeUs = now;
    return true;
  }

  /** sentinelFailoverStateMachine: one state per tick. */
  failoverStateMachine(now: number): void {
    switch (this.state.master.failoverState) {
      case 'wait-start':
        return this.failoverWaitStart(now);
      case 'select-slave':
        return this.failoverSelectSlave(now);
      case 'send-slaveof-noone':
        return this.failoverSendSlaveOfNoOne(now);
      case 'wait-promotion':
        return this.failoverWaitPromotion(now);
      case 'reconf-slaves':
        return this.failoverReconfNextSlave(now);
      default:
        return;
    }
  }

  private failoverWaitStart(now: number): void {
    const m = this.state.master;
    const { failoverTimeoutUs } = this.state.world.params;
    if (this.election.getLeader(m.failoverEpoch) !== this.state.id) {
      if (now - m.failoverStartUs > Math.min(SENTINEL_ELECTION_TIMEOUT_US, failoverTimeoutUs)) {
        this.abortFailover(now, 'not elected leader in time');
      }
      return;
    }
    this.state.world.phase('elected-leader', m.node, `${this.state.id} leads the failover of ${m.node.name} (epoch ${m.failoverEpoch})`);
    this.setFailoverState('select-slave', now);
  }

  private failoverSelectSlave(now: number): void {
    const m = this.state.master;
    const chosen = this.selectSlave(now);
    if (!chosen) {
      this.abortFailover(now, 'no replica eligible for promotion');
      return;
    }
    chosen.promoted = true;
    m.promotedReplica = chosen;
    this.setFailoverState('send-slaveof-noone', now);
  }

  /**
   * sentinelSelectSlave: replicas that are up (not SDOWN, connected, answered a PING in the
   * last 5 s), whose INFO is fresh (5 s while the master is SDOWN, 30 s otherwise) and whose
   * link to the master has not been down much longer than the master has; the best by
   * priority (all 100 here), then replication offset, then run id.
   */
  private selectSlave(now: number): InstanceView | null {
    const m = this.state.master;
    const { downAfterUs } = this.state.world.params;
    const maxMasterDownUs = (m.sdown && m.sdownSinceUs !== null ? now - m.sdownSinceUs : 0) + 10 * downAfterUs;
    const infoValidityUs = m.sdown ? 5 * SENTINEL_PING_PERIOD_US : 3 * SENTINEL_INFO_PERIOD_US;
    const candidates = m.replicas.filter(
      (r) =>
        !r.sdown &&
        r.connected &&
        now - r.lastAvailUs <= 5 * SENTINEL_PING_PERIOD_US &&
        r.infoRefreshUs !== null &&
        now - r.infoRefreshUs <= infoValidityUs &&
        r.linkDownMs * MS <= maxMasterDownUs,
    );
    candidates.sort((a, b) => b.offset - a.offset || compareRunIds(a.runId, b.runId));
    return candidates[0] ?? null;
  }

  private failoverSendSlaveOfNoOne(now: number): void {
    const m = this.state.master;
    const promoted = m.promotedReplica as InstanceView;
    if (!promoted.connected) {
      if (now - m.failoverStateChangeUs > this.state.world.params.failoverTimeoutUs) this.abortFailover(now, `${promoted.node.name} unreachable`);
      return;
    }
    this.links.replicaOf(promoted, null);
    this.setFailoverState('wait-promotion', now);
  }

  /** The promotion itself is noticed in the replica's INFO (refreshInstanceInfo). */
  private failoverWaitPromotion(now: number): void {
    const m = this.state.master;
    if (now - m.failoverStateChangeUs > this.state.world.params.failoverTimeoutUs) {
      this.abortFailover(now, `${(m.promotedReplica as InstanceView).node.name} did not turn into a primary`);
    }
  }

  /**
   * sentinelFailoverReconfNextSlave: REPLICAOF <promoted> to `parallel-syncs` replicas at a
   * time. Its -slave-reconf-sent-timeout (10 s) is checked inside the loop, which never gets
   * to a replica in RECONF_SENT while parallel-syncs is 1 (that replica is in progress and
   * stops the loop), so it is left out here.
   */
  private failoverReconfNextSlave(now: number): void {
    const m = this.state.master;
    const promoted = m.promotedReplica as InstanceView;
    let inProgress = m.replicas.filter((r) => r.reconf === 'sent' || r.reconf === 'inprog').length;
    for (const r of m.replicas) {
      if (inProgress >= SENTINEL_PARALLEL_SYNCS) break;
      if (r.promoted || r.reconf !== 'none' || !r.connected) continue;
      this.links.replicaOf(r, promoted.node);
      r.reconf = 'sent';
      inProgress++;
    }
    this.failoverDetectEnd(now);
  }

  /** sentinelFailoverDetectEnd: every reachable replica follows the promoted one, or failover-timeout. */
  private failoverDetectEnd(now: number): void {
    const m = this.state.master;
    const promoted = m.promotedReplica;
    if (!promoted || promoted.sdown) return;
    let notReconfigured = m.replicas.filter((r) => !r.promoted && r.reconf !== 'done' && !r.sdown).length;
    const timedOut = now - m.failoverStateChangeUs > this.state.world.params.failoverTimeoutUs;
    if (timedOut) notReconfigured = 0;
    if (notReconfigured === 0) this.setFailoverState('update-config', now);
    if (timedOut) {
      for (const r of m.replicas) {
        if (r.promoted || r.reconf !== 'none' || !r.connected) continue;
        this.links.replicaOf(r, promoted.node);
        r.reconf = 'sent';
      }
    }
  }

  setFailoverState(state: MasterView['failoverState'], now: number): void {
    this.state.master.failoverState = state;
    this.state.master.failoverStateChangeUs = now;
  }

  /** sentinelAbortFailover: the start time stays, so the next attempt waits 2 x failover-timeout. */
  private abortFailover(now: number, reason: string): void {
    const m = this.state.master;
    const retryUs = m.failoverStartUs + 2 * this.state.world.params.failoverTimeoutUs;
    this.state.world.phase('failover-abort', m.node, `${this.state.id} gives up the failover of ${m.node.name}: ${reason}; next attempt at ${formatMicros(retryUs)} at the earliest`);
    m.failoverState = 'none';
    m.failoverStateChangeUs = now;
    if (m.promotedReplica) m.promotedReplica.promoted = false;
    m.promotedReplica = null;
  }

  /** sentinelFailoverSwitchToPromotedSlave: +switch-master. */
  switchToPromotedReplica(now: number): void {
    const m = this.state.master;
    const ref = m.promotedReplica ?? m;
    this.state.world.switched(ref.node, m.configEpoch);
    this.resetMasterAndChangeAddress(ref.node, now);
  }

  /**
   * sentinelResetMasterAndChangeAddress: the master is now `node`; the old master and the
   * other replicas are watched as its replicas, on fresh connections.
   */
  resetMasterAndChangeAddress(node: RedisNode, now: number): void {
    const old = this.state.master;
    const replicaNodes = old.replicas.map((r) => r.node).filter((n) => n !== node);
    if (node !== old.node) replicaNodes.push(old.node);
    for (const view of this.state.views()) view.close();
    const m = new MasterView(node, now);
    m.configEpoch = old.configEpoch;
    m.lastReconnUs = old.lastReconnUs; // the link object survives the reset
    m.replicas = replicaNodes.map((n) => new InstanceView(n, 'replica', now));
    this.state.master = m;
  }
}

/** compareSlavesForPromotion's last key: the smaller run id (strcasecmp); an unknown one last. */
function compareRunIds(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
