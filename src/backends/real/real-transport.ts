/**
 * The real transport of a client process (world/transport.ts): every command goes through
 * ioredis 5.11.1 to a real server, through this client's proxy to that node, configured or
 * wrapped to behave as the variant's client model says (world/client-model.ts):
 * - a pool (Jedis, Redisson): up to `pool` ioredis connections per node, each carrying one
 *   command or batch at a time (the interpreter holds the pool's slots, so a command that
 *   reaches `send` has one); ioredis's offline queue and re-sends are off
 *   (enableOfflineQueue: false, autoResendUnfulfilledCommands: false). Jedis: a connection that
 *   closes fails its commands at once and is replaced by a new one; one whose command timed out
 *   is broken and closed. Redisson: connections reconnect by themselves; a command that finds
 *   none ready waits for one until its timeout, then is dropped unsent.
 * - ioredis: one connection per node with ioredis's defaults (offline queue, re-sends on
 *   reconnect; with Sentinel, failoverDetector).
 * With Sentinel, a pool client learns the primary from +switch-master on every Sentinel
 * (through this client's own Sentinel proxies, so a partition cuts it off), `redis.rediscover`
 * later (drawn from the same stream as in a simulated run: a poll period for Redisson).
 * A reply reaches the engine through the real-time driver, after the key watch's barrier for
 * a lock key (key-watch.ts), so the server's record comes first.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { sample } from '../../engine/distribution.js';
import type { RandomStreams } from '../../engine/random.js';
import { Signal } from '../../engine/signal.js';
import type { Scenario } from '../../spec/scenario.js';
import type { ClientModel } from '../../world/client-model.js';
import type { EachOutcome, EachWait, RedisTarget } from '../../world/effects.js';
import { RedisErrorReply, type RedisReply } from '../../world/redis/reply.js';
import { CONNECTION_CLOSED_REPLY, eachDecision, type RedisTransport, type TransportOwner } from '../../world/transport.js';
import type { RealDeployment } from './deployment.js';
import type { KeyWatch } from './key-watch.js';
import type { RealTimeDriver } from './realtime.js';

/** What came back for one command: a reply, or no reply (the connection failed it). */
type Settled = { reply: RedisReply } | { error: string };

/** One ioredis connection of a pool, with the commands it carries now. */
interface Pooled {
  redis: Redis;
  outstanding: number;
}

/** A command waiting for a ready connection (Redisson's pool; Jedis's new connection). */
interface Waiting {
  run: (connection: Pooled) => void;
  fail: () => void;
}

/** The connections of one target: a pool, or the one multiplexed connection. */
class TargetConnections {
  readonly pool: Pooled[] = [];
  readonly waiting: Waiting[] = [];
}

export class RealTransport implements RedisTransport {
  /** The node each target means now: 'primary' follows the Sentinels' announcements. */
  private primaryName = 'redis-0';
  private readonly targets = new Map<string, TargetConnections>();
  /** node-redlock's ioredis connections (each, defaults), by node. */
  private readonly each$ = new Map<string, Redis>();
  private subscriber: Redis | null = null;
  private readonly channels = new Map<string, () => void>();
  /** Which pooled connection carries each command in flight. */
  private readonly carriers = new Map<Signal<RedisReply>, { target: string; connection: Pooled }>();
  private readonly sentinelListeners: Redis[] = [];
  /** The servers' view of lock keys: replies on lock keys wait for its barrier. */
  keyWatch: KeyWatch | null = null;

  constructor(
    private readonly owner: TransportOwner,
    private readonly model: ClientModel,
    private readonly poolSize: number | null,
    private readonly deployment: RealDeployment,
    private readonly driver: RealTimeDriver,
    private readonly scenario: Scenario,
    private readonly random: RandomStreams,
  ) {}

  get masterCount(): number {
    return this.deployment.topology === 'independent' ? this.deployment.nodes.length : 0;
  }

  /** The replica count the client is configured with (the model asks the primary; see docs/guides/real-backend.md). */
  replicaCount(): number {
    return this.deployment.topology === 'sentinel' ? this.scenario.redis.replicas : 0;
  }

  /** The names of the nodes a user module's clients talk to (independent masters, or null for the primary the Sentinels name). */
  get lockNodeNames(): Array<string | null> {
    return this.masterCount > 0 ? this.deployment.nodes.map((n) => n.name) : [null];
  }

  private nodeName(target: RedisTarget): string {
    if (target === 'primary') return this.deployment.topology === 'sentinel' ? this.primaryName : 'redis-0';
    return this.deployment.nodes[target].name;
  }

  send(target: RedisTarget, command: readonly string[], tag: string): Signal<RedisReply> {
    return this.pipeline([command], tag, target)[0];
  }

