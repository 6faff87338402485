/**
 * The Redis side of a scenario: the nodes, who is primary, replication links and failover.
 * Topologies:
 * - `standalone`: one node;
 * - `sentinel`: a primary, N replicas, asynchronous replication, Sentinel failover;
 * - `cluster`: the same shard as Redis Cluster runs it: failover after cluster-node-timeout,
 *   and a master cut off from the majority refuses writes once node-timeout has passed;
 * - `independent`: N masters that know nothing of each other (Redlock's deployment).
 * Optional `min-replicas-to-write` makes a primary refuse writes when fewer replicas are
 * in contact within `min-replicas-max-lag` (redis.conf; lock-semantics.md 5.3), counting
 * only replicas still in its list (redis 7.0.15 `replication.c` refreshGoodSlavesCount).
 * The deciders of failover (the sentinels, the majority of cluster masters) are the host
 * `DECIDERS` on the network fabric, so a partition can cut a primary off from them.
 */
import type { Distribution } from '../../engine/distribution.js';
import type { Simulation } from '../../engine/simulation.js';
import type { Micros } from '../../engine/time.js';
import { LocalClock } from '../clock.js';
import type { Fabric } from '../network.js';
import { RedisNode } from './node.js';
import { ReplicationLink, type ReplicationTiming } from './replication.js';
import { Sentinel } from './sentinel.js';

export type Topology = 'standalone' | 'sentinel' | 'cluster' | 'independent';
export const TOPOLOGIES: readonly Topology[] = ['standalone', 'sentinel', 'cluster', 'independent'];

/** The network name of whoever decides failovers (sentinels, or the majority of masters). */
export const DECIDERS = 'sentinel';

export interface DeploymentParams {
  topology: Topology;
  replicas: number;
  /** Number of independent masters (topology `independent`). */
  masters: number;
  /** Time a change waits in the primary's output buffer (lost if the primary dies). */
  replicationBacklog: Distribution;
  /** Network propagation of a change once written to the socket (delivered regardless). */
  replicationLag: Distribution;
  /** repl-timeout: a silent replica stays in the primary's list this long. */
  replTimeoutUs: Micros;
  downAfterUs: Micros;
  nodeTimeoutUs: Micros;
  promotionUs: Micros;
  /** min-replicas-to-write (0: off, the Redis default). */
  minReplicasToWrite: number;
  minReplicasMaxLagUs: Micros;
}

export type FailoverListener = (oldPrimary: RedisNode, newPrimary: RedisNode) => void;

export class RedisDeployment {
  readonly nodes: RedisNode[] = [];
  primary: RedisNode;
  readonly sentinel: Sentinel | null;
  /** Independent masters, by index (topology `independent`); empty otherwise. */
  readonly masters: RedisNode[];
  private readonly failoverListeners: FailoverListener[] = [];
  /** The primary whose outgoing stream a fault holds (a new primary's stream is not held). */
  private stalledPrimary: RedisNode | null = null;
  /** Cluster: since when each node has been cut off from the majority. */
  private readonly cutOffSinceUs = new Map<RedisNode, number>();

  private readonly timing: ReplicationTiming;

  constructor(
    private readonly sim: Simulation,
    private readonly params: DeploymentParams,
    private readonly fabric: Fabric,
  ) {
    this.timing = { backlog: params.replicationBacklog, lag: params.replicationLag, replTimeoutUs: params.replTimeoutUs };
    const count =
      params.topology === 'standalone' ? 1 : params.topology === 'independent' ? params.masters : 1 + params.replicas;
    for (let i = 0; i < count; i++) {
      const node = new RedisNode(`redis-${i}`, sim, new LocalClock(sim));
      node.writeRefusal = () => this.writeRefusal(node);
      this.nodes.push(node);
    }
    this.primary = this.nodes[0];
    this.masters = params.topology === 'independent' ? [...this.nodes] : [];
    if (params.topology === 'sentinel' || params.topology === 'cluster') {
      for (const replica of this.nodes.slice(1)) this.attachReplica(replica, this.primary);
      this.sentinel = new Sentinel(
        sim,
        {
          flavour: params.topology,
          detectUs: params.topology === 'sentinel' ? params.downAfterUs : params.nodeTimeoutUs,
          promotionUs: params.promotionUs,
        },
        sim.random.fork('sentinel'),
        () => this.primary,
        () => this.nodes.filter((n) => n !== this.primary),
        (n) => this.answers(n),
      );
      this.sentinel.onFailover = (o, n) => this.failover(o, n);
    } else this.sentinel = null;
  }

