/**
 * Asynchronous primary -> replica replication. The primary ships every key change as the
 * key's resulting state (effects replication; TTLs travel as absolute deadlines, as Redis 7
 * propagates PEXPIREAT / SET PXAT), in order: a change never overtakes an earlier one.
 *
 * The delay of a change has two parts, because they fare differently when the primary dies:
 * - `backlog`: time in the primary's process, in the replica's output buffer, before the
 *   change is written to the socket. Redis 7.0 appends the change to the replication buffer
 *   when the command runs and writes it to the replicas' sockets in beforeSleep
 *   (`replication.c` replicationFeedSlaves, `server.c` beforeSleep ->
 *   handleClientsWithPendingWritesUsingThreads). A SIGKILL loses the process's user-space
 *   buffers: whatever has not left is gone. A stall (the `primary-crash` fault's
 *   `replication-stalled-for`) is a backlog that does not drain.
 * - `lag`: propagation once on the wire. It is delivered even if the primary dies: the
 *   kernel closes a killed process's sockets and still sends what they hold before the FIN
 *   (Linux net/ipv4/tcp.c __tcp_close: "We FIN if the application ate all the data";
 *   socket(7): "When the socket is closed as part of exit(2), it always lingers in the
 *   background"). Measured on redis-server 7.0.15 on loopback: a SET sitting in the
 *   replica's socket buffer (the replica in DEBUG SLEEP, `ss` Recv-Q 56 bytes) when the
 *   primary was SIGKILLed was applied by the replica when it woke; a SET behind 59 MB still
 *   in the primary's output buffer (CLIENT LIST omem) was not, while the ~4 MB in the
 *   kernel's buffers arrived. A sleeping replica (DEBUG SLEEP: `debug.c` nanosleep blocks
 *   the event loop) reads what reached its socket when it wakes.
 *
 * What the primary believes about the replica (INFO replication `connected_slaves`, WAIT,
 * min-replicas-to-write) is kept here too: the replica stays in the primary's list until its
 * connection closes or `repl-timeout` passes without hearing from it (redis 7.0.15
 * `replication.c` replicationCron, "Disconnecting timedout replica"). A connected replica
 * acknowledges every second (replicationCron -> replicationSendAck), which the model takes
 * as continuous contact.
 */
import { sample, type Distribution } from '../../engine/distribution.js';
import type { RandomStream } from '../../engine/random.js';
import type { Simulation } from '../../engine/simulation.js';
import type { Micros } from '../../engine/time.js';
import type { Entry } from './keyspace.js';
import type { RedisNode } from './node.js';
import { Fifo } from '../fifo.js';

interface Pending {
  key: string;
  entry: Entry | undefined;
  offset: number;
  /** When it leaves the primary's output buffer for the socket (if the link is not held). */
  leaveAtUs: Micros;
  /** The primary's process and the connection it went out on (set when it is written to the socket). */
  primaryEpoch: number;
  syncEpoch: number;
}

export interface ReplicationTiming {
  /** Time in the primary's output buffer: lost with the primary. */
  backlog: Distribution;
  /** Propagation once written to the socket: delivered even if the primary dies. */
  lag: Distribution;
  /** repl-timeout: how long the primary keeps listing a replica it does not hear from. */
  replTimeoutUs: Micros;
}

export class ReplicationLink {
  ackedOffset = 0;
  /**
   * The stream does not leave the primary's output buffer: a stall, a sleeping primary, a
   * cut path. Changes pile up there and are lost if the primary dies meanwhile.
   */
  held = false;
  /**
   * Since when the primary has not heard from this replica (null: in contact). Replicas
   * acknowledge every second (REPLCONF ACK), so a connected replica's lag is taken as 0.
   */
  silentSinceUs: Micros | null = null;
  /** The primary has seen this replica's connection close (the replica died or left it); final. */
  closed = false;
  /**
   * The replica now follows someone else (it was promoted, or re-pointed by a failover)
   * but this primary may not have been told: nothing more is shipped or applied.
   */
  detached = false;
  /**
   * Changes still in the primary's output buffer, oldest first, from `head` on (an index
   * rather than a copy of the rest at every drain: dequeuing is O(1)).
   */
  private buffer: Pending[] = [];
  private head = 0;
  /**
   * The leave time of the latest drain scheduled. Leave times only grow, so changes that
   * leave at the same instant share that one drain. One drain per change with its own leave
   * time stays, each scheduled when its change is written: a single drain that schedules the
   * next would run after other events of the same instant that it runs before now (their
   * order decides which draws of `rng` a change's lag and an acknowledgement's get).
   */
  private drainAtUs = -1;
  private lastLeaveUs = 0;
  private lastDeliveryUs = 0;
  /** Bumped when the primary dies: acknowledgements addressed to the dead process are void. */
  private primaryEpoch = 0;
  /** Bumped by a full resync: what was on the wire before it came on the old connection. */
  private syncEpoch = 0;

  constructor(
    private readonly sim: Simulation,
    readonly primary: RedisNode,
    readonly replica: RedisNode,
    private readonly timing: ReplicationTiming,
    /** Draws of the network part (and the acknowledgements' way back). */
    private readonly rng: RandomStream,
    /** Draws of the time in the primary's buffer (a stream of its own: `rng` keeps its draws). */
    private readonly backlogRng: RandomStream,
  ) {}