  pipeline(commands: readonly (readonly string[])[], tag: string, target: RedisTarget = 'primary'): Signal<RedisReply>[] {
    const node = this.nodeName(target);
    const replies = commands.map(() => new Signal<RedisReply>('reply'));
    const incarnation = this.owner.incarnation;
    const deliver = (i: number) => (settled: Settled): void => {
      if (this.owner.incarnation !== incarnation) return;
      replies[i].fire('reply' in settled ? settled.reply : CONNECTION_CLOSED_REPLY);
    };
    const write = (redis: Redis): void => commands.forEach((command, i) => this.call(redis, node, command, tag, deliver(i)));
    if (this.poolSize === null) {
      write(this.multiplexed(node));
      return replies;
    }
    const key = this.deployment.topology === 'sentinel' && target === 'primary' ? `primary:${node}` : node;
    const connections = this.connectionsOf(key);
    const carry = (connection: Pooled): void => {
      connection.outstanding += commands.length;
      for (const r of replies) {
        this.pendingWaits.delete(r);
        this.carriers.set(r, { target: key, connection });
      }
      write(connection.redis);
    };
    const ready = connections.pool.find((c) => c.outstanding === 0 && c.redis.status === 'ready');
    if (ready) {
      carry(ready);
      return replies;
    }
    // No ready connection free: open one (up to the pool's size) and wait for it to be ready,
    // or (Redisson) for one to come back, until the caller's timeout.
    if (this.model.whileDown === 'fail' && this.deployment.node(node)?.process.running === false) {
      // Jedis: the connect is refused (the pool makes a new one per borrow).
      for (let i = 0; i < replies.length; i++) this.driver.inject(() => deliver(i)({ error: 'connect ECONNREFUSED' }));
      return replies;
    }
    const waiting: Waiting = { run: carry, fail: () => replies.forEach((_, i) => deliver(i)({ error: 'connection closed' })) };
    connections.waiting.push(waiting);
    for (const r of replies) this.pendingWaits.set(r, { key, waiting });
    if (connections.pool.length < this.poolSize) this.open(node, connections, waiting);
    return replies;
  }

  /** Commands waiting for a connection, by reply: a timeout withdraws them unsent. */
  private readonly pendingWaits = new Map<Signal<RedisReply>, { key: string; waiting: Waiting }>();

  private connectionsOf(key: string): TargetConnections {
    let c = this.targets.get(key);
    if (!c) this.targets.set(key, (c = new TargetConnections()));
    return c;
  }

  /** A new pooled connection to `node`; the first waiting command takes it when ready. */
  private open(node: string, connections: TargetConnections, forCommand: Waiting | null = null): Pooled {
    const redis = new Redis(this.options(node, this.model.name === 'jedis' ? { retryStrategy: () => null, maxRetriesPerRequest: 0 } : { maxRetriesPerRequest: null }));
    redis.on('error', () => undefined); // outcomes carry the failure
    const pooled: Pooled = { redis, outstanding: 0 };
    connections.pool.push(pooled);
    redis.on('ready', () => this.handOut(connections));
    redis.on('end', () => {
      // Jedis: a closed connection leaves the pool; waiting commands fail when none other can serve them.
      const i = connections.pool.indexOf(pooled);
      if (i >= 0) connections.pool.splice(i, 1);
      // Jedis: the borrow that opened it fails with it (JedisConnectionException).
      if (this.model.whileDown === 'fail' && forCommand !== null) {
        const at = connections.waiting.indexOf(forCommand);
        if (at >= 0) {
          connections.waiting.splice(at, 1);
          forCommand.fail();
        }
      }
    });
    return pooled;
  }

  /** Ready connections go to the waiting commands, in order. */
  private handOut(connections: TargetConnections): void {
    for (;;) {
      const free = connections.pool.find((c) => c.outstanding === 0 && c.redis.status === 'ready');
      const next = free ? connections.waiting.shift() : undefined;
      if (!free || !next) return;
      next.run(free);
    }
  }

  done(reply: Signal<RedisReply>, timedOut: boolean): void {
    const pending = this.pendingWaits.get(reply);
    if (pending) {
      // Still waiting for a connection: never sent after its timeout (Redisson's attempt gives up unsent).
      this.pendingWaits.delete(reply);
      const list = this.connectionsOf(pending.key).waiting;
      const i = list.indexOf(pending.waiting);
      if (i >= 0) list.splice(i, 1);
      return;
    }
    const carrier = this.carriers.get(reply);
    if (!carrier) return;
    this.carriers.delete(reply);
    const { connection, target } = carrier;
    connection.outstanding = Math.max(0, connection.outstanding - 1);
    if (timedOut && this.model.name === 'jedis') {
      // Jedis: a read timeout breaks the connection (JedisConnectionException); the pool destroys it.
      connection.redis.disconnect();
      const pool = this.connectionsOf(target).pool;
      const i = pool.indexOf(connection);
      if (i >= 0) pool.splice(i, 1);
      return;
    }
    if (connection.outstanding === 0) this.handOut(this.connectionsOf(target));
  }

