/**
 * The Redis side of a scenario: the nodes, who is primary, replication links and failover.
 * Topologies:
 * - `standalone`: one node;
 * - `sentinel`: a primary, N replicas, asynchronous replication, Sentinel failover
 *   (sentinel/: N Sentinel processes with their own timers and connections);
 * - `cluster`: the same shard as Redis Cluster runs it, one of `masters` shards: failover
 *   after the masters agree by gossip that the master failed (cluster/), and a
 *   master cut off from the majority refuses writes once it sees the others unreachable;
 * - `independent`: N masters that know nothing of each other (Redlock's deployment).
 * Optional `min-replicas-to-write` makes a primary refuse writes when fewer replicas are
 * in contact within `min-replicas-max-lag` (redis.conf `min-replicas-to-write`), counting
 * only replicas still in its list (redis 7.0.15 `replication.c` refreshGoodSlavesCount).
 * The deciders of failover (the sentinels, the majority of cluster masters) are the host
 * `DECIDERS` on the network fabric, so a partition can cut a primary off from them.
 *
 * `primary` is the node the deciders last promoted (the authoritative one, which the
 * checker follows); `announced` is the one the deciders tell clients about (Sentinel's
 * get-master-addr-by-name, which changes at +switch-master, after the promotion).
 */
import type { Distribution } from '../../engine/distribution.js';
import type { Simulation } from '../../engine/simulation.js';
import type { DeploymentSpec } from '../../spec/redis.js';
import { LocalClock } from '../clock.js';
import type { Fabric } from '../network.js';
import { ClusterFailover } from './cluster/index.js';
import type { NodeSnapshot, PhaseListener, RedisControl } from './failover.js';
import { RedisNode, type UserScriptRunner } from './node.js';
import { ReplicationLink, type ReplicationTiming } from './replication.js';
import { Sentinels } from './sentinel/index.js';

/** The network name of whoever decides failovers (sentinels, or the majority of masters). */
export const DECIDERS = 'sentinel';

/** The scenario's deployment (spec/redis.ts), and what the runner adds to it. */
export interface DeploymentParams extends DeploymentSpec {
  /** One-way latency between the deciders and the nodes. */
  deciderLatency: Distribution;
  /** Run the deciders' timers at every tick, even idle ones (tests: the outcome is the same). */
  everyDeciderTick?: boolean;
}

type FailoverListener = (oldPrimary: RedisNode, newPrimary: RedisNode) => void;

export class RedisDeployment implements RedisControl {
  readonly nodes: RedisNode[] = [];
  /** The authoritative primary: the last one promoted. */
  primary: RedisNode;
  readonly sentinels: Sentinels | null = null;
  readonly cluster: ClusterFailover | null = null;
  /** Independent masters, by index (topology `independent`); empty otherwise. */
  readonly masters: RedisNode[];
  private readonly failoverListeners: FailoverListener[] = [];
  private readonly switchListeners: FailoverListener[] = [];
  private readonly phaseListeners: PhaseListener[] = [];
  /** The primary whose outgoing stream a fault holds (a new primary's stream is not held). */
  private stalledPrimary: RedisNode | null = null;
  /** Which node each replica follows (REPLICAOF), and since when its link to it is down. */
  private readonly upstream = new Map<RedisNode, RedisNode>();
  private readonly linkDownSinceUs = new Map<RedisNode, number>();
  private readonly timing: ReplicationTiming;

