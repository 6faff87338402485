/**
 * Failure detection on the cluster bus (redis 7.0.15 src/cluster.c): PFAIL -> FAIL once a
 * majority of the masters report the node failing (clusterNodeFailureReportsCount,
 * markNodeAsFailingIfNeeded), FAIL cleared (clearNodeFailureIfNeeded), and the node's own
 * cluster state, fail while it does not reach a majority (clusterUpdateState). A part of the
 * Cluster model (cluster.ts) on its state (state.ts); the FAIL broadcast goes on bus.ts.
 */
import type { ClusterBus } from './bus.js';
import type { BusNode, PeerState } from './bus-node.js';
import { CLUSTER_FAIL_REPORT_VALIDITY_MULT, CLUSTER_FAIL_UNDO_TIME_MULT, CLUSTER_MAX_REJOIN_DELAY_US, CLUSTER_MIN_REJOIN_DELAY_US } from './constants.js';
import type { ClusterState } from './state.js';

export class FailureDetection {
  constructor(
    private readonly state: ClusterState,
    private readonly bus: ClusterBus,
  ) {}

  /** clusterNodeFailureReportsCount: reports younger than 2 x node-timeout. */
  reportCount(b: BusNode, node: BusNode): number {
    const s = b.peers.get(node) as PeerState;
    const maxAge = this.state.params.nodeTimeoutUs * CLUSTER_FAIL_REPORT_VALIDITY_MULT;
    for (const [reporter, at] of s.reports) if (this.state.now - at > maxAge) s.reports.delete(reporter);
    return s.reports.size;
  }

  /** markNodeAsFailingIfNeeded: own PFAIL plus reports from a majority of the masters. */
  markFailingIfNeeded(b: BusNode, node: BusNode): void {
    const s = b.peers.get(node) as PeerState;
    if (!s.pfail || s.fail) return;
    const failures = this.reportCount(b, node) + (b.isMaster ? 1 : 0);
    if (failures < this.state.quorum) return;
    s.pfail = false;
    s.fail = true;
    s.failTimeUs = this.state.now;
    if (node.redis && node.seenAsMaster && this.state.nodes.every((o) => o === node || o === b || !(o.peers.get(node) as PeerState).fail)) {
      this.state.phase('fail', node, `${b.name} marks ${node.name} FAIL: ${failures} of ${this.state.params.masters} masters report it unreachable`);
    }
    for (const other of this.state.nodes) if (other !== b) this.bus.send(b, other, { kind: 'fail', from: b, about: node });
    this.updateState(b);
  }

  /** clearNodeFailureIfNeeded: a master that still has its slots gets its FAIL back after 2 x node-timeout. */
  clearFailureIfNeeded(b: BusNode, node: BusNode, s: PeerState): void {
    if (!node.seenAsMaster || this.state.now - s.failTimeUs > this.state.params.nodeTimeoutUs * CLUSTER_FAIL_UNDO_TIME_MULT) {
      s.fail = false;
      this.updateState(b);
    }
  }

  /**
   * clusterUpdateState: fail when a master with slots is FAIL or when fewer than a majority
   * of the masters are reachable; a master back in the majority waits the rejoin delay.
   */
  updateState(b: BusNode): void {
    const now = this.state.now;
    let ok = true;
    let reachable = b.isMaster ? 1 : 0;
    for (const [node, s] of b.peers) {
      if (!node.seenAsMaster) continue;
      if (s.fail) ok = false;
      if (!s.fail && !s.pfail) reachable++;
    }
    if (reachable < this.state.quorum) {
      ok = false;
      b.amongMinorityUs = now;
    }
    if (ok === b.clusterOk) return;
    const rejoinUs = Math.min(Math.max(this.state.params.nodeTimeoutUs, CLUSTER_MIN_REJOIN_DELAY_US), CLUSTER_MAX_REJOIN_DELAY_US);
    if (ok && b.isMaster && now - b.amongMinorityUs < rejoinUs) return;
    b.clusterOk = ok;
  }
}
