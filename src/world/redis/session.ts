/**
 * One client connection as the Redis server sees it (redis 7.0.15 server.h `client`): its id
 * (CLIENT ID: the server's counter, networking.c createClient), its name (CLIENT SETNAME), its
 * subscriptions (SUBSCRIBE puts it in the RESP2 pub/sub context, server.c processCommand), and
 * whether a blocking command or WAIT holds it: then the commands it sends after wait, in order,
 * until it is unblocked (blocked.c blockClient: "the client query buffer is not longer
 * processed, but accumulated"; processUnblockedClients runs them once it is free).
 *
 * A transport that models connections opens one per connection (RedisNode.acceptConnection) and
 * sends each command with it; a command sent without one runs on a connection of its own, made
 * for it and gone after it (what a one-command client would see).
 */
import type { RedisReply } from './reply.js';

export class ClientSession {
  /** CLIENT SETNAME's name; '' for none (CLIENT GETNAME answers nil). */
  name = '';
  /** Channels subscribed, in subscription order. */
  readonly channels = new Set<string>();
  /** Patterns subscribed (PSUBSCRIBE), in subscription order (the client's list in pubsub.c). */
  readonly patterns = new Set<string>();
  /** Unsubscribes of this session's channel subscriptions at the node, by channel. */
  readonly unsubscribes = new Map<string, () => void>();
  /** The blocking command or WAIT that holds this client, if any (blocking.ts). */
  blocked: object | null = null;
  /** Commands that arrived while blocked: run in order once it is unblocked. */
  readonly pending: Array<() => void> = [];
  /** The connection is gone (closed by either side, or QUIT): nothing more runs for it. */
  closed = false;
  /**
   * Where pub/sub messages and the further replies of a multi-channel (P)(UN)SUBSCRIBE go
   * (RESP2 pushes: ["message", channel, text], ["pmessage", pattern, channel, text]); null: a
   * transport that takes none (they are dropped, as for a client that does not read them).
   */
  onPush: ((push: RedisReply) => void) | null = null;

  constructor(
    /** CLIENT ID. */
    readonly id: number,
    /** Closes the connection from the server's side (CLIENT_CLOSE_AFTER_REPLY), if the transport gave a way. */
    readonly closeConnection: (() => void) | null = null,
  ) {}

  /** In the RESP2 pub/sub context (server.c: CLIENT_PUBSUB and resp 2). */
  get subscribed(): boolean {
    return this.channels.size > 0 || this.patterns.size > 0;
  }

  /** pubsub.c clientSubscriptionsCount: channels and patterns. */
  get subscriptionCount(): number {
    return this.channels.size + this.patterns.size;
  }

  push(reply: RedisReply): void {
    this.onPush?.(reply);
  }
}
