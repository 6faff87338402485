/**
 * A client process of a real run: the same ClientHost (workers, pool, GC pauses, kill -9,
 * pub/sub latches, background threads), with every Redis command sent through ioredis to a
 * real server instead of to the model. A reply comes back into the engine through the
 * real-time driver, so the thread that waits for it resumes exactly as in a simulated run,
 * including a command timeout (the engine's, not ioredis's: an unanswered command has an
 * unknown outcome either way) and a GC pause that holds the reply until the pause ends.
 *
 * The topology's nodes appear to ClientHost as placeholder RedisNode objects that only carry
 * their names; nothing of the model runs on them.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { Signal } from '../engine/signal.js';
import type { ProcessGenerator } from '../engine/process.js';
import type { Simulation } from '../engine/simulation.js';
import { ClientHost, type ClientHooks, type ClientParams, type ThreadContext } from '../world/client-host.js';
import type { Database } from '../world/database.js';
import type { Dependency } from '../world/dependency.js';
import type { EachOutcome, EachWait, Effect } from '../world/effects.js';
import { Fabric } from '../world/network.js';
import type { RedisNode } from '../world/redis/node.js';
import { RedisErrorReply, type RedisReply } from '../world/redis/reply.js';
import type { RealDeployment } from './deployment.js';
import type { KeyWatch } from './key-watch.js';
import type { RealTimeDriver } from './realtime.js';

/** What came back for one command: a reply, or no reply (the connection failed it). */
type Settled = { reply: RedisReply } | { error: string };

export class RealClientHost extends ClientHost {
  /** node name ('primary' for the Sentinel-resolved primary) -> this process's ioredis connection. */
  private readonly real = new Map<string, Redis>();
  private subscriber: Redis | null = null;
  /** The servers' view of lock keys (key-watch.ts): replies on lock keys wait for its barrier. */
  keyWatch: KeyWatch | null = null;

  constructor(
    name: string,
    sim: Simulation,
    params: ClientParams,
    private readonly placeholders: readonly RedisNode[],
    private readonly independent: boolean,
    database: Database,
    dependencies: ReadonlyMap<string, Dependency>,
    hooks: ClientHooks,
    private readonly deployment: RealDeployment,
    private readonly driver: RealTimeDriver,
    private readonly replicaCount: number,
  ) {
    super(name, sim, params, placeholders[0], independent ? placeholders : [], new Fabric(), database, dependencies, hooks);
  }

  /** The replica count the client is configured with (the model asks the primary; see docs/guides/real-backend.md). */
  protected override immediate(effect: Effect, thread: ThreadContext): unknown {
    if (effect.kind === 'replicas') return this.replicaCount;
    return super.immediate(effect, thread);
  }

  override sendCommand(node: RedisNode, command: string[], tag: string): Signal<RedisReply> {
    const reply = new Signal<RedisReply>('reply');
    const incarnation = this.incarnation;
    this.send(node, command, tag, (settled) => {
      if (this.incarnation !== incarnation || !('reply' in settled)) return;
      reply.fire(settled.reply);
    });
    return reply;
  }

  /**
   * Redlock's multiplexed command (node-redlock over ioredis): one command per master, the
   * wait as EachWait says; a command the connection fails is an `error` outcome.
   */
  protected override *redisEach(command: string[], tag: string, wait: EachWait): ProcessGenerator<EachOutcome[]> {
    const nodes = this.masterNodes();
    if (wait.until === 'deadline') return yield* super.redisEach(command, tag, wait);
    const outcomes: EachOutcome[] = nodes.map(() => ({ status: 'pending' }));
    const decided = new Signal<EachOutcome[]>('redis-each');
    let answered = 0;
    let votesFor = 0;
    const incarnation = this.incarnation;
    nodes.forEach((node, i) =>
      this.send(node, command, tag, (settled) => {
        if (decided.fired || this.incarnation !== incarnation) return;
        const outcome: EachOutcome = 'reply' in settled ? { status: 'ok', reply: settled.reply } : { status: 'error', message: settled.error };
        outcomes[i] = outcome;
        answered++;
        if (wait.until === 'quorum' && outcome.status === 'ok' && outcome.reply === wait.vote) votesFor++;
        const against = answered - votesFor;
        const quorumDecided = wait.until === 'quorum' && (votesFor >= wait.quorum || against >= wait.quorum);
        if (answered === nodes.length || quorumDecided) decided.fire([...outcomes]);
      }),
    );
    return (yield decided) as EachOutcome[];
  }

  /** SUBSCRIBE on this process's subscriber connection; each message releases one latch permit. */
  protected override subscribeAtNode(channel: string): void {
    const subscriber = this.subscriberConnection();
    this.subscriptions.set(channel, () => {
      void subscriber.unsubscribe(channel).catch(() => undefined);
    });
    void subscriber.subscribe(channel).catch(() => undefined);
  }

  override crash(): void {
    super.crash();
    // kill -9: the kernel closes the sockets; what they carried to the servers still arrives.
    for (const connection of this.real.values()) connection.disconnect();
    this.real.clear();
    this.subscriber?.disconnect();
    this.subscriber = null;
  }

  /**
   * Opens this process's connections before the run's time begins, as a running application
   * has them: the first command of a run does not wait for a TCP connect and ioredis's ready
   * check (INFO), which the model's connections never pay.
   */
  async warmUp(): Promise<void> {
    const nodes = this.independent ? [...this.placeholders] : [this.primaryView];
    await Promise.all(
      nodes.map((node) => {
        const connection = this.connectionFor(node);
        if (connection.status === 'ready') return Promise.resolve();
        return new Promise<void>((resolve) => connection.once('ready', () => resolve()));
      }),
    );
  }

