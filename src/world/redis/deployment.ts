/**
 * The Redis side of a scenario: the nodes, who is primary, replication links and the
 * sentinel. Topologies: `standalone` (one node) and `sentinel` (a primary, N replicas,
 * asynchronous replication, automatic failover).
 */
import type { Distribution } from '../../engine/distribution.js';
import type { Simulation } from '../../engine/simulation.js';
import type { Micros } from '../../engine/time.js';
import { LocalClock } from '../clock.js';
import { RedisNode } from './node.js';
import { ReplicationLink } from './replication.js';
import { Sentinel } from './sentinel.js';

export type Topology = 'standalone' | 'sentinel';

export interface DeploymentParams {
  topology: Topology;
  replicas: number;
  replicationLag: Distribution;
  downAfterUs: Micros;
  promotionUs: Micros;
}

export type FailoverListener = (oldPrimary: RedisNode, newPrimary: RedisNode) => void;

export class RedisDeployment {
  readonly nodes: RedisNode[] = [];
  primary: RedisNode;
  readonly sentinel: Sentinel | null;
  private readonly failoverListeners: FailoverListener[] = [];

  constructor(
    private readonly sim: Simulation,
    private readonly params: DeploymentParams,
  ) {
    const count = params.topology === 'standalone' ? 1 : 1 + params.replicas;
    for (let i = 0; i < count; i++) {
      this.nodes.push(new RedisNode(`redis-${i}`, sim, new LocalClock(sim)));
    }
    this.primary = this.nodes[0];
    for (const replica of this.nodes.slice(1)) this.attachReplica(replica, this.primary);
    this.sentinel =
      params.topology === 'sentinel'
        ? new Sentinel(
            sim,
            { downAfterUs: params.downAfterUs, promotionUs: params.promotionUs },
            sim.random.fork('sentinel'),
            () => this.primary,
            () => this.nodes.filter((n) => n !== this.primary),
          )
        : null;
    if (this.sentinel) this.sentinel.onFailover = (o, n) => this.failover(o, n);
  }

  onFailover(listener: FailoverListener): void {
    this.failoverListeners.push(listener);
  }

  node(name: string): RedisNode | undefined {
    return this.nodes.find((n) => n.name === name);
  }

  /** kill -9 of a node; a crashed primary is noticed by the sentinel. */
  crash(node: RedisNode): void {
    for (const link of node.replicaLinks) link.dropBacklog();
    node.crash();
    if (node === this.primary) this.sentinel?.primaryUnreachable();
  }

  /** Restarts a crashed node. A former primary that was failed over comes back as a replica. */
  restart(node: RedisNode, keepData: boolean): void {
    node.restart(keepData);
    if (node !== this.primary && node.role === 'primary') {
      node.replicaLinks.length = 0;
      node.demoteToReplicaOf(this.primary);
      this.attachReplica(node, this.primary);
    }
  }

  /** Holds (or releases) the replication stream from the primary to every replica. */
  stallReplication(stalled: boolean): void {
    for (const link of this.primary.replicaLinks) link.setStalled(stalled);
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
    oldPrimary.replicaLinks.length = 0;
    newPrimary.promote();
    this.primary = newPrimary;
    for (const other of this.nodes) {
      if (other === newPrimary || other === oldPrimary || !other.up) continue;
      other.demoteToReplicaOf(newPrimary);
      this.attachReplica(other, newPrimary);
    }
    for (const listener of this.failoverListeners) listener(oldPrimary, newPrimary);
  }
}
