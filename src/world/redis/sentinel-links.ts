/**
 * A Sentinel's connections (redis 7.0.15 src/sentinel.c, struct instanceLink): to the Redis
 * nodes it watches, reconnected at most once a second (sentinelReconnectInstance), PING and
 * INFO sent when due (sentinelSendPeriodicCommands, sentinelSendPing), commands whose replies
 * come back with what the node reported, REPLICAOF; and to the other Sentinels. The base of
 * the layers that make a Sentinel (links <- election <- detection <- failover <- config <-
 * SentinelProcess in sentinel.ts): the state they share is declared here.
 */
import type { RandomStream, RandomStreams } from '../../engine/random.js';
import { Link, type Delivery } from '../network.js';
import { NodeConnection } from '../node-connection.js';
import type { NodeSnapshot } from './failover.js';
import type { RedisNode } from './node.js';
import type { Sentinels, SentinelProcess } from './sentinel.js';
import { SENTINEL_FAST_INFO_PERIOD_US, SENTINEL_INFO_PERIOD_US, SENTINEL_PING_PERIOD_US } from './sentinel-periods.js';
import { InstanceView, type MasterView, type PeerView } from './sentinel-view.js';

/** The commands a Sentinel sends over and over, made once (a node only reads a command's arguments). */
const INFO_REPLICATION: readonly string[] = ['INFO', 'replication'];
const PING: readonly string[] = ['PING'];

export interface HelloContent {
  epoch: number;
  master: RedisNode;
  configEpoch: number;
}

export interface Peer {
  process: SentinelProcess;
  view: PeerView;
  out: Link;
  back: Link;
  /** What the last hello to this peer said; a repeat would change nothing there. */
  lastHello: HelloContent | null;
}

export abstract class SentinelLinks {
  master!: MasterView;
  currentEpoch = 0;
  protected peers: Peer[] = [];
  protected readonly rng: RandomStream;
  private readonly connections = new Map<RedisNode, NodeConnection>();

  constructor(
    readonly id: string,
    protected readonly group: Sentinels,
    protected readonly random: RandomStreams,
  ) {
    this.rng = random.fork(`sentinel/${id}`);
  }

  /** Plans the next timer tick that has something to do (sentinel.ts). */
  protected abstract plan(): void;

  /** What an INFO reply said, and what Sentinel does about it (sentinel-config.ts). */
  protected abstract refreshInstanceInfo(view: InstanceView, s: NodeSnapshot): void;

  /** @internal the node died: each open connection to it sees its FIN after the one-way latency. */
  connectionsClosedBy(node: RedisNode): void {
    for (const view of this.views()) {
      if (view.node !== node || !view.connected) continue;
      const generation = view.generation;
      this.connectionTo(node).back.send(() => {
        if (view.generation !== generation) return;
        view.close();
        this.plan();
      });
    }
  }

  protected views(): InstanceView[] {
    return [this.master, ...this.master.replicas];
  }

  protected steadyState(view: InstanceView): void {
    const pingAgoUs = this.rng.int(0, SENTINEL_PING_PERIOD_US - 1);
    view.connected = true;
    view.actPingUs = null;
    view.lastPingUs = -pingAgoUs;
    view.lastPongUs = -pingAgoUs;
    view.lastAvailUs = -pingAgoUs;
    view.infoRefreshUs = -this.rng.int(0, SENTINEL_INFO_PERIOD_US - 1);
    const s = this.group.control.snapshot(view.node);
    view.roleReportedUs = -SENTINEL_INFO_PERIOD_US;
    view.offset = s.offset;
    view.upstream = s.upstream;
    view.masterLinkUp = s.linkDownSinceUs === null;
    view.runId = s.runId;
  }

  protected get now(): number {
    return this.group.sim.nowUs;
  }

  // ---------------------------------------------------------------- links to Redis nodes

  private connectionTo(node: RedisNode): NodeConnection {
    let connection = this.connections.get(node);
    if (!connection) {
      const { sim, fabric, params } = this.group;
      connection = new NodeConnection(
        node,
        new Link('sentinel', node.name, sim, fabric, params.latency, this.random.fork(`sentinel/${this.id}->${node.name}`)),
        new Link(node.name, 'sentinel', sim, fabric, params.latency, this.random.fork(`sentinel/${node.name}->${this.id}`)),
      );
      this.connections.set(node, connection);
    }
    return connection;
  }

  /**
   * Sends INFO replication (`info`) or PING on the view's connection; the reply (an INFO's with
   * the node's state when it ran it) comes back on it, and is dropped if that connection closed
   * meanwhile. The legs of NodeConnection.command as one object (SentinelCommand).
   */
  private command(view: InstanceView, info: boolean): void {
    new SentinelCommand(this, view, view.generation, this.connectionTo(view.node), info).start();
  }

  /** @internal what the node reports when it answers an INFO (what the reply carries). */
  snapshotOf(node: RedisNode): NodeSnapshot {
    return this.group.control.snapshot(node);
  }

