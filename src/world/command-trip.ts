/**
 * One command of a client process to a Redis node, as a single object for its whole round
 * trip: it is the reply signal the calling thread waits on, the message on the link out, the
 * node's reply sink and the message on the link back. The same legs as
 * NodeConnection.command (out, execute on the node, back), without a closure per leg: a run
 * sends thousands of commands.
 */
import { Signal } from '../engine/signal.js';
import type { Delivery } from './network.js';
import type { NodeConnection } from './node-connection.js';
import type { RedisNode } from './redis/node.js';
import type { RedisReply } from './redis/reply.js';
import { CONNECTION_CLOSED_REPLY } from './transport.js';

/** The process the command belongs to: a reply to an earlier incarnation (before a crash) is dropped. */
interface TripOwner {
  readonly incarnation: number;
}

export class CommandTrip extends Signal<RedisReply> implements Delivery {
  /** false: on the way to the node; true: the reply on the way back. */
  private returning = false;
  private reply: RedisReply = null;

  constructor(
    private readonly owner: TripOwner,
    private incarnation: number,
    private connection: NodeConnection,
    private node: RedisNode,
    private args: readonly string[],
    private tag: string,
    /** The client fails a command that meets a dead server (its kernel's RST comes back) instead of waiting for the timeout. */
    private readonly failFast = false,
  ) {
    super('reply');
  }

  /**
   * Refills a trip whose reply was fired and read (ClientHost.replyRead) for another command of
   * the same process: firing left it without waiters, so it is as new once unfired.
   */
  reuse(incarnation: number, connection: NodeConnection, node: RedisNode, args: readonly string[], tag: string): this {
    this.fired = false;
    this.value = undefined;
    this.returning = false;
    this.reply = null;
    this.incarnation = incarnation;
    this.connection = connection;
    this.node = node;
    this.args = args;
    this.tag = tag;
    return this;
  }

  /** Sends it: the command leaves on the link out now. */
  start(): this {
    this.connection.out.send(this);
    return this;
  }

  /** @internal the link delivered this leg. */
  arrive(): void {
    if (!this.returning) {
      if (this.failFast && !this.node.up) this.nodeReplied(CONNECTION_CLOSED_REPLY);
      else this.node.execute(this.args, this.tag, this);
      return;
    }
    if (this.owner.incarnation === this.incarnation) this.fire(this.reply);
  }

  /**
   * @internal a reject partition reset the connection under this command (network.ts Link):
   * a client that fails on a closed connection hears of it now; one that waits, at its timeout.
   */
  reset(): void {
    if (this.failFast && !this.fired && this.owner.incarnation === this.incarnation) this.fire(CONNECTION_CLOSED_REPLY);
  }

  /** @internal the node answered (once: RedisNode.execute); the reply travels back. */
  nodeReplied(r: RedisReply): void {
    this.returning = true;
    this.reply = r;
    this.connection.back.send(this);
  }
}
