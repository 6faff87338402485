/**
 * Replica failover on the cluster bus (redis 7.0.15 src/cluster.c): a replica of a FAIL
 * master waits its delay and asks the masters for votes (clusterHandleSlaveFailover,
 * clusterGetSlaveRank), masters vote (clusterSendFailoverAuthIfNeeded), the winner takes over
 * (clusterFailoverReplaceYourMaster) and the others learn the new configuration from it
 * (clusterUpdateSlotsConfigWith).
 */
import { type BusNode, type PeerState } from './cluster-bus.js';
import { ClusterFailureDetection } from './cluster-detection.js';
import {
  CLUSTER_ELECTION_FIXED_US,
  CLUSTER_ELECTION_RANDOM_MS,
  CLUSTER_ELECTION_RANK_US,
  CLUSTER_REPLICA_VALIDITY_FACTOR,
  MS,
  REPL_PING_REPLICA_PERIOD_US,
} from './cluster-constants.js';

export abstract class ClusterElection extends ClusterFailureDetection {
  /** clusterHandleSlaveFailover. */
  protected handleSlaveFailover(b: BusNode): void {
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
  protected voteIfNeeded(voter: BusNode, replica: BusNode, master: BusNode, epoch: number): void {
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
  protected learnConfig(to: BusNode, from: BusNode, configEpoch: number): void {
    if (from.shard !== 0 || to.shard !== 0 || to === from || !to.redis || !from.redis) return;
    if (configEpoch <= to.configEpoch) return;
    to.configEpoch = configEpoch;
    to.masterOf = from;
    const redis = to.redis;
    if (redis.role === 'primary' || this.control.snapshot(redis).upstream !== from.redis) this.control.follow(redis, from.redis);
    this.updateState(to);
  }
}
