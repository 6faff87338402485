/**
 * How a client process's commands reach Redis: the one interface under the client's effect
 * interpreter (client-host.ts, thread-run.ts), with a simulated implementation
 * (sim-transport.ts: the model's nodes over the network fabric) and a real one
 * (real/real-transport.ts: ioredis to real servers through lock-sim's proxies). Both obey the
 * variant's client model (client-model.ts); the interpreter holds the pool's connections
 * (which command waits for one, which one a blocking command occupies) for both.
 */
import { Signal } from '../engine/signal.js';
import type { EachOutcome, EachWait, RedisTarget } from './effects.js';
import { RedisErrorReply, type RedisReply } from './redis/reply.js';

export interface RedisTransport {
  /** Sends one command to `target` now; the signal fires with its reply (never for a reply addressed to an earlier incarnation). */
  send(target: RedisTarget, command: readonly string[], tag: string): Signal<RedisReply>;
  /** Commands written back to back on one connection of the primary (a pipeline); one signal per command. */
  pipeline(commands: readonly (readonly string[])[], tag: string): Signal<RedisReply>[];
  /** The calling thread is done with `reply`: it read it, or (`timedOut`) stopped waiting. */
  done(reply: Signal<RedisReply>, timedOut: boolean): void;
  /** A command nobody waits for. */
  sendAndForget(command: readonly string[], tag: string): void;
  /** The same command to every independent master (or the primary), decided as `wait` says (until 'all' or 'quorum'). */
  each(command: readonly string[], tag: string, wait: Exclude<EachWait, { until: 'deadline' }>): Signal<EachOutcome[]>;
  /** SUBSCRIBE on the primary (renewed at a switch); `onMessage` for each message. Returns the UNSUBSCRIBE. */
  subscribe(channel: string, onMessage: () => void): () => void;
  /** Independent masters (Redlock); 0 outside such a deployment. */
  readonly masterCount: number;
  /** The replicas the client knows its primary to have (0 for a single server). */
  replicaCount(): number;
  /** kill -9 of the process: its kernel closes the sockets (what they carried still arrives). */
  crashed(): void;
}

/** What a transport needs of its client process. */
export interface TransportOwner {
  readonly name: string;
  /** Bumped by every crash: a reply addressed to an earlier incarnation is dropped. */
  readonly incarnation: number;
}

/**
 * What a command gets when its connection closed without a reply and the client model fails it
 * (Jedis: JedisConnectionException, jedis v5.2.0 util/RedisInputStream.java; ioredis with its
 * queue given up: "Connection is closed."). An error the client raises, not the server: the
 * command never ran where the model says so (it reached a dead server); on a real run its
 * outcome is as unknown as a timeout's.
 */
export const CONNECTION_CLOSED_REPLY = new RedisErrorReply('ERR connection closed: Unexpected end of stream.');

/**
 * The wait of a multiplexed command over `count` masters, as EachWait says: each master's
 * outcome goes to `answer(i, outcome)`; the signal fires with the outcomes as they stood when
 * every master answered or a quorum decided (later answers change nothing the caller sees).
 * Both transports use it, so the quorum rule is written once.
 */
export function eachDecision(count: number, wait: Exclude<EachWait, { until: 'deadline' }>): { decided: Signal<EachOutcome[]>; answer: (i: number, outcome: EachOutcome) => void } {
  const outcomes: EachOutcome[] = Array.from({ length: count }, () => ({ status: 'pending' }));
  const decided = new Signal<EachOutcome[]>('redis-each');
  let answered = 0;
  let votesFor = 0;
  const answer = (i: number, outcome: EachOutcome): void => {
    if (decided.fired) return;
    outcomes[i] = outcome;
    answered++;
    if (wait.until === 'quorum' && outcome.status === 'ok' && outcome.reply === wait.vote) votesFor++;
    const against = answered - votesFor;
    const quorumDecided = wait.until === 'quorum' && (votesFor >= wait.quorum || against >= wait.quorum);
    if (answered === count || quorumDecided) decided.fire([...outcomes]);
  };
  return { decided, answer };
}
