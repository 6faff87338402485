/**
 * A Sentinel's part in the leader election (redis 7.0.15 src/sentinel.c sentinelVoteLeader,
 * sentinelGetLeader): one vote per epoch for the first who asks, and the count of the votes
 * the other Sentinels reported. A part of a Sentinel (process.ts) on its state (state.ts).
 */
import { MS, SENTINEL_MAX_DESYNC_MS } from './periods.js';
import type { SentinelState } from './state.js';

export class Election {
  constructor(private readonly state: SentinelState) {}

  /**
   * sentinelVoteLeader: one vote per epoch, for the first who asks. A Sentinel that votes
   * for another pushes its own failover start time forward (2 x failover-timeout plus up
   * to SENTINEL_MAX_DESYNC), so it will not compete with the leader it chose.
   */
  voteLeader(reqEpoch: number, reqRunId: string): { leader: string | null; leaderEpoch: number } {
    const s = this.state;
    const m = s.master;
    if (reqEpoch > s.currentEpoch) s.currentEpoch = reqEpoch;
    if (m.leaderEpoch < reqEpoch && s.currentEpoch <= reqEpoch) {
      m.leader = reqRunId;
      m.leaderEpoch = s.currentEpoch;
      if (reqRunId !== s.id) m.failoverStartUs = s.now + this.desyncUs();
    }
    return { leader: m.leader, leaderEpoch: m.leaderEpoch };
  }

  /**
   * sentinelGetLeader: the votes the peers reported for the current epoch, plus this
   * Sentinel's own (for the most voted, or itself). The winner needs a majority of all the
   * Sentinels and at least `quorum` votes.
   */
  getLeader(epoch: number): string | null {
    const s = this.state;
    const votes = new Map<string, number>();
    const count = (id: string): number => {
      const n = (votes.get(id) ?? 0) + 1;
      votes.set(id, n);
      return n;
    };
    for (const p of s.peers) if (p.view.leader !== null && p.view.leaderEpoch === s.currentEpoch) count(p.view.leader);
    let winner: string | null = null;
    let max = 0;
    for (const [id, n] of votes) {
      if (n > max) {
        max = n;
        winner = id;
      }
    }
    const mine = this.voteLeader(epoch, winner ?? s.id);
    if (mine.leader !== null && mine.leaderEpoch === epoch) {
      const n = count(mine.leader);
      if (n > max) {
        max = n;
        winner = mine.leader;
      }
    }
    const voters = s.peers.length + 1;
    if (winner !== null && (max < Math.floor(voters / 2) + 1 || max < s.world.params.quorum)) winner = null;
    return winner;
  }

  /** SENTINEL_MAX_DESYNC: up to a second added to a failover's start time. */
  desyncUs(): number {
    return this.state.rng.int(0, SENTINEL_MAX_DESYNC_MS - 1) * MS;
  }
}
