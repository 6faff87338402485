/**
 * Asynchronous primary -> replica replication. The primary ships every key change as the
 * key's resulting state (effects replication; TTLs travel as absolute deadlines, as Redis 7
 * propagates PEXPIREAT / SET PXAT). Each change reaches the replica after a lag drawn per
 * change, in order. A stalled link keeps changes in the primary's output buffer; if the
 * primary dies they are lost, which is how an acknowledged lock goes missing on failover.
 */
import { sample, type Distribution } from '../../engine/distribution.js';
import type { RandomStream } from '../../engine/random.js';
import type { Simulation } from '../../engine/simulation.js';
import type { Entry } from './keyspace.js';
import type { RedisNode } from './node.js';

interface Pending {
  key: string;
  entry: Entry | undefined;
  offset: number;
}

export class ReplicationLink {
  ackedOffset = 0;
  stalled = false;
  /**
   * Since when the primary has not heard from this replica (null: in contact). Replicas
   * ping every second (REPLCONF ACK), so a connected replica's lag is taken as 0.
   */
  silentSinceUs: number | null = null;
  /**
   * The replica now follows someone else (it was promoted, or re-pointed by a failover)
   * but this primary has not been told: nothing more is shipped, and for
   * min-replicas-to-write the replica simply stays silent.
   */
  detached = false;
  private backlog: Pending[] = [];
  private lastDeliveryUs = 0;

  constructor(
    private readonly sim: Simulation,
    readonly primary: RedisNode,
    readonly replica: RedisNode,
    private readonly lag: Distribution,
    private readonly rng: RandomStream,
  ) {}

  ship(key: string, entry: Entry | undefined, offset: number): void {
    if (this.detached) return;
    if (this.stalled) {
      this.backlog.push({ key, entry, offset });
      return;
    }
    this.deliver({ key, entry, offset });
  }

  /** Stops delivery (the stream piles up in the primary's buffer) or resumes it. */
  setStalled(stalled: boolean): void {
    if (stalled === this.stalled) return;
    this.stalled = stalled;
    this.silentSinceUs = stalled ? this.sim.nowUs : null;
    if (!stalled) {
      const backlog = this.backlog;
      this.backlog = [];
      for (const p of backlog) this.deliver(p);
    }
  }

  /** The replica was taken away by a failover the primary does not know about. */
  detach(): void {
    this.setStalled(true);
    this.detached = true;
    this.backlog = [];
  }

  /** The primary died: what never left its buffer is gone. */
  dropBacklog(): void {
    this.backlog = [];
  }

  private deliver(p: Pending): void {
    const at = Math.max(this.lastDeliveryUs, this.sim.nowUs + sample(this.lag, this.rng));
    this.lastDeliveryUs = at;
    this.sim.scheduleAt(at, () => {
      if (this.replica.role !== 'replica' || !this.replica.up) return;
      this.replica.applyReplicated(p.key, p.entry, p.offset);
      // The acknowledgement travels back over the same kind of path.
      const ackAt = this.sim.nowUs + sample(this.lag, this.rng);
      this.sim.scheduleAt(ackAt, () => {
        if (!this.primary.up || this.primary.role !== 'primary') return;
        if (p.offset > this.ackedOffset) this.ackedOffset = p.offset;
        this.primary.onReplicaAck();
      });
    });
  }
}
