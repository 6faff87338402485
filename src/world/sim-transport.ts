/**
 * The simulated transport of a client process (transport.ts): its commands travel to the
 * model's nodes over the network fabric, as its client model says (client-model.ts).
 * - Pool clients (Jedis, Redisson): one connection per node carries them (world/network.ts
 *   Link each way: a command never overtakes an earlier one of the same process, a
 *   simplification of a pool's separate sockets); the interpreter holds the pool's slots.
 *   Jedis fails a command that reaches a dead server at once (its kernel answers RST); Redisson
 *   leaves it to the command timeout.
 * - ioredis: one ioredis connection per node (ioredis-connection.ts: TCP, reconnects, the
 *   offline queue, re-sends, a blocked WAIT holding up what follows), following the primary
 *   the client knows, and reconnecting at a switch when the model says so.
 * node-redlock's multiplexed commands (`each`) always go over ioredis connections with their
 * defaults, to fixed servers.
 */
import { Signal } from '../engine/signal.js';
import type { Distribution } from '../engine/distribution.js';
import type { Simulation } from '../engine/simulation.js';
import type { ClientModel } from './client-model.js';
import type { ProcessGroup } from '../engine/process.js';
import { CommandTrip } from './command-trip.js';
import type { EachOutcome, EachWait, RedisTarget } from './effects.js';
import { IoredisConnection, type IoredisBehaviour } from './ioredis-connection.js';
import { Link, type Fabric } from './network.js';
import { NodeConnection } from './node-connection.js';
import type { RedisNode } from './redis/node.js';
import type { RedisReply } from './redis/reply.js';
import type { TcpPath } from './tcp.js';
import { CONNECTION_CLOSED_REPLY, eachDecision, type RedisTransport, type TransportOwner } from './transport.js';

/** At most this many finished commands kept for refilling (more than a process has in flight). */
const SPARE_TRIPS = 64;

/** The client process a simulated transport serves: its name, incarnation and process group. */
interface SimOwner extends TransportOwner {
  readonly group: ProcessGroup;
}

export class SimTransport implements RedisTransport {
  private primaryNode: RedisNode;
  private readonly connections = new Map<RedisNode, NodeConnection>();
  /** Commands whose round trip ended, refilled by send (done). */
  private readonly spareTrips: CommandTrip[] = [];
  /** The connection used last and its node: most commands go where the one before went (no Map lookup). */
  private lastNode: RedisNode | null = null;
  private lastConnection: NodeConnection | null = null;
  /** node-redlock's ioredis connections to the masters (fixed servers, ioredis defaults). */
  private readonly ioredis = new Map<RedisNode, IoredisConnection>();
  /** The ioredis model's connections for plain commands ('primary': follows the primary). */
  private readonly modelConnections = new Map<RedisTarget, IoredisConnection>();
  private readonly subscriptions = new Map<string, { onMessage: () => void; cancel: () => void }>();
  /** Told when the process learns of a new primary (own-code's user clients). */
  readonly primarySwitchListeners: Array<() => void> = [];
  private readonly failFast: boolean;

  constructor(
    private readonly owner: SimOwner,
    private readonly sim: Simulation,
    private readonly fabric: Fabric,
    private readonly latency: Distribution,
    initialPrimary: RedisNode,
    /** Independent masters (Redlock); empty outside such a deployment. */
    private readonly masters: readonly RedisNode[],
    readonly model: ClientModel,
  ) {
    this.primaryNode = initialPrimary;
    this.failFast = model.onClose === 'fail';
  }

  get masterCount(): number {
    return this.masters.length;
  }

  /** The primary as this client sees it now. */
  get primary(): RedisNode {
    return this.primaryNode;
  }

  /** The independent masters (Redlock), or this client's primary: the nodes own-code clients talk to. */
  get lockNodes(): readonly RedisNode[] {
    return this.masters.length > 0 ? this.masters : [this.primaryNode];
  }

  replicaCount(): number {
    return this.primaryNode.connectedReplicas();
  }

  private nodeOf(target: RedisTarget): RedisNode {
    const node = target === 'primary' ? this.primaryNode : this.masters[target];
    if (!node) throw new Error(`no Redis master ${target}`);
    return node;
  }

  send(target: RedisTarget, command: readonly string[], tag: string): Signal<RedisReply> {
    if (this.model.pool === 'multiplexed') return this.sendOverIoredis(target, command, tag);
    return this.sendCommand(this.nodeOf(target), command, tag);
  }

  /** One command on this process's connection to `node` (a NodeConnection's legs as one object, command-trip.ts). */
  sendCommand(node: RedisNode, command: readonly string[], tag: string): Signal<RedisReply> {
    const connection = node === this.lastNode ? (this.lastConnection as NodeConnection) : this.connectionTo(node);
    const spare = this.spareTrips.pop();
    const incarnation = this.owner.incarnation;
    const trip = spare === undefined ? new CommandTrip(this.owner, incarnation, connection, node, command, tag, this.failFast) : spare.reuse(incarnation, connection, node, command, tag);
    return trip.start();
  }

  /**
   * A CommandTrip fires only when its reply arrived back, so one that was read is out of every
   * link and node and is refilled for a later command instead of dropped.
   */
  done(reply: Signal<RedisReply>, timedOut: boolean): void {
    if (!timedOut && reply instanceof CommandTrip && this.spareTrips.length < SPARE_TRIPS) this.spareTrips.push(reply);
  }

  pipeline(commands: readonly (readonly string[])[], tag: string): Signal<RedisReply>[] {
    const replies: Signal<RedisReply>[] = [];
    for (let i = 0; i < commands.length; i++) replies.push(this.send('primary', commands[i], tag));
    return replies;
  }

