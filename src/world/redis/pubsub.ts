/**
 * A node's pub/sub (redis 7.0.15 src/pubsub.c): channel subscribers in subscription order
 * (server.pubsub_channels: a list of clients per channel), pattern subscribers
 * (server.pubsub_patterns), PUBLISH, and the commands of a session (session.ts): SUBSCRIBE,
 * UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE and PUBSUB CHANNELS / NUMSUB / NUMPAT.
 *
 * The model's own clients subscribe through `subscribe(channel, subscriber)`; a session's
 * subscriptions are subscribers of the same lists, so PUBLISH counts and reaches both alike.
 * Where Redis walks a dict (the patterns at PUBLISH, a mass UNSUBSCRIBE, PUBSUB CHANNELS) its
 * order follows the dict's hash seed; the model answers in subscription order there.
 */
import { globMatch } from './glob.js';
import { RedisErrorReply, type RedisReply } from './reply.js';
import type { ClientSession } from './session.js';

export type Subscriber = (channel: string, message: string) => void;

/** One SUBSCRIBE / UNSUBSCRIBE ... reply per channel or pattern: the first is the command's reply, the rest go out as pushes. */
type Replies = RedisReply[];

export class PubSub {
  private readonly channels = new Map<string, Set<Subscriber>>();
  /** Sessions subscribed to each pattern, in subscription order. */
  private readonly patterns = new Map<string, Set<ClientSession>>();

  subscribe(channel: string, subscriber: Subscriber): () => void {
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    set.add(subscriber);
    const s = set;
    return () => {
      s.delete(subscriber);
      if (s.size === 0 && this.channels.get(channel) === s) this.channels.delete(channel);
    };
  }

  /** pubsub.c pubsubPublishMessageInternal: channel subscribers, then each matching pattern's; the number reached. */
  publish(channel: string, message: string): number {
    const set = this.channels.get(channel);
    let n = 0;
    if (set) {
      for (const s of set) s(channel, message);
      n = set.size;
    }
    if (this.patterns.size === 0) return n;
    for (const [pattern, sessions] of this.patterns) {
      if (!globMatch(pattern, channel)) continue;
      for (const session of sessions) {
        session.push(['pmessage', pattern, channel, message]);
        n++;
      }
    }
    return n;
  }

  /** Everything a crashed node forgets. */
  clear(): void {
    this.channels.clear();
    this.patterns.clear();
  }

  /** SUBSCRIBE channel...: ["subscribe", channel, count] for each (pubsub.c pubsubSubscribeChannel). */
  subscribeSession(session: ClientSession, channels: readonly string[]): Replies {
    return channels.map((channel) => {
      if (!session.channels.has(channel)) {
        session.channels.add(channel);
        session.unsubscribes.set(channel, this.subscribe(channel, (c, m) => session.push(['message', c, m])));
      }
      return ['subscribe', channel, session.subscriptionCount];
    });
  }

  /** UNSUBSCRIBE [channel...]: one reply per channel named (subscribed or not); with none, every channel, or one nil reply. */
  unsubscribeSession(session: ClientSession, channels: readonly string[]): Replies {
    return unsubscribeReplies('unsubscribe', session, session.channels, channels, (channel) => {
      if (!session.channels.delete(channel)) return;
      session.unsubscribes.get(channel)?.();
      session.unsubscribes.delete(channel);
    });
  }

  psubscribeSession(session: ClientSession, patterns: readonly string[]): Replies {
    return patterns.map((pattern) => {
      if (!session.patterns.has(pattern)) {
        session.patterns.add(pattern);
        let set = this.patterns.get(pattern);
        if (!set) this.patterns.set(pattern, (set = new Set()));
        set.add(session);
      }
      return ['psubscribe', pattern, session.subscriptionCount];
    });
  }

  /** PUNSUBSCRIBE [pattern...]: as UNSUBSCRIBE, for patterns. */
  punsubscribeSession(session: ClientSession, patterns: readonly string[]): Replies {
    return unsubscribeReplies('punsubscribe', session, session.patterns, patterns, (pattern) => {
      if (!session.patterns.delete(pattern)) return;
      const set = this.patterns.get(pattern);
      set?.delete(session);
      if (set?.size === 0) this.patterns.delete(pattern);
    });
  }

  /** A session's connection closed (or RESET): its subscriptions go, without replies. */
  dropSession(session: ClientSession): void {
    this.unsubscribeSession(session, []);
    this.punsubscribeSession(session, []);
  }

  /** PUBSUB CHANNELS [pattern] / NUMSUB [channel...] / NUMPAT (pubsub.c pubsubCommand). */
  pubsubCommand(args: readonly string[]): RedisReply {
    const sub = args[1].toLowerCase();
    if (sub === 'channels') {
      // pubsub.c: CHANNELS takes one pattern at most, else addReplySubcommandSyntaxError.
      if (args.length > 3) return new RedisErrorReply(`ERR unknown subcommand or wrong number of arguments for '${args[1].slice(0, 128)}'. Try ${args[0].toUpperCase()} HELP.`);
      const out: string[] = [];
      for (const [channel, set] of this.channels) if (set.size > 0 && (args.length === 2 || globMatch(args[2], channel))) out.push(channel);
      return out;
    }
    if (sub === 'numsub') return args.slice(2).flatMap((c) => [c, this.channels.get(c)?.size ?? 0]);
    return this.patterns.size;
  }
}

/**
 * The replies of UNSUBSCRIBE or PUNSUBSCRIBE (pubsub.c pubsubUnsubscribeAllChannels,
 * pubsubUnsubscribeAllPatterns): one per name given, each after `drop` of that name, with the
 * count left; with no names, one per subscription the session holds, or one nil reply if none.
 */
function unsubscribeReplies(kind: 'unsubscribe' | 'punsubscribe', session: ClientSession, subscribed: ReadonlySet<string>, names: readonly string[], drop: (name: string) => void): Replies {
  if (names.length === 0) {
    if (subscribed.size === 0) return [[kind, null, session.subscriptionCount]];
    names = [...subscribed];
  }
  return names.map((name) => {
    drop(name);
    return [kind, name, session.subscriptionCount];
  });
}