  /** @internal the reply to an INFO (`snapshot`) or a PING (null) sent on the view's connection of `generation` arrived. */
  replied(view: InstanceView, generation: number, snapshot: NodeSnapshot | null): void {
    if (view.generation !== generation || !view.connected) return;
    if (snapshot !== null) this.refreshInstanceInfo(view, snapshot);
    else {
      // sentinelPingReplyCallback: PONG is a valid reply.
      view.lastAvailUs = this.now;
      view.lastPongUs = this.now;
      view.actPingUs = null;
    }
    this.plan();
  }

  /**
   * REPLICAOF: run by the node in order with its other commands; the reply is not read. Sentinel
   * sends it in a transaction with CLIENT KILL TYPE normal and TYPE pubsub (redis 7.0.15
   * src/sentinel.c sentinelSendSlaveOf: "disconnect all clients ... in order to trigger the
   * ask-master-on-reconnection protocol"; redis.io docs "Sentinel client spec", "Sentinel failover
   * disconnection"), so clients connected to a demoted master reconnect and ask again.
   */
  protected replicaOf(view: InstanceView, primary: RedisNode | null): void {
    const { control } = this.group;
    const node = view.node;
    this.connectionTo(node).deliver(() => {
      if (primary === null) control.promote(node);
      else control.follow(node, primary);
      node.killClientConnections();
    });
  }

  /** sentinelReconnectInstance: at most once per second while disconnected. */
  protected reconnect(view: InstanceView, now: number): void {
    if (view.connected || now - view.lastReconnUs < SENTINEL_PING_PERIOD_US) return;
    view.lastReconnUs = now;
    // The connect is asynchronous (EINPROGRESS, even on loopback) and a PING is queued on it
    // "ASAP" before its outcome is known: a refused connect leaves that PING unanswered,
    // which is what starts the SDOWN clock of a crashed node. Across a partition the SYN is
    // lost and the connect hangs, which looks connected and silent.
    if (view.node.up || this.group.fabric.isCut('sentinel', view.node.name)) {
      view.connected = true;
      this.sendPing(view, now);
    } else {
      view.lastPingUs = now;
      if (view.actPingUs === null) view.actPingUs = now;
      view.generation++;
    }
  }

  /**
   * sentinelSendPeriodicCommands: INFO and PING when due. INFO goes when the last reply
   * (info_refresh, set when a reply arrives) is older than the period: 1 s for a replica of a
   * master in ODOWN or failover, or one that reported its master link down for a second or
   * more; 10 s otherwise. So the first 1 s INFO after ODOWN goes at the ODOWN tick only if the
   * last reply is over a second old then; else a second after that reply. Measured on 7.0.15
   * (100 kills, docs/model/failover.md): the switch 63 / 888.5 / 970 ms after the promotion.
   */
  protected sendPeriodicCommands(view: InstanceView, now: number): void {
    if (!view.connected) return;
    const m = this.master;
    const fast = view !== m && (m.odown || m.failoverState !== 'none' || view.linkDownMs !== 0);
    const infoPeriod = fast ? SENTINEL_FAST_INFO_PERIOD_US : SENTINEL_INFO_PERIOD_US;
    if (view.infoRefreshUs === null || now - view.infoRefreshUs > infoPeriod) {
      this.command(view, true);
    }
    const pingPeriod = Math.min(this.group.params.downAfterUs, SENTINEL_PING_PERIOD_US);
    if (now - view.lastPongUs > pingPeriod && now - view.lastPingUs > pingPeriod / 2) this.sendPing(view, now);
  }

  /** sentinelSendPing: act_ping_time stays at the oldest unanswered PING. */
  private sendPing(view: InstanceView, now: number): void {
    view.lastPingUs = now;
    if (view.actPingUs === null) view.actPingUs = now;
    this.command(view, false);
  }
}

/**
 * One INFO replication or PING of a Sentinel to a node, as one object for its round trip (as a
 * client's command is, world/command-trip.ts): the message out, the node's reply sink, the
 * message back; the same legs, sends and draws as NodeConnection.command, without a closure
 * per leg (a Sentinel sends a PING a second to each instance it watches).
 */
class SentinelCommand implements Delivery {
  /** false: on the way to the node; true: the reply on the way back. */
  private returning = false;
  /** What an INFO reply carries (null for a PING). */
  private snapshot: NodeSnapshot | null = null;

  constructor(
    private readonly sentinel: SentinelLinks,
    private readonly view: InstanceView,
    private readonly generation: number,
    private readonly connection: NodeConnection,
    private readonly info: boolean,
  ) {}

  start(): void {
    this.connection.out.send(this);
  }

  /** @internal the link delivered this leg. */
  arrive(): void {
    if (!this.returning) {
      this.view.node.execute(this.info ? INFO_REPLICATION : PING, this.sentinel.id, this);
      return;
    }
    this.sentinel.replied(this.view, this.generation, this.snapshot);
  }

  /** @internal the node answered; the reply travels back with what INFO reports. */
  nodeReplied(): void {
    this.returning = true;
    if (this.info) this.snapshot = this.sentinel.snapshotOf(this.view.node);
    this.connection.back.send(this);
  }
}