  sendAndForget(command: readonly string[], tag: string): void {
    this.send('primary', command, tag);
  }

  /** The ioredis model: the command on this process's ioredis connection to `target`; a failed one (no reply) as the connection-closed error. */
  private sendOverIoredis(target: RedisTarget, command: readonly string[], tag: string): Signal<RedisReply> {
    let connection = this.modelConnections.get(target);
    if (connection === undefined) {
      connection = this.modelConnection(target);
      this.modelConnections.set(target, connection);
    }
    const reply = new Signal<RedisReply>('reply');
    const incarnation = this.owner.incarnation;
    connection.send(command, tag, (outcome) => {
      if (this.owner.incarnation !== incarnation) return;
      reply.fire(outcome.status === 'ok' ? outcome.reply : CONNECTION_CLOSED_REPLY);
    });
    return reply;
  }

  /** An ioredis connection with its defaults whose every (re)connect dials the node `target` names now. */
  private modelConnection(target: RedisTarget): IoredisConnection {
    const node = this.nodeOf(target);
    const stream = `ioredis/${this.owner.name}->${target === 'primary' ? 'primary' : node.name}`;
    const path = this.tcpPath(stream);
    const behaviour: IoredisBehaviour = {
      retryStrategy: (times) => Math.min(times * 50, 2000),
      maxRetriesPerRequest: () => 20,
      enableOfflineQueue: () => true,
      keepOnlyWhenReady: true,
      target: () => this.nodeOf(target),
      pathTo: () => path,
      onStatus: () => {},
    };
    return new IoredisConnection(path, this.owner.name, node, this.owner.group, behaviour);
  }

  each(command: readonly string[], tag: string, wait: Exclude<EachWait, { until: 'deadline' }>): Signal<EachOutcome[]> {
    const nodes = this.lockNodes;
    const { decided, answer } = eachDecision(nodes.length, wait);
    nodes.forEach((node, i) => this.ioredisTo(node).send(command, tag, (outcome) => answer(i, outcome)));
    return decided;
  }

  subscribe(channel: string, onMessage: () => void): () => void {
    const entry = { onMessage, cancel: () => {} };
    this.subscriptions.set(channel, entry);
    entry.cancel = this.subscribeAtNode(channel, onMessage);
    return () => {
      entry.cancel();
      if (this.subscriptions.get(channel) === entry) this.subscriptions.delete(channel);
    };
  }

  private subscribeAtNode(channel: string, onMessage: () => void): () => void {
    const node = this.primaryNode;
    const link = this.connectionTo(node);
    const incarnation = this.owner.incarnation;
    let unsubscribe: (() => void) | null = null;
    let cancelled = false;
    link.out.send(() => {
      if (cancelled || !node.up) return;
      unsubscribe = node.subscribe(channel, () =>
        link.back.send(() => {
          if (this.owner.incarnation === incarnation) onMessage();
        }),
      );
    });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }

  /**
   * The client reconnects to a new primary (after Sentinel told it) and resubscribes; with the
   * ioredis model's failover detector, its connection to the old one closes, and what it had
   * not been answered goes to the new one.
   */
  switchPrimary(node: RedisNode): void {
    if (node === this.primaryNode) return;
    for (const s of this.subscriptions.values()) s.cancel();
    this.primaryNode = node;
    for (const [channel, s] of this.subscriptions) {
      s.cancel = this.subscribeAtNode(channel, s.onMessage);
      this.subscriptions.set(channel, s);
    }
    if (this.model.failover.reconnect) this.modelConnections.get('primary')?.reconnect();
    for (const listener of this.primarySwitchListeners) listener();
  }

  crashed(): void {
    // Its kernel closes the sockets: what they carry to the servers still arrives.
    for (const connection of this.ioredis.values()) connection.dispose();
    this.ioredis.clear();
    for (const connection of this.modelConnections.values()) connection.dispose();
    this.modelConnections.clear();
    for (const s of this.subscriptions.values()) s.cancel();
    this.subscriptions.clear();
  }

  /** The network path from this process to a node, its latencies drawn from the stream `stream` (own-code's ioredis clients). */
  tcpPath(stream: string): TcpPath {
    return { sim: this.sim, fabric: this.fabric, latency: this.latency, rng: this.sim.random.fork(stream) };
  }

  /** This process's ioredis connection to `node` (node-redlock's clients), opened on first use. */
  ioredisTo(node: RedisNode): IoredisConnection {
    let connection = this.ioredis.get(node);
    if (!connection) {
      const path = this.tcpPath(`ioredis/${this.owner.name}->${node.name}`);
      connection = new IoredisConnection(path, this.owner.name, node, this.owner.group);
      this.ioredis.set(node, connection);
    }
    return connection;
  }

  /** This process's connection to `node`, one stream of draws for both ways, opened on first use. */
  connectionTo(node: RedisNode): NodeConnection {
    let connection = this.connections.get(node);
    if (!connection) {
      const rng = this.sim.random.fork(`link/${this.owner.name}<->${node.name}`);
      connection = new NodeConnection(
        node,
        new Link(this.owner.name, node.name, this.sim, this.fabric, this.latency, rng),
        new Link(node.name, this.owner.name, this.sim, this.fabric, this.latency, rng),
      );
      this.connections.set(node, connection);
    }
    this.lastNode = node;
    this.lastConnection = connection;
    return connection;
  }
}

/** The simulated transport of a client process of the model (own-code's user clients reach the model's nodes through it). */
export function simulatedTransport(transport: RedisTransport): SimTransport {
  if (!(transport instanceof SimTransport)) throw new Error('this client process does not run on the model');
  return transport;
}