  sendAndForget(command: readonly string[], tag: string): void {
    const node = this.nodeName('primary');
    const connection = this.poolSize === null ? this.multiplexed(node) : this.connectionsOf(this.deployment.topology === 'sentinel' ? `primary:${node}` : node).pool[0]?.redis;
    if (connection) this.call(connection, node, command, tag, () => undefined);
  }

  each(command: readonly string[], tag: string, wait: Exclude<EachWait, { until: 'deadline' }>): Signal<EachOutcome[]> {
    const nodes = this.masterCount > 0 ? this.deployment.nodes.map((n) => n.name) : [this.nodeName('primary')];
    const { decided, answer } = eachDecision(nodes.length, wait);
    const incarnation = this.owner.incarnation;
    nodes.forEach((node, i) =>
      this.call(this.eachConnection(node), node, command, tag, (settled) => {
        if (this.owner.incarnation === incarnation) answer(i, 'reply' in settled ? { status: 'ok', reply: settled.reply } : { status: 'error', message: settled.error });
      }),
    );
    return decided;
  }

  subscribe(channel: string, onMessage: () => void): () => void {
    const subscriber = this.subscriberConnection();
    this.channels.set(channel, onMessage);
    void subscriber.subscribe(channel).catch(() => undefined);
    return () => {
      this.channels.delete(channel);
      void subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  crashed(): void {
    // kill -9: the kernel closes the sockets; what they carried to the servers still arrives.
    this.dispose();
  }

  /**
   * Opens the connections a running application has before the run's time begins (the
   * model's never pay a connect): the pool's up to `workers` per node, or the one connection.
   */
  async warmUp(workers: number): Promise<void> {
    const nodes = this.masterCount > 0 ? this.deployment.nodes.map((n) => n.name) : [this.nodeName('primary')];
    const opened: Redis[] = [];
    for (const node of nodes) {
      if (this.poolSize === null) opened.push(this.multiplexed(node));
      else {
        const key = this.deployment.topology === 'sentinel' ? `primary:${node}` : node;
        const connections = this.connectionsOf(key);
        for (let i = 0; i < Math.min(this.poolSize, workers); i++) opened.push(this.open(node, connections).redis);
      }
    }
    await Promise.all(opened.map((r) => (r.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => r.once('ready', () => resolve())))));
    if (this.deployment.topology === 'sentinel' && this.poolSize !== null) await this.listenForSwitches();
  }

  /**
   * +switch-master on every Sentinel through this client's Sentinel proxies (Jedis's
   * MasterListener; Redisson's poll as its detection delay): after the model's detection and
   * the scenario's rediscover, new commands go to the announced node.
   */
  private async listenForSwitches(): Promise<void> {
    for (const address of this.deployment.sentinelAddressesFor(this.owner.name)) {
      const listener = new Redis({ ...address, lazyConnect: false });
      listener.on('error', () => undefined);
      await listener.subscribe('+switch-master');
      listener.on('message', (_channel: string, message: string) => {
        const to = this.deployment.nodeAtAnnouncedPort(Number(message.split(' ')[4]));
        if (!to || to.name === this.primaryName || this.switching === to.name) return;
        this.switching = to.name;
        this.driver.inject(() => {
          const delayUs = sample(this.scenario.redis.rediscover, this.random.fork(`rediscover/${this.owner.name}`));
          this.driver.sim.schedule(delayUs, () => this.switchTo(to.name));
        });
      });
      this.sentinelListeners.push(listener);
    }
  }

  private switching: string | null = null;

  /** New commands (and the subscriptions) go to `node`; commands on the old one wait where they are. */
  private switchTo(node: string): void {
    this.switching = null;
    if (node === this.primaryName) return;
    this.primaryName = node;
    if (this.subscriber) {
      const channels = [...this.channels.keys()];
      this.subscriber.disconnect();
      this.subscriber = null;
      const subscriber = this.subscriberConnection();
      for (const channel of channels) void subscriber.subscribe(channel).catch(() => undefined);
    }
  }

  /** Closes every connection (the run's end, or the process's kill -9). */
  dispose(): void {
    for (const c of this.targets.values()) {
      for (const p of c.pool) p.redis.disconnect();
      c.pool.length = 0;
      c.waiting.length = 0;
    }
    this.targets.clear();
    this.carriers.clear();
    this.pendingWaits.clear();
    for (const r of this.each$.values()) r.disconnect();
    this.each$.clear();
    this.subscriber?.disconnect();
    this.subscriber = null;
    for (const l of this.sentinelListeners.splice(0)) l.disconnect();
  }

  /**
   * One command on `redis`; `done` runs inside the engine at the real time the outcome came (a
   * reply on a lock key after the key watch's barrier, so the server's record comes first).
   */
  private call(redis: Redis, node: string, command: readonly string[], tag: string, done: (settled: Settled) => void): void {
    const watch = this.keyWatch;
    const target = this.deployment.topology === 'sentinel' ? null : node;
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
    redis.call(command[0], ...command.slice(1)).then(
      (reply) => replied(toReply(reply)),
      (err: unknown) => {
        const e = err as Error & { name?: string };
        // A server's error reply is a reply; anything else (the connection dropped, ioredis
        // gave up after its retries) is no reply.
        if (e && e.name === 'ReplyError') replied(new RedisErrorReply(e.message));
        else deliver({ error: e instanceof Error ? e.message : String(e) });
      },
    );
  }

  /** The ioredis model's one connection per node (for Sentinel: the primary ioredis asks the Sentinels for). */
  private multiplexed(node: string): Redis {
    const key = this.deployment.topology === 'sentinel' ? 'primary' : node;
    const existing = this.each$.get(`model:${key}`);
    if (existing) return existing;
    const redis = new Redis(this.options(this.deployment.topology === 'sentinel' ? null : node, {}));
    redis.on('error', () => undefined);
    // ioredis 5.11.1 can end a Sentinel connection for good (a failover detector started on an
    // earlier connect fires while a reconnect resolves the primary: AbstractConnector.js
    // disconnect, then "Connection is closed", status "end", no retry). Seen in 3 of 20 real
    // runs of scenarios/real/failover-backlog-race.yaml. An application would open a new
    // connection: the next command here does.
    redis.on('end', () => {
      if (this.each$.get(`model:${key}`) === redis) this.each$.delete(`model:${key}`);
    });
    this.each$.set(`model:${key}`, redis);
    return redis;
  }

  /** node-redlock's connection to one master, ioredis defaults. */
  private eachConnection(node: string): Redis {
    let redis = this.each$.get(node);
    if (!redis) {
      redis = new Redis(this.options(node, {}));
      redis.on('error', () => undefined);
      this.each$.set(node, redis);
    }
    return redis;
  }

  private subscriberConnection(): Redis {
    if (!this.subscriber) {
      // Pub/sub has its own connection (Redisson: subscriptionConnectionPoolSize), which waits to connect and renews its channels.
      const subscriber = new Redis(this.options(this.deployment.topology === 'sentinel' && this.poolSize === null ? null : this.nodeName('primary'), { enableOfflineQueue: true, autoResendUnfulfilledCommands: true }));
      subscriber.on('error', () => undefined);
      const incarnation = this.owner.incarnation;
      subscriber.on('message', (channel: string) =>
        this.driver.inject(() => {
          if (this.owner.incarnation === incarnation) this.channels.get(channel)?.();
        }),
      );
      this.subscriber = subscriber;
    }
    return this.subscriber;
  }

  /**
   * A new ioredis connection of this process, as its own connections are made (a user lock
   * module's clients, real-own-code.ts): to one node through this process's proxy, or (null) to
   * the primary the Sentinels name.
   */
  newConnection(nodeName: string | null): Redis {
    const connection = new Redis(this.options(nodeName, {}));
    connection.on('error', () => undefined);
    return connection;
  }

  /**
   * ioredis options for this client model: a pool's connections have no offline queue and
   * re-send nothing (their model says what happens instead); the ioredis model keeps ioredis's
   * defaults. A node (or the Sentinels' primary, null) through this client's proxies.
   */
  private options(nodeName: string | null, extra: RedisOptions): RedisOptions {
    const pooled = this.poolSize !== null;
    const base: RedisOptions = {
      lazyConnect: false,
      enableAutoPipelining: false,
      ...(pooled ? { enableOfflineQueue: false, autoResendUnfulfilledCommands: false } : {}),
      ...extra,
    };
    if (nodeName !== null || this.deployment.topology !== 'sentinel') {
      const node = this.deployment.node(nodeName ?? 'redis-0');
      if (!node) throw new Error(`no real node ${nodeName}`);
      return { ...base, host: '127.0.0.1', port: (node.clientProxies.get(this.owner.name) as { port: number }).port };
    }
    return {
      ...base,
      sentinels: this.deployment.sentinelAddressesFor(this.owner.name),
      name: this.deployment.masterName,
      natMap: this.deployment.natMapFor(this.owner.name),
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

/** The real transport of a client process of a real run (real-own-code's user clients are made through it). */
export function realTransport(transport: RedisTransport): RealTransport {
  if (!(transport instanceof RealTransport)) throw new Error('this client process does not run on real Redis');
  return transport;
}
