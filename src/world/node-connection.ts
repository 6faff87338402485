/**
 * A connection from a host (a client process, a Sentinel, a node of the cluster bus) to one
 * Redis node: a `Link` each way. What is sent runs on the node in the order it arrives: at
 * once, or when a sleeping node wakes (DEBUG SLEEP), never on a dead one. A command's reply
 * comes back on the other link. A client's pooled connections, the Sentinels and the cluster
 * bus all reach nodes through it, so they meet a sleeping, dead or cut-off node alike
 * (node-redlock's ioredis connections have a TCP model of their own: ioredis-connection.ts).
 */
import type { Link } from './network.js';
import type { RedisNode } from './redis/node.js';
import type { RedisReply } from './redis/reply.js';

export class NodeConnection {
  constructor(
    /**
     * The node at the far end; null for a cluster node the model keeps only on the bus (the
     * other shards): it is never asleep or dead, and runs what arrives at once.
     */
    readonly node: RedisNode | null,
    readonly out: Link,
    readonly back: Link,
  ) {}

  /** Runs `run` on the node when the message arrives (RedisNode.whenAwake: when it is awake, never if it is dead). */
  deliver(run: () => void): void {
    const node = this.node;
    this.out.send(node === null ? run : () => node.whenAwake(run));
  }

  /**
   * Sends a command; the node runs it as it runs a client's (RedisNode.execute: queued while
   * it sleeps, lost if it is dead). When it replies, `atNode` reads what the reply carries
   * there and then (a Sentinel: the node's INFO), and `onReply` gets that when the reply
   * arrives. A reply lost on the way (a cut) never arrives: the caller's timeout covers it.
   */
  command<T>(args: readonly string[], tag: string, atNode: (reply: RedisReply) => T, onReply: (value: T) => void): void {
    const node = this.node;
    if (node === null) throw new Error(`${this.out.to} is not a Redis node of the model: it takes no commands`);
    this.out.send(() =>
      node.execute(args, tag, (reply) => {
        const value = atNode(reply);
        this.back.send(() => onReply(value));
      }),
    );
  }
}