  constructor(
    private readonly sim: Simulation,
    private readonly params: DeploymentParams,
    private readonly fabric: Fabric,
    /** What runs scripts other than the built-in ones on every node (RedisNode): a run of user code's Lua VM, or none. */
    userScripts: UserScriptRunner | null = null,
  ) {
    this.timing = { backlog: params.replicationBacklog, lag: params.replicationLag, replTimeoutUs: params.replTimeoutUs };
    const count =
      params.topology === 'standalone' ? 1 : params.topology === 'independent' ? params.masters : 1 + params.replicas;
    for (let i = 0; i < count; i++) {
      const node = new RedisNode(`redis-${i}`, sim, new LocalClock(sim), userScripts);
      node.keyspace.server = params.server ?? 'redis-7.0';
      node.writeRefusal = () => this.writeRefusal(node);
      this.nodes.push(node);
      this.newRunId(node);
    }
    this.primary = this.nodes[0];
    this.masters = params.topology === 'independent' ? [...this.nodes] : [];
    if (params.topology === 'sentinel' || params.topology === 'cluster') {
      for (const replica of this.nodes.slice(1)) this.attachReplica(replica, this.primary);
    }
    if (params.topology === 'sentinel') {
      const sentinels = new Sentinels(
        sim,
        {
          count: params.sentinels,
          quorum: params.quorum,
          downAfterUs: params.downAfterUs,
          failoverTimeoutUs: params.failoverTimeoutUs,
          latency: params.deciderLatency,
          everyTick: params.everyDeciderTick,
        },
        this,
        fabric,
        this.primary,
        sim.random,
      );
      sentinels.onPhase = (phase, target, detail) => this.phase(phase, target, detail);
      sentinels.onSwitch = (primary, previous) => {
        for (const listener of this.switchListeners) listener(previous, primary);
      };
      this.sentinels = sentinels;
    } else if (params.topology === 'cluster') {
      const cluster = new ClusterFailover(
        sim,
        {
          nodeTimeoutUs: params.nodeTimeoutUs,
          masters: params.masters,
          replicas: params.replicas,
          latency: params.deciderLatency,
          othersHost: DECIDERS,
          everyCron: params.everyDeciderTick,
        },
        this,
        fabric,
        sim.random,
      );
      cluster.onPhase = (phase, target, detail) => this.phase(phase, target, detail);
      this.cluster = cluster;
    }
  }

  /** Promotions: the authoritative primary changed. */
  onFailover(listener: FailoverListener): void {
    this.failoverListeners.push(listener);
  }

  /**
   * The deciders announce a new primary to clients: Sentinel's +switch-master; in a Cluster
   * the promoted replica's own announcement, at the promotion.
   */
  onSwitch(listener: FailoverListener): void {
    if (this.sentinels) this.switchListeners.push(listener);
    else this.failoverListeners.push(listener);
  }

  /** Steps of failure detection and failover (sdown, odown, elected-leader, switch-master, ...). */
  onPhase(listener: PhaseListener): void {
    this.phaseListeners.push(listener);
  }

  /** The primary the deciders tell clients about. */
  get announced(): RedisNode {
    return this.sentinels ? this.sentinels.announced : this.primary;
  }

  node(name: string): RedisNode | undefined {
    return this.nodes.find((n) => n.name === name);
  }

  /**
   * kill -9 of a node; the deciders see its connections close. A primary's changes still in
   * its output buffer die with it; a replica's connection closes.
   */
  crash(node: RedisNode): void {
    for (const link of node.replicaLinks) link.primaryDied();
    node.crash();
    this.sentinels?.nodeCrashed(node);
    this.cluster?.nodeCrashed(node);
    this.refreshLinks();
  }

  /**
   * Restarts a crashed node, with a new run id. A primary that restarts empty is copied by
   * its replicas (a full resync empties them). A former primary that was failed over comes
   * back believing it is a primary: Sentinel turns it into a replica once it sees it again
   * (+convert-to-slave); a Cluster node as soon as the bus tells it the newer configuration.
   * A replica comes back with a full resync from its primary, once that one is up: it has no
   * replication id to continue from (redis 7.0.15 `server.c` loadDataFromDisk restores one
   * only from an RDB file, which neither persistence mode here writes at kill -9).
   */
  restart(node: RedisNode, keepData: boolean): void {
    node.restart(keepData);
    this.newRunId(node);
    this.cluster?.changed();
    const upstream = this.upstream.get(node);
    if (node === this.primary) {
      node.replicationOffset = 0;
      for (const link of [...node.replicaLinks]) {
        if (link.detached || !link.replica.up) continue;
        if (link.closed) {
          this.resync(link.replica, node); // it had let go of the replica: a new connection
          continue;
        }
        link.replica.demoteToReplicaOf(node);
        link.resynced(0);
      }
    } else if (node.role === 'replica' && upstream?.up && this.params.topology !== 'independent') {
      this.resync(node, upstream);
    }
    this.refreshLinks();
  }

  /** DEBUG SLEEP on a node, or its end. A primary that sleeps past detection is failed over. */
  setPaused(node: RedisNode, paused: boolean): void {
    if (paused) {
      node.pause();
    } else {
      node.resume();
    }
    this.cluster?.changed();
    this.refreshLinks();
  }

  /** Holds (or releases) the replication stream from the primary to every replica. */
  stallReplication(stalled: boolean): void {
    this.stalledPrimary = stalled ? this.primary : null;
    this.refreshLinks();
  }

  /** The fabric changed (a partition started or healed). */
  networkChanged(): void {
    this.refreshLinks();
    this.cluster?.changed();
  }

