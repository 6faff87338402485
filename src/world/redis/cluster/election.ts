/**
 * Replica failover on the cluster bus (redis 7.0.15 src/cluster.c): a replica of a FAIL
 * master waits its delay and asks the masters for votes (clusterHandleSlaveFailover,
 * clusterGetSlaveRank), masters vote (clusterSendFailoverAuthIfNeeded), the winner takes over
 * (clusterFailoverReplaceYourMaster) and the others learn the new configuration from it
 * (clusterUpdateSlotsConfigWith). A part of the Cluster model (cluster.ts) on its state
 * (state.ts): requests, votes and PONGs go on bus.ts, the cluster state is detection.ts's.
 */
import type { ClusterBus } from './bus.js';
import type { BusNode, PeerState } from './bus-node.js';
import {
  CLUSTER_ELECTION_FIXED_US,
  CLUSTER_ELECTION_RANDOM_MS,
  CLUSTER_ELECTION_RANK_US,
  CLUSTER_REPLICA_VALIDITY_FACTOR,
  MS,
  REPL_PING_REPLICA_PERIOD_US,
} from './constants.js';
import type { FailureDetection } from './detection.js';
import type { ClusterState } from './state.js';

export class Election {
  constructor(
    private readonly state: ClusterState,
    private readonly bus: ClusterBus,
    private readonly detection: FailureDetection,
  ) {}

  /** clusterHandleSlaveFailover. */
  handleSlaveFailover(b: BusNode): void {
    const master = b.masterOf;
    if (!master || !b.serving) return;
    const ms = b.peers.get(master) as PeerState;
    if (!ms.fail) return;
    const now = this.state.now;
    const { nodeTimeoutUs } = this.state.params;
    const authTimeoutUs = Math.max(nodeTimeoutUs * 2, 2000 * MS);
    const authRetryUs = authTimeoutUs * 2;
    // cluster-replica-validity-factor: a replica disconnected for too long does not try.
    if (b.redis) {
      const since = this.state.control.snapshot(b.redis).linkDownSinceUs;
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
      for (const other of this.state.nodes) if (other !== b) this.bus.send(b, other, { kind: 'auth-request', from: b, epoch: b.authEpoch, of: master });
      return;
    }
    if (b.authCount >= this.state.quorum) this.replaceMaster(b, master);
  }

  /** clusterGetSlaveRank: replicas of the same master with a larger replication offset. */
  private rank(b: BusNode): number {
    if (!b.redis) return 0;
    const mine = b.redis.replicationOffset;
    let rank = 0;
    for (const other of this.state.nodes) {
      if (other !== b && other.masterOf === b.masterOf && other.redis && other.redis.replicationOffset > mine) rank++;
    }
    return rank;
  }

  /** clusterSendFailoverAuthIfNeeded: one vote per epoch, one per failed master per 2 x node-timeout. */
  voteIfNeeded(voter: BusNode, replica: BusNode, master: BusNode, epoch: number): void {
    if (epoch > voter.currentEpoch) voter.currentEpoch = epoch;
    if (!voter.isMaster) return;
    if (epoch < voter.currentEpoch || voter.lastVoteEpoch === voter.currentEpoch) return;
    const ms = voter.peers.get(master);
    if (!ms || !ms.fail) return;
    if (this.state.now - ms.votedTimeUs < this.state.params.nodeTimeoutUs * 2) return;
    voter.lastVoteEpoch = voter.currentEpoch;
    ms.votedTimeUs = this.state.now;
    this.bus.send(voter, replica, { kind: 'auth-ack', from: voter, epoch: voter.currentEpoch });
  }

  /** clusterFailoverReplaceYourMaster: take the slots, tell everyone with a PONG. */
  private replaceMaster(b: BusNode, master: BusNode): void {
    b.masterOf = null;
    b.configEpoch = b.authEpoch;
    master.masterOf = b;
    for (const other of this.state.nodes) if (other.masterOf === master) other.masterOf = b;
    if (b.redis) this.state.control.promote(b.redis);
    this.detection.updateState(b);
    for (const other of this.state.nodes) if (other !== b) this.bus.send(b, other, this.bus.header(b, 'pong'));
  }

  /**
   * A master of our shard with a newer configuration: our nodes that still follow (or are)
   * the old master replicate from it (clusterUpdateSlotsConfigWith).
   */
  learnConfig(to: BusNode, from: BusNode, configEpoch: number): void {
    if (from.shard !== 0 || to.shard !== 0 || to === from || !to.redis || !from.redis) return;
    if (configEpoch <= to.configEpoch) return;
    to.configEpoch = configEpoch;
    to.masterOf = from;
    const redis = to.redis;
    if (redis.role === 'primary' || this.state.control.snapshot(redis).upstream !== from.redis) this.state.control.follow(redis, from.redis);
    this.detection.updateState(to);
  }
}
