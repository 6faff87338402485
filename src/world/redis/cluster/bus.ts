/**
 * The cluster bus (redis 7.0.15 src/cluster.c): the connections between the nodes
 * (clusterLink), and the messages on them: PING and PONG with their gossip section
 * (clusterSendPing). A part of the Cluster model (cluster.ts) on its state (state.ts); what a
 * node does with a message that reached it is messages.ts's.
 */
import { Link } from '../../network.js';
import { NodeConnection } from '../../node-connection.js';
import type { BusNode, GossipEntry, Message, PeerState } from './bus-node.js';
import type { ClusterState } from './state.js';

/** The bus connections between the nodes, and the PINGs, PONGs and gossip sent on them. */
export class ClusterBus {
  private readonly links = new Map<string, Link>();
  private readonly connections = new Map<string, NodeConnection>();

  constructor(
    private readonly state: ClusterState,
    /** What a node does with a message that reached it (messages.ts). */
    private readonly receive: (to: BusNode, m: Message) => void,
  ) {}

  /** `to` handles the message when it arrives and is awake (never if it is dead). */
  send(from: BusNode, to: BusNode, message: Message): void {
    this.connection(from, to).deliver(() => {
      this.receive(to, message);
      to.timer.plan();
    });
  }

  /**
   * The bus connection `from` opened to `to`. What `to` sends back (a PONG, a vote) travels
   * on the way back of the same pair of hosts: the link `to` -> `from`, one per direction.
   */
  private connection(from: BusNode, to: BusNode): NodeConnection {
    const key = `${from.name}->${to.name}`;
    let connection = this.connections.get(key);
    if (!connection) {
      connection = new NodeConnection(to.redis, this.link(from, to), this.link(to, from));
      this.connections.set(key, connection);
    }
    return connection;
  }

  /** One direction between two bus nodes, with its own stream of draws. */
  private link(from: BusNode, to: BusNode): Link {
    const key = `${from.name}->${to.name}`;
    let link = this.links.get(key);
    if (!link) {
      const { sim, fabric, params, random } = this.state;
      link = new Link(from.host, to.host, sim, fabric, params.latency, random.fork(`cluster/${key}`));
      this.links.set(key, link);
    }
    return link;
  }

  header(from: BusNode, kind: 'ping' | 'pong'): Message {
    return {
      kind,
      from,
      epoch: from.currentEpoch,
      master: from.isMaster,
      shard: from.shard,
      configEpoch: from.configEpoch,
      gossip: this.gossip(from),
    };
  }

  /** clusterSendPing: a PING marks ping_sent; PONGs are replies. */
  ping(from: BusNode, to: BusNode): void {
    (from.peers.get(to) as PeerState).pingSentUs = this.state.now;
    this.send(from, to, this.header(from, 'ping'));
  }

  /**
   * The gossip section: `wanted` = max(3, nodes / 10) (at most nodes - 2) distinct random
   * nodes other than the sender and those it has in PFAIL, then every node in PFAIL.
   */
  private gossip(from: BusNode): GossipEntry[] {
    const nodes = this.state.nodes;
    const n = nodes.length;
    const wanted = Math.min(Math.max(3, Math.floor(n / 10)), n - 2);
    const entries: GossipEntry[] = [];
    const chosen = new Set<BusNode>();
    const entry = (node: BusNode, s: PeerState): GossipEntry => ({ node, failing: s.pfail || s.fail, pongUs: Math.floor(s.pongReceivedUs / 1e6) * 1e6 });
    for (let tries = wanted * 3; tries > 0 && entries.length < wanted; tries--) {
      const node = nodes[from.rng.int(0, n - 1)];
      if (node === from || chosen.has(node)) continue;
      const s = from.peers.get(node) as PeerState;
      if (s.pfail) continue;
      chosen.add(node);
      entries.push(entry(node, s));
    }
    for (const [node, s] of from.peers) if (s.pfail) entries.push(entry(node, s));
    return entries;
  }
}
