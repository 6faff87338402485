/**
 * Sentinel failover, reduced to the timings that decide lock safety
 * (defaults and rules: reference/lock-semantics.md section 5.4):
 * - subjective down after `down-after` without a valid reply (the sentinel timer checks
 *   every 100 ms), then a failover start delayed by up to SENTINEL_MAX_DESYNC = 1000 ms;
 * - promotion of the reachable replica with the largest replication offset (then the
 *   smallest name, standing in for the run id);
 * - other replicas and, when it comes back, the old primary resync from the new one;
 * - clients learn the new primary `rediscover` later (+switch-master, reconnect).
 * A primary that is back up before it is judged down is not failed over.
 */
import type { RandomStream } from '../../engine/random.js';
import type { Simulation } from '../../engine/simulation.js';
import type { Micros } from '../../engine/time.js';
import type { RedisNode } from './node.js';

export interface SentinelParams {
  downAfterUs: Micros;
  /** Time from the failover start to the replica answering as primary. */
  promotionUs: Micros;
}

export const SENTINEL_TIMER_PERIOD_US = 100_000;
export const SENTINEL_MAX_DESYNC_US = 1_000_000;

export class Sentinel {
  onFailover: ((oldPrimary: RedisNode, newPrimary: RedisNode) => void) | null = null;
  private watching = false;

  constructor(
    private readonly sim: Simulation,
    private readonly params: SentinelParams,
    private readonly rng: RandomStream,
    private readonly currentPrimary: () => RedisNode,
    private readonly replicasOf: () => RedisNode[],
  ) {}

  /** The primary stopped answering at this instant; start the down-after clock. */
  primaryUnreachable(): void {
    if (this.watching) return;
    this.watching = true;
    const primary = this.currentPrimary();
    const checkPhaseUs = this.rng.int(0, SENTINEL_TIMER_PERIOD_US - 1);
    this.sim.schedule(this.params.downAfterUs + checkPhaseUs, () => {
      this.watching = false;
      if (primary.up || this.currentPrimary() !== primary) return; // came back in time
      const desyncUs = this.rng.int(0, SENTINEL_MAX_DESYNC_US - 1);
      this.sim.schedule(desyncUs + this.params.promotionUs, () => this.failover(primary));
    });
  }

  private failover(oldPrimary: RedisNode): void {
    if (oldPrimary.up || this.currentPrimary() !== oldPrimary) return;
    const candidates = this.replicasOf()
      .filter((r) => r.up)
      .sort((a, b) => b.replicationOffset - a.replicationOffset || (a.name < b.name ? -1 : 1));
    const chosen = candidates[0];
    if (!chosen) return; // nothing to promote: the service stays down until the primary returns
    this.onFailover?.(oldPrimary, chosen);
  }
}
