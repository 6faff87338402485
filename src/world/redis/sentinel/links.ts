/**
 * A Sentinel's connections to the Redis nodes it watches (redis 7.0.15 src/sentinel.c, struct
 * instanceLink): reconnected at most once a second (sentinelReconnectInstance), PING and INFO
 * sent when due (sentinelSendPeriodicCommands, sentinelSendPing), commands whose replies come
 * back with what the node reported, REPLICAOF. A part of a Sentinel (process.ts): it works on
 * the Sentinel's state (state.ts) and hands each INFO reply to `onInfo` (config.ts).
 */
import type { RandomStreams } from '../../../engine/random.js';
import { Link, type Delivery } from '../../network.js';
import { NodeConnection } from '../../node-connection.js';
import type { NodeSnapshot } from '../failover.js';
import type { RedisNode } from '../node.js';
import { SENTINEL_FAST_INFO_PERIOD_US, SENTINEL_INFO_PERIOD_US, SENTINEL_PING_PERIOD_US } from './periods.js';
import type { SentinelState } from './state.js';
import type { InstanceView } from './view.js';

/** The commands a Sentinel sends over and over, made once (a node only reads a command's arguments). */
const INFO_REPLICATION: readonly string[] = ['INFO', 'replication'];
const PING: readonly string[] = ['PING'];

/** The links of one Sentinel to the Redis nodes, and what it sends on them. */
export class NodeLinks {
  readonly id: string;
  private readonly connections = new Map<RedisNode, NodeConnection>();

  constructor(
    private readonly state: SentinelState,
    private readonly random: RandomStreams,
    /** What an INFO reply said, and what Sentinel does about it (config.ts refreshInstanceInfo). */
    private readonly onInfo: (view: InstanceView, s: NodeSnapshot) => void,
    /** Plans the next timer tick that has something to do (process.ts). */
    private readonly plan: () => void,
  ) {
    this.id = state.id;
  }

  /** @internal the node died: each open connection to it sees its FIN after the one-way latency. */
  connectionsClosedBy(node: RedisNode): void {
    for (const view of this.state.views()) {
      if (view.node !== node || !view.connected) continue;
      const generation = view.generation;
      this.connectionTo(node).back.send(() => {
        if (view.generation !== generation) return;
        view.close();
        this.plan();
      });
    }
  }

  /** At time 0 the Sentinel has been watching `view` for a while: connected, the last PING and INFO at a random point of their period. */
  steadyState(view: InstanceView): void {
    const { rng, world } = this.state;
    const pingAgoUs = rng.int(0, SENTINEL_PING_PERIOD_US - 1);
    view.connected = true;
    view.actPingUs = null;
    view.lastPingUs = -pingAgoUs;
    view.lastPongUs = -pingAgoUs;
    view.lastAvailUs = -pingAgoUs;
    view.infoRefreshUs = -rng.int(0, SENTINEL_INFO_PERIOD_US - 1);
    const s = world.control.snapshot(view.node);
    view.roleReportedUs = -SENTINEL_INFO_PERIOD_US;
    view.offset = s.offset;
    view.upstream = s.upstream;
    view.masterLinkUp = s.linkDownSinceUs === null;
    view.runId = s.runId;
  }

  private connectionTo(node: RedisNode): NodeConnection {
    let connection = this.connections.get(node);
    if (!connection) {
      const { sim, fabric, params } = this.state.world;
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
    return this.state.world.control.snapshot(node);
  }

  /** @internal the reply to an INFO (`snapshot`) or a PING (null) sent on the view's connection of `generation` arrived. */
  replied(view: InstanceView, generation: number, snapshot: NodeSnapshot | null): void {
    if (view.generation !== generation || !view.connected) return;
    if (snapshot !== null) this.onInfo(view, snapshot);
    else {
      // sentinelPingReplyCallback: PONG is a valid reply.
      const now = this.state.now;
      view.lastAvailUs = now;
      view.lastPongUs = now;
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
  replicaOf(view: InstanceView, primary: RedisNode | null): void {
    const { control } = this.state.world;
    const node = view.node;
    this.connectionTo(node).deliver(() => {
      if (primary === null) control.promote(node);
      else control.follow(node, primary);
      node.killClientConnections();
    });
  }

  /** sentinelReconnectInstance: at most once per second while disconnected. */
  reconnect(view: InstanceView, now: number): void {
    if (view.connected || now - view.lastReconnUs < SENTINEL_PING_PERIOD_US) return;
    view.lastReconnUs = now;
    // The connect is asynchronous (EINPROGRESS, even on loopback) and a PING is queued on it
    // "ASAP" before its outcome is known: a refused connect leaves that PING unanswered,
    // which is what starts the SDOWN clock of a crashed node. Across a partition the SYN is
    // lost and the connect hangs, which looks connected and silent.
    if (view.node.up || this.state.world.fabric.isCut('sentinel', view.node.name)) {
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
  sendPeriodicCommands(view: InstanceView, now: number): void {
    if (!view.connected) return;
    const m = this.state.master;
    const fast = view !== m && (m.odown || m.failoverState !== 'none' || view.linkDownMs !== 0);
    const infoPeriod = fast ? SENTINEL_FAST_INFO_PERIOD_US : SENTINEL_INFO_PERIOD_US;
    if (view.infoRefreshUs === null || now - view.infoRefreshUs > infoPeriod) {
      this.command(view, true);
    }
    const pingPeriod = Math.min(this.state.world.params.downAfterUs, SENTINEL_PING_PERIOD_US);
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
    private readonly sentinel: NodeLinks,
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
