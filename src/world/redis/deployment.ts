/**
 * The Redis side of a scenario: the nodes, who is primary, replication links and failover.
 * Topologies:
 * - `standalone`: one node;
 * - `sentinel`: a primary, N replicas, asynchronous replication, Sentinel failover;
 * - `cluster`: the same shard as Redis Cluster runs it: failover after cluster-node-timeout,
 *   and a master cut off from the majority refuses writes once node-timeout has passed;
 * - `independent`: N masters that know nothing of each other (Redlock's deployment).
 * Optional `min-replicas-to-write` makes a primary refuse writes when fewer replicas are
 * in contact within `min-replicas-max-lag` (redis.conf; lock-semantics.md 5.3).
 * The deciders of failover (the sentinels, the majority of cluster masters) are the host
 * `DECIDERS` on the network fabric, so a partition can cut a primary off from them.
 */
import type { Distribution } from '../../engine/distribution.js';
import type { Simulation } from '../../engine/simulation.js';
import type { Micros } from '../../engine/time.js';
import { LocalClock } from '../clock.js';
import type { Fabric } from '../network.js';
import { RedisNode } from './node.js';
import { ReplicationLink } from './replication.js';
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
  replicationLag: Distribution;
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

  constructor(
    private readonly sim: Simulation,
    private readonly params: DeploymentParams,
    private readonly fabric: Fabric,
  ) {
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

  /** kill -9 of a node; a crashed primary is noticed by the failover deciders. */
  crash(node: RedisNode): void {
    for (const link of node.replicaLinks) link.dropBacklog();
    node.crash();
    if (node === this.primary) this.sentinel?.primaryUnreachable();
  }

  /**
   * Restarts a crashed node. A former primary that was failed over comes back as a replica;
   * a primary that restarts empty is copied by its replicas (a full resync empties them).
   */
  restart(node: RedisNode, keepData: boolean): void {
    node.restart(keepData);
    if (node !== this.primary && node.role === 'primary' && this.params.topology !== 'independent') {
      this.demote(node);
    } else if (node === this.primary) {
      for (const link of node.replicaLinks) {
        if (link.detached) continue;
        link.replica.demoteToReplicaOf(node);
        link.ackedOffset = 0;
      }
      node.replicationOffset = 0;
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

  private demote(node: RedisNode): void {
    node.replicaLinks.length = 0;
    node.demoteToReplicaOf(this.primary);
    this.attachReplica(node, this.primary);
  }

  /** Replication flows unless a fault stalls it, a partition cuts it, or an end sleeps. */
  private refreshLinks(): void {
    for (const node of this.nodes) {
      if (node.role !== 'primary') continue;
      for (const link of node.replicaLinks) {
        if (link.detached) continue;
        const held =
          node === this.stalledPrimary ||
          this.fabric.isCut(node.name, link.replica.name) ||
          node.paused ||
          link.replica.paused ||
          !link.replica.up;
        link.setStalled(held);
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
        if (link.silentSinceUs === null || now - link.silentSinceUs <= this.params.minReplicasMaxLagUs) good++;
      }
      if (good < this.params.minReplicasToWrite) return 'NOREPLICAS Not enough good replicas to write.';
    }
    return null;
  }

  private attachReplica(replica: RedisNode, primary: RedisNode): void {
    replica.role = 'replica';
    replica.keyspace.deletesExpiredKeys = false;
    const link = new ReplicationLink(
      this.sim,
      primary,
      replica,
      this.params.replicationLag,
      this.sim.random.fork(`replication/${primary.name}->${replica.name}`),
    );
    primary.replicaLinks.push(link);
  }

  private failover(oldPrimary: RedisNode, newPrimary: RedisNode): void {
    // The old primary is not told (it is down, asleep or cut off); its replicas go quiet.
    for (const link of oldPrimary.replicaLinks) link.detach();
    newPrimary.promote();
    this.primary = newPrimary;
    for (const other of this.nodes) {
      if (other === newPrimary || other === oldPrimary || !other.up) continue;
      other.demoteToReplicaOf(newPrimary);
      this.attachReplica(other, newPrimary);
    }
    this.refreshLinks();
    for (const listener of this.failoverListeners) listener(oldPrimary, newPrimary);
  }
}
