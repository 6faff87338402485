/**
 * Automatic failover, reduced to the timings that decide lock safety. Two flavours share
 * the mechanism (defaults and rules: reference/lock-semantics.md sections 5.4 and 5.5):
 * - Sentinel: subjective down after `down-after` without a valid reply (the sentinel timer
 *   checks every 100 ms), then a failover start delayed by up to SENTINEL_MAX_DESYNC =
 *   1000 ms, then promotion;
 * - Cluster: the majority of masters fails a master after `cluster-node-timeout`, and its
 *   replica is elected after DELAY = 500 ms + random(0..500) ms (rank 0).
 * The replica promoted is the reachable one with the largest replication offset (then the
 * smallest name, standing in for the run id). A primary that answers again before it is
 * judged down is not failed over. "Down" means: crashed, asleep (DEBUG SLEEP) or cut off
 * from the deciders by a partition; the deciders live on the majority side.
 */
import type { RandomStream } from '../../engine/random.js';
import type { Simulation } from '../../engine/simulation.js';
import type { Micros } from '../../engine/time.js';
import type { RedisNode } from './node.js';

export type FailoverFlavour = 'sentinel' | 'cluster';

export interface FailoverParams {
  flavour: FailoverFlavour;
  /** down-after-milliseconds (Sentinel) or cluster-node-timeout (Cluster). */
  detectUs: Micros;
  /** Time from the failover decision to the replica answering as primary. */
  promotionUs: Micros;
}

export const SENTINEL_TIMER_PERIOD_US = 100_000;
export const SENTINEL_MAX_DESYNC_US = 1_000_000;
/** cluster-spec.md: DELAY = 500 ms + random(0..500 ms) + REPLICA_RANK * 1000 ms. */
export const CLUSTER_ELECTION_FIXED_US = 500_000;
export const CLUSTER_ELECTION_RANDOM_US = 500_000;

export class Sentinel {
  onFailover: ((oldPrimary: RedisNode, newPrimary: RedisNode) => void) | null = null;
  private watching = false;

  constructor(
    private readonly sim: Simulation,
    private readonly params: FailoverParams,
    private readonly rng: RandomStream,
    private readonly currentPrimary: () => RedisNode,
    private readonly replicasOf: () => RedisNode[],
    /** Whether the deciders can get an answer from this node right now. */
    private readonly answers: (node: RedisNode) => boolean,
  ) {}

  /** The primary stopped answering at this instant; start the detection clock. */
  primaryUnreachable(): void {
    if (this.watching) return;
    this.watching = true;
    const primary = this.currentPrimary();
    const phaseUs = this.params.flavour === 'sentinel' ? this.rng.int(0, SENTINEL_TIMER_PERIOD_US - 1) : 0;
    this.sim.schedule(this.params.detectUs + phaseUs, () => {
      this.watching = false;
      if (this.answers(primary) || this.currentPrimary() !== primary) return; // came back in time
      const delayUs =
        this.params.flavour === 'sentinel'
          ? this.rng.int(0, SENTINEL_MAX_DESYNC_US - 1)
          : CLUSTER_ELECTION_FIXED_US + this.rng.int(0, CLUSTER_ELECTION_RANDOM_US - 1);
      this.sim.schedule(delayUs + this.params.promotionUs, () => this.failover(primary));
    });
  }

  private failover(oldPrimary: RedisNode): void {
    if (this.answers(oldPrimary) || this.currentPrimary() !== oldPrimary) return;
    const candidates = this.replicasOf()
      .filter((r) => this.answers(r))
      .sort((a, b) => b.replicationOffset - a.replicationOffset || (a.name < b.name ? -1 : 1));
    const chosen = candidates[0];
    if (!chosen) return; // nothing to promote: the service stays down until the primary returns
    this.onFailover?.(oldPrimary, chosen);
  }
}