  /** Closes every connection at the end of the run. */
  dispose(): void {
    for (const connection of this.real.values()) connection.disconnect();
    this.real.clear();
    this.subscriber?.disconnect();
    this.subscriber = null;
  }

  private masterNodes(): RedisNode[] {
    return this.independent ? [...this.placeholders] : [this.primaryView];
  }

  /**
   * Sends one command; `done` runs inside the engine, at the real time the outcome came (a
   * reply on a lock key after the key watch's barrier, so the server's record comes first).
   */
  private send(node: RedisNode, command: string[], tag: string, done: (settled: Settled) => void): void {
    const connection = this.connectionFor(node);
    const watch = this.keyWatch;
    const target = this.independent || this.deployment.topology !== 'sentinel' ? (this.independent ? node.name : 'redis-0') : null;
    const entry = watch?.ledger.sent(tag, command, target) ?? null;
    const deliver = (settled: Settled): void =>
      this.driver.inject(() => {
        if (entry) watch?.ledger.delivered(entry);
        done(settled);
      });
    const replied = (reply: RedisReply): void => {
      if (!entry || !watch) return deliver({ reply });
      watch.ledger.replied(entry, reply);
      void watch.barrier(target).then(() => deliver({ reply }));
    };
    connection.call(command[0], ...command.slice(1)).then(
      (reply) => replied(toReply(reply)),
      (err: unknown) => {
        const e = err as Error & { name?: string };
        // A server's error reply is a reply; anything else (the connection dropped, ioredis
        // gave up after its retries) leaves the outcome unknown.
        if (e && e.name === 'ReplyError') replied(new RedisErrorReply(e.message));
        else deliver({ error: e instanceof Error ? e.message : String(e) });
      },
    );
  }

  /**
   * A new ioredis connection of this process, as its own connections are made: to one node
   * through this process's proxy, or (null) to the primary the Sentinels name (a user lock
   * module's clients, real-own-code.ts).
   */
  newConnection(nodeName: string | null): Redis {
    const connection = new Redis(this.options(nodeName));
    connection.on('error', () => undefined);
    return connection;
  }

  private connectionFor(node: RedisNode): Redis {
    const key = this.independent ? node.name : 'primary';
    let connection = this.real.get(key);
    if (!connection) {
      connection = new Redis(this.options(this.independent ? node.name : null));
      connection.on('error', () => undefined); // reconnects are ioredis's business; outcomes carry the failure
      // ioredis 5.11.1 can end a Sentinel connection for good: a failover detector started on
      // an earlier connect fires on +switch-master while a reconnect is resolving the primary
      // (built/connectors/AbstractConnector.js disconnect sets connecting = false, so
      // SentinelConnector.connect throws "Connection is closed" and Redis.connect sets status
      // "end", with no further retry). Seen in 3 of 20 real runs of
      // scenarios/real/failover-backlog-race.yaml (both clients' connections "connecting ->
      // end" at the announcement; the second client's SET never written). An application would
      // open a new connection: the next command here does.
      const ended = connection;
      ended.on('end', () => {
        if (this.real.get(key) === ended) this.real.delete(key);
      });
      this.real.set(key, connection);
    }
    return connection;
  }

  private subscriberConnection(): Redis {
    if (!this.subscriber) {
      const subscriber = new Redis(this.options(this.independent ? 'redis-0' : null));
      subscriber.on('error', () => undefined);
      const incarnation = this.incarnation;
      subscriber.on('message', (channel: string) =>
        this.driver.inject(() => {
          if (this.incarnation !== incarnation) return;
          const latch = this.latchFor(channel);
          const waiter = latch.waiters.shift();
          if (waiter) waiter.fire(true);
          else latch.permits++;
        }),
      );
      this.subscriber = subscriber;
    }
    return this.subscriber;
  }

  /**
   * ioredis options (ioredis 5.11.1 defaults otherwise: offline queue, reconnect every
   * min(50 ms x attempts, 2 s), 20 retries per request). With Sentinel, ioredis asks the
   * Sentinels for the primary, reaches it through this client's proxy (natMap), and
   * `failoverDetector` reconnects on +switch-master, as Redisson follows the switch.
   */
  private options(nodeName: string | null): RedisOptions {
    const base: RedisOptions = { lazyConnect: false, enableAutoPipelining: false };
    if (nodeName !== null || this.deployment.topology !== 'sentinel') {
      const node = this.deployment.node(nodeName ?? 'redis-0');
      if (!node) throw new Error(`no real node ${nodeName}`);
      return { ...base, host: '127.0.0.1', port: (node.clientProxies.get(this.name) as { port: number }).port };
    }
    return {
      ...base,
      sentinels: this.deployment.sentinelAddresses(),
      name: this.deployment.masterName,
      natMap: this.deployment.natMapFor(this.name),
      failoverDetector: true,
      sentinelRetryStrategy: () => 100,
    };
  }
}

/** ioredis replies (RESP2 decoded: strings, integers, arrays, null) as the model's RedisReply. */
function toReply(value: unknown): RedisReply {
  if (value === null || typeof value === 'number' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(toReply);
  if (Buffer.isBuffer(value)) return value.toString();
  return String(value);
}
