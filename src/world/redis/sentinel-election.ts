/**
 * A Sentinel's part in the leader election (redis 7.0.15 src/sentinel.c sentinelVoteLeader,
 * sentinelGetLeader): one vote per epoch for the first who asks, and the count of the votes
 * the other Sentinels reported.
 */
import { SentinelLinks } from './sentinel-links.js';
import { MS, SENTINEL_MAX_DESYNC_MS } from './sentinel-periods.js';

export abstract class SentinelElection extends SentinelLinks {
  /**
   * sentinelVoteLeader: one vote per epoch, for the first who asks. A Sentinel that votes
   * for another pushes its own failover start time forward (2 x failover-timeout plus up
   * to SENTINEL_MAX_DESYNC), so it will not compete with the leader it chose.
   */
  protected voteLeader(reqEpoch: number, reqRunId: string): { leader: string | null; leaderEpoch: number } {
    const m = this.master;
    if (reqEpoch > this.currentEpoch) this.currentEpoch = reqEpoch;
    if (m.leaderEpoch < reqEpoch && this.currentEpoch <= reqEpoch) {
      m.leader = reqRunId;
      m.leaderEpoch = this.currentEpoch;
      if (reqRunId !== this.id) m.failoverStartUs = this.now + this.desyncUs();
    }
    return { leader: m.leader, leaderEpoch: m.leaderEpoch };
  }

  /**
   * sentinelGetLeader: the votes the peers reported for the current epoch, plus this
   * Sentinel's own (for the most voted, or itself). The winner needs a majority of all the
   * Sentinels and at least `quorum` votes.
   */
  protected getLeader(epoch: number): string | null {
    const votes = new Map<string, number>();
    const count = (id: string): number => {
      const n = (votes.get(id) ?? 0) + 1;
      votes.set(id, n);
      return n;
    };
    for (const p of this.peers) if (p.view.leader !== null && p.view.leaderEpoch === this.currentEpoch) count(p.view.leader);
    let winner: string | null = null;
    let max = 0;
    for (const [id, n] of votes) {
      if (n > max) {
        max = n;
        winner = id;
      }
    }
    const mine = this.voteLeader(epoch, winner ?? this.id);
    if (mine.leader !== null && mine.leaderEpoch === epoch) {
      const n = count(mine.leader);
      if (n > max) {
        max = n;
        winner = mine.leader;
      }
    }
    const voters = this.peers.length + 1;
    if (winner !== null && (max < Math.floor(voters / 2) + 1 || max < this.group.params.quorum)) winner = null;
    return winner;
  }

  protected desyncUs(): number {
    return this.rng.int(0, SENTINEL_MAX_DESYNC_MS - 1) * MS;
  }
}