  onFailover(listener: FailoverListener): void {
    this.failoverListeners.push(listener);
  }

  node(name: string): RedisNode | undefined {
    return this.nodes.find((n) => n.name === name);
  }

  /** Whether the failover deciders get answers from this node. */
  answers(node: RedisNode): boolean {
    return node.up && !node.paused && !this.fabric.isCut(DECIDERS, node.name);
  }

  /**
   * kill -9 of a node; a crashed primary is noticed by the failover deciders. A primary's
   * changes still in its output buffer die with it; a replica's connection closes.
   */
  crash(node: RedisNode): void {
    for (const link of node.replicaLinks) link.primaryDied();
    node.crash();
    if (node === this.primary) this.sentinel?.primaryUnreachable();
    this.refreshLinks();
  }

  /**
   * Restarts a crashed node. A former primary that was failed over comes back as a replica;
   * a primary that restarts empty is copied by its replicas (a full resync empties them).
   * A replica comes back with a full resync from the primary, once there is one: it has no
   * replication id to continue from (redis 7.0.15 `server.c` loadDataFromDisk restores one
   * only from an RDB file, which neither persistence mode here writes at kill -9).
   */
  restart(node: RedisNode, keepData: boolean): void {
    node.restart(keepData);
    if (node !== this.primary && node.role === 'primary' && this.params.topology !== 'independent') {
      this.demote(node);
    } else if (node === this.primary) {
      node.replicationOffset = 0;
      for (const link of [...node.replicaLinks]) {
        if (link.detached || !link.replica.up) continue;
        if (link.closed) {
          this.demote(link.replica); // it had let go of the replica: a new connection
          continue;
        }
        link.replica.demoteToReplicaOf(node);
        link.resynced(0);
      }
    } else if (node.role === 'replica' && this.primary.up && this.params.topology !== 'independent') {
      this.demote(node);
    }
    this.refreshLinks();
  }

  /** DEBUG SLEEP on a node, or its end. A primary that sleeps past detection is failed over. */
  setPaused(node: RedisNode, paused: boolean): void {
    if (paused) {
      node.pause();
      if (node === this.primary) this.sentinel?.primaryUnreachable();
    } else {
      node.resume();
      this.reconcile();
    }
    this.refreshLinks();
  }

  /** Holds (or releases) the replication stream from the primary to every replica. */
  stallReplication(stalled: boolean): void {
    this.stalledPrimary = stalled ? this.primary : null;
    this.refreshLinks();
  }

  /** The fabric changed (a partition started or healed). */
  networkChanged(): void {
    const now = this.sim.nowUs;
    for (const node of this.nodes) {
      const cut = this.fabric.isCut(DECIDERS, node.name);
      if (cut && !this.cutOffSinceUs.has(node)) this.cutOffSinceUs.set(node, now);
      if (!cut) this.cutOffSinceUs.delete(node);
    }
    if (!this.answers(this.primary)) this.sentinel?.primaryUnreachable();
    this.reconcile();
    this.refreshLinks();
  }