  // ---------------------------------------------------------------- RedisControl

  snapshot(node: RedisNode): NodeSnapshot {
    const upstream = node.role === 'replica' ? (this.upstream.get(node) ?? null) : null;
    return {
      role: node.role,
      offset: node.replicationOffset,
      upstream,
      linkDownSinceUs: upstream ? (this.linkDownSinceUs.get(node) ?? null) : null,
      runId: node.runId,
    };
  }

  /** REPLICAOF NO ONE: the node keeps its data and serves writes; it is the authoritative primary. */
  promote(node: RedisNode): void {
    if (node.role === 'primary') return;
    const oldPrimary = this.primary;
    // Its former primary is not told (it is down, asleep or cut off): the link goes quiet.
    const from = this.upstream.get(node);
    if (from) for (const link of from.replicaLinks) if (link.replica === node) link.detach();
    this.upstream.delete(node);
    node.promote();
    this.primary = node;
    this.refreshLinks();
    for (const listener of this.failoverListeners) listener(oldPrimary, node);
  }

  /** REPLICAOF <primary>: the node drops its dataset and copies the primary's. */
  follow(node: RedisNode, primary: RedisNode): void {
    if (node === primary || (node.role === 'replica' && this.upstream.get(node) === primary)) return;
    const wasPrimary = node.role === 'primary';
    const from = this.upstream.get(node);
    if (from) for (const link of from.replicaLinks) if (link.replica === node) link.detach();
    this.resync(node, primary);
    this.refreshLinks();
    if (wasPrimary) this.phase('convert-to-slave', node, `${node.name} is told to follow ${primary.name} and drops what it accepted on its own`);
  }

  // ---------------------------------------------------------------- internals

  /**
   * The node follows `primary` from now on, with a full resync: it discards its dataset,
   * copies the primary's and stands at the primary's offset. A connection it had to this
   * primary before is gone (a new one replaces it in the primary's list).
   */
  private resync(node: RedisNode, primary: RedisNode): void {
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

  private phase(phase: string, target: RedisNode, detail: string): void {
    for (const listener of this.phaseListeners) listener(phase, target, detail);
  }

  private newRunId(node: RedisNode): void {
    const rng = this.sim.random.fork('redis/run-ids');
    let id = '';
    for (let i = 0; i < 5; i++) id += rng.int(0, 0xffffffff).toString(16).padStart(8, '0');
    node.runId = id;
  }

  /** Replication links a reject partition closed: they reconnect when it heals. */
  private readonly resetLinks = new Set<ReplicationLink>();

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
    const reconnecting: Array<[RedisNode, RedisNode]> = [];
    for (const node of this.nodes) {
      if (node.role !== 'primary') continue;
      for (const link of node.replicaLinks) {
        const replica = link.replica;
        const cut = this.fabric.isCut(node.name, replica.name);
        const gone = link.detached || !replica.up;
        link.setSilent(cut || gone || replica.paused);
        if (gone && !cut) link.closed = true;
        // A reject partition resets the replication connection: the primary lets go of the
        // replica at once; once healed, the replica connects again and is copied in full (the
        // model's resync stands for PSYNC; the outcome is the primary's data either way).
        if (cut && !link.detached && this.fabric.rejects(node.name, replica.name)) {
          link.closed = true;
          this.resetLinks.add(link);
        } else if (!cut && link.closed && this.resetLinks.has(link)) {
          this.resetLinks.delete(link);
          if (replica.up && node.up && this.upstream.get(replica) === node) reconnecting.push([replica, node]);
        }
        if (link.detached) continue;
        link.setHeld(node === this.stalledPrimary || cut || node.paused || !replica.up);
      }
    }
    for (const [replica, primary] of reconnecting) this.resync(replica, primary);
    this.refreshLinkDown();
  }

  /** A replica's link to its primary is down while the primary is dead or cut off from it. */
  private refreshLinkDown(): void {
    const now = this.sim.nowUs;
    for (const [replica, primary] of this.upstream) {
      const down = !primary.up || this.fabric.isCut(primary.name, replica.name);
      if (down && !this.linkDownSinceUs.has(replica)) this.linkDownSinceUs.set(replica, now);
      if (!down) this.linkDownSinceUs.delete(replica);
    }
  }

  private writeRefusal(node: RedisNode): string | null {
    if (this.cluster?.refusesWrites(node)) return 'CLUSTERDOWN The cluster is down';
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
    this.upstream.set(replica, primary);
    this.linkDownSinceUs.delete(replica);
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
}