  /** Whether the primary still lists this replica (INFO `connected_slaves`, WAIT, min-replicas). */
  get listed(): boolean {
    if (this.closed) return false;
    return this.silentSinceUs === null || this.sim.nowUs - this.silentSinceUs <= this.timing.replTimeoutUs;
  }

  /** Time since the primary last heard from the replica (refreshGoodSlavesCount's lag). */
  get silenceUs(): Micros {
    return this.silentSinceUs === null ? 0 : this.sim.nowUs - this.silentSinceUs;
  }

  /** Whether ship() takes changes: a replica the primary has let go of gets nothing more (it resyncs when it comes back). */
  get accepting(): boolean {
    return !this.detached && !this.closed;
  }

  ship(key: string, entry: Entry | undefined, offset: number): void {
    if (this.detached || this.closed) return;
    const now = this.sim.nowUs;
    const leaveAtUs = Math.max(this.lastLeaveUs, now + sample(this.timing.backlog, this.backlogRng));
    this.lastLeaveUs = leaveAtUs;
    const p: Pending = { key, entry, offset, leaveAtUs, primaryEpoch: 0, syncEpoch: 0 };
    if (leaveAtUs <= now && !this.held && this.head === this.buffer.length) {
      this.send(p);
      return;
    }
    this.buffer.push(p);
    if (leaveAtUs === this.drainAtUs) return;
    this.drainAtUs = leaveAtUs;
    this.sim.scheduleAt(leaveAtUs, this.drain);
  }

  /** Holds the stream in the primary's output buffer, or lets it flow again. */
  setHeld(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    if (!held) this.drain();
  }

  /** Whether the primary hears from the replica (a cut path or a sleeping replica: not). */
  setSilent(silent: boolean): void {
    if (!silent) this.silentSinceUs = null;
    else if (this.silentSinceUs === null) this.silentSinceUs = this.sim.nowUs;
  }

  /** The replica was taken away by a failover: nothing more is shipped to it. */
  detach(): void {
    this.detached = true;
    this.clear();
  }

  /**
   * The primary died (kill -9): what was due on the wire by now is sent, what is still in
   * its output buffer is gone, and acknowledgements on their way back find nobody.
   */
  primaryDied(): void {
    this.drain();
    this.clear();
    this.primaryEpoch++;
  }

  /**
   * The replica reconnected with a full resync (the caller copied the dataset): changes
   * still on the old connection arrived before it and are covered by the copy.
   */
  resynced(offset: number): void {
    this.clear();
    this.syncEpoch++;
    this.ackedOffset = offset;
  }

  /** Moves the changes whose buffer time is over onto the wire, in order. */
  private readonly drain = (): void => {
    if (this.held || this.detached || !this.primary.up) return;
    const now = this.sim.nowUs;
    const buffer = this.buffer;
    while (this.head < buffer.length && buffer[this.head].leaveAtUs <= now) this.send(buffer[this.head++]);
    if (this.head === buffer.length) this.clear();
    else if (this.head >= 1024 && this.head * 2 >= buffer.length) {
      // A stream that never empties drops its sent prefix now and then (amortised O(1)).
      this.buffer = buffer.slice(this.head);
      this.head = 0;
    }
  };

  private clear(): void {
    this.buffer = [];
    this.head = 0;
  }

  /**
   * Changes on the wire, in sending order. Their delivery times never
   * decrease (lastDeliveryUs) and the queue keeps same-time items in scheduling order, so each
   * queue entry of this link delivers the oldest change: one shared callback instead of a
   * closure per change (as network.ts Link does), in a queue that allocates nothing when steady (world/fifo.ts).
   */
  private readonly wire = new Fifo<Pending>();

  private send(p: Pending): void {
    const at = Math.max(this.lastDeliveryUs, this.sim.nowUs + sample(this.timing.lag, this.rng));
    this.lastDeliveryUs = at;
    p.primaryEpoch = this.primaryEpoch;
    p.syncEpoch = this.syncEpoch;
    this.wire.push(p);
    this.sim.scheduleAt(at, this.arrive);
  }

  /** The oldest change on the wire reaches the replica. */
  private readonly arrive = (): void => {
    const p = this.wire.shift();
    if (this.detached || !this.replica.up || p.syncEpoch !== this.syncEpoch) return;
    // A sleeping replica (DEBUG SLEEP) reads its socket when it wakes.
    if (this.replica.paused) this.replica.whenAwake(() => this.apply(p));
    else this.apply(p);
  };

  private apply(p: Pending): void {
    if (this.detached || this.replica.role !== 'replica' || !this.replica.up || p.syncEpoch !== this.syncEpoch) return;
    this.replica.applyReplicated(p.key, p.entry, p.offset);
    // The acknowledgement travels back over the same kind of path.
    const ackAt = this.sim.nowUs + sample(this.timing.lag, this.rng);
    this.sim.scheduleAt(ackAt, () => {
      if (p.primaryEpoch !== this.primaryEpoch || p.syncEpoch !== this.syncEpoch || !this.primary.up || this.primary.role !== 'primary') return;
      if (p.offset > this.ackedOffset) this.ackedOffset = p.offset;
      this.primary.onReplicaAck();
    });
  }
}