  /**
   * A node that still believes it is primary after a failover is told to follow the new
   * one as soon as the deciders can reach it again; it discards what it accepted meanwhile.
   */
  private reconcile(): void {
    if (this.params.topology === 'independent') return;
    for (const node of this.nodes) {
      if (node !== this.primary && node.role === 'primary' && this.answers(node)) this.demote(node);
    }
  }

  /**
   * The node follows the current primary from now on, with a full resync: it discards its
   * dataset, copies the primary's and stands at the primary's offset. A connection it had to
   * this primary before is gone (a new one replaces it in the primary's list).
   */
  private demote(node: RedisNode): void {
    const primary = this.primary;
    node.replicaLinks.length = 0;
    node.demoteToReplicaOf(primary);
    node.replicationOffset = primary.replicationOffset;
    const stale = primary.replicaLinks.filter((l) => l.replica === node);
    for (const link of stale) {
      link.detach();
      primary.replicaLinks.splice(primary.replicaLinks.indexOf(link), 1);
    }
    this.attachReplica(node, primary).ackedOffset = primary.replicationOffset;
  }

  /**
   * What every link does now. The stream stays in the primary's output buffer while a fault
   * stalls it, the primary sleeps, the path is cut or the replica is dead; a sleeping
   * replica still receives it in its socket buffer and applies it when it wakes. The primary
   * stops hearing from a replica that is cut off, asleep, dead or gone to another primary,
   * and sees its connection close (the replica leaves the list at once) when the replica
   * died (the kernel closes a killed process's sockets) or left (redis 7.0.15 `replication.c`
   * replicationSetMaster frees the old master's connection) and the path between them works
   * (`networking.c` readQueryFromClient: "Client closed connection"); otherwise only
   * repl-timeout removes it.
   */
  private refreshLinks(): void {
    for (const node of this.nodes) {
      if (node.role !== 'primary') continue;
      for (const link of node.replicaLinks) {
        const replica = link.replica;
        const cut = this.fabric.isCut(node.name, replica.name);
        const gone = link.detached || !replica.up;
        link.setSilent(cut || gone || replica.paused);
        if (gone && !cut) link.closed = true;
        if (link.detached) continue;
        link.setHeld(node === this.stalledPrimary || cut || node.paused || !replica.up);
      }
    }
  }

  private writeRefusal(node: RedisNode): string | null {
    const now = this.sim.nowUs;
    if (this.params.topology === 'cluster') {
      const since = this.cutOffSinceUs.get(node);
      if (since !== undefined && now - since >= this.params.nodeTimeoutUs) {
        return 'CLUSTERDOWN The cluster is down';
      }
    }
    if (this.params.minReplicasToWrite > 0) {
      let good = 0;
      for (const link of node.replicaLinks) {
        if (link.listed && link.silenceUs <= this.params.minReplicasMaxLagUs) good++;
      }
      if (good < this.params.minReplicasToWrite) return 'NOREPLICAS Not enough good replicas to write.';
    }
    return null;
  }

  private attachReplica(replica: RedisNode, primary: RedisNode): ReplicationLink {
    replica.role = 'replica';
    replica.keyspace.deletesExpiredKeys = false;
    const link = new ReplicationLink(
      this.sim,
      primary,
      replica,
      this.timing,
      this.sim.random.fork(`replication/${primary.name}->${replica.name}`),
      this.sim.random.fork(`replication-backlog/${primary.name}->${replica.name}`),
    );
    primary.replicaLinks.push(link);
    return link;
  }

  private failover(oldPrimary: RedisNode, newPrimary: RedisNode): void {
    // The old primary is not told (it is down, asleep or cut off); its replicas go quiet.
    for (const link of oldPrimary.replicaLinks) link.detach();
    newPrimary.promote();
    this.primary = newPrimary;
    for (const other of this.nodes) {
      if (other === newPrimary || other === oldPrimary || !other.up) continue;
      this.demote(other);
    }
    this.refreshLinks();
    for (const listener of this.failoverListeners) listener(oldPrimary, newPrimary);
  }
}
