/**
 * An application process (a JVM, say) with worker threads, a connection pool, a local
 * clock and connections to Redis. It interprets the effects that lock protocols and the
 * request flow yield. Everything it runs belongs to one process group, so a GC pause
 * stops workers, watchdogs and reply handling together, and kill -9 ends them together.
 */
import type { Distribution } from '../engine/distribution.js';
import type { ProcessGenerator, Process, ProcessGroup } from '../engine/process.js';
import type { RandomStream } from '../engine/random.js';
import { Signal, SignalWait, TIMED_OUT } from '../engine/signal.js';
import type { Simulation } from '../engine/simulation.js';
import type { Micros } from '../engine/time.js';
import { LocalClock } from './clock.js';
import { CommandTrip } from './command-trip.js';
import { ConnectionPool } from './connection-pool.js';
import type { Database, DbResult, DbStatement } from './database.js';
import type { Dependency } from './dependency.js';
import type { EachOutcome, EachWait, Effect, EffectProgram, NoteKind, RedisOutcome, RedisSetup } from './effects.js';
import { IoredisConnection } from './ioredis-connection.js';
import { Link, type Fabric } from './network.js';
import { NodeConnection } from './node-connection.js';
import type { RedisNode } from './redis/node.js';
import type { RedisReply } from './redis/reply.js';
import type { TcpPath } from './tcp.js';
import { replyOutcome, ThreadRun, TIMEOUT_OUTCOME, WAITS } from './thread-run.js';

export interface ClientParams {
  poolSize: number;
  commandTimeoutUs: Micros;
  redisLatency: Distribution;
  /** Redis is a primary with replicas (Sentinel, Cluster) rather than single servers. */
  replicated: boolean;
}

/** What a running thread carries: its name in the history, its random stream, its request. */
export interface ThreadContext {
  name: string;
  rng: RandomStream;
  /** The request being served; Redis records it as the writer of keys. */
  requestTag: string;
  /** The pool a connection is pinned from while a transaction is open (null: none). */
  pinnedPool?: ConnectionPool | null;
}

export interface ClientHooks {
  note(client: ClientHost, thread: ThreadContext, f: NoteKind, ok: boolean, detail: string): void;
  /** Returns true when a crash fault struck (and already crashed) this client at this point. */
  crashPoint(client: ClientHost, thread: ThreadContext, point: string): boolean;
}

/** A pub/sub latch per channel: permits released by messages, taken by waiting threads. */
export class Latch {
  permits = 0;
  waiters: Signal<true>[] = [];
}

/** At most this many finished commands kept for refilling (more than a process has in flight). */
const SPARE_TRIPS = 64;

export class ClientHost {
  group: ProcessGroup;
  up = true;
  /** Bumped by every crash; replies addressed to an earlier incarnation are dropped. */
  incarnation = 0;
  pool: ConnectionPool;
  readonly clock: LocalClock;
  protected primary: RedisNode;
  private readonly connections = new Map<RedisNode, NodeConnection>();
  /** Commands whose round trip ended, refilled by sendCommand (replyRead). */
  private readonly spareTrips: CommandTrip[] = [];
  /** The connection used last and its node: most commands go where the one before went (no Map lookup). */
  private lastNode: RedisNode | null = null;
  private lastConnection: NodeConnection | null = null;
  /** This client's named random streams by their short name (a stream outlives a crash: it is the simulation's). */
  private readonly streams = new Map<string, RandomStream>();
  protected latches = new Map<string, Latch>();
  protected subscriptions = new Map<string, () => void>();
  private background = new Map<number, Process<unknown>>();
  private nextHandle = 1;
  /** This process's ioredis connections to the masters (redis-each without a deadline). */
  private readonly ioredis = new Map<RedisNode, IoredisConnection>();
  /** The process's own state (effect `client-state`); a crash starts a fresh process without it. */
  private statics = new Map<string, unknown>();
  private readonly setup: RedisSetup;
  /** @internal the bounded wait every command of this process yields (SignalWait.set: read at once by the engine). */
  readonly commandWait = new SignalWait<RedisReply>(new Signal<RedisReply>('unused'), 0);

  constructor(
    readonly name: string,
    private readonly sim: Simulation,
    private readonly params: ClientParams,
    initialPrimary: RedisNode,
    /** Independent masters (Redlock); empty outside such a deployment. */
    private readonly masters: readonly RedisNode[],
    private readonly fabric: Fabric,
    private readonly database: Database,
    private readonly dependencies: ReadonlyMap<string, Dependency>,
    private readonly hooks: ClientHooks,
  ) {
    this.group = sim.group(name);
    this.pool = new ConnectionPool(params.poolSize);
    this.clock = new LocalClock(sim);
    this.primary = initialPrimary;
    this.setup = { commandTimeoutUs: params.commandTimeoutUs, replicated: params.replicated };
  }

  get primaryView(): RedisNode {
    return this.primary;
  }

  /** Told when the process learns of a new primary (own-code's user clients). */
  readonly primarySwitchListeners: Array<() => void> = [];

  /** The client reconnects to a new primary (after Sentinel told it) and resubscribes. */
  switchPrimary(node: RedisNode): void {
    if (node === this.primary) return;
    for (const unsubscribe of this.subscriptions.values()) unsubscribe();
    const channels = [...this.subscriptions.keys()];
    this.subscriptions.clear();
    this.primary = node;
    if (this.up) for (const channel of channels) this.subscribeAtNode(channel);
    for (const listener of this.primarySwitchListeners) listener();
  }

  /** Starts a thread of this process that runs an effect program. */
  startThread(thread: ThreadContext, program: ProcessGenerator<unknown>): Process<unknown> {
    return this.sim.spawn(thread.name, program, this.group);
  }

  /** kill -9: threads, pool, subscriptions, ioredis sockets and replies in flight are gone. */
  crash(): void {
    if (!this.up) return;
    this.up = false;
    this.incarnation++;
    this.group.kill();
    this.database.abortOwners(`${this.name}/`);
    // Its kernel closes the sockets: what they carry to the servers still arrives.
    for (const connection of this.ioredis.values()) connection.dispose();
    this.ioredis.clear();
    for (const unsubscribe of this.subscriptions.values()) unsubscribe();
    this.subscriptions.clear();
    this.latches.clear();
    this.background.clear();
    this.statics.clear();
  }

  /** A fresh process after a crash; the caller starts its workers again. */
  restart(): void {
    if (this.up) return;
    this.up = true;
    this.group = this.sim.group(this.name);
    this.pool = new ConnectionPool(this.params.poolSize);
  }

  /**
   * Interprets an effect program on the calling thread (thread-run.ts: the effects every
   * request makes are plain calls there, the rarer ones this host's generators, `perform`).
   */
  run<T>(program: EffectProgram<T>, thread: ThreadContext): ProcessGenerator<T> {
    return new ThreadRun(this, program, thread);
  }

  /** @internal the independent masters (Redlock), for ThreadRun. */
  get independentMasters(): readonly RedisNode[] {
    return this.masters;
  }

  /** @internal the client's command timeout, for ThreadRun. */
  get commandTimeoutUs(): number {
    return this.params.commandTimeoutUs;
  }

  /** @internal the simulated time now, for ThreadRun. */
  get nowUs(): number {
    return this.sim.nowUs;
  }

  /** @internal immediate() for ThreadRun: the answer of an effect that takes no simulated time, or WAITS. */
  answerNow(effect: Effect, thread: ThreadContext): unknown {
    return this.immediate(effect, thread);
  }

  /** @internal one call of the dependency `name`: how long it takes. */
  dependencyCallUs(name: string): number {
    return this.dependencyOf(name).callLatencyUs();
  }

  /** @internal a statement of `owner` sent to the database (its machinery, Database.statement); the signal is its reply. */
  statement(statement: DbStatement, owner: string): Signal<DbResult> {
    return this.database.statement(this.sim, statement, owner);
  }

  /** @internal a thread read the result of `reply`, a statement it alone waited for (Database.statementRead). */
  statementRead(reply: Signal<DbResult>): void {
    this.database.statementRead(reply);
  }

  /** This client's random stream `<client>/<stream>` (RandomStreams.fork), remembered by `stream`. */
  private namedStream(stream: string): RandomStream {
    let rng = this.streams.get(stream);
    if (rng === undefined) {
      rng = this.sim.random.fork(`${this.name}/${stream}`);
      this.streams.set(stream, rng);
    }
    return rng;
  }

  private dependencyOf(name: string): Dependency {
    const dependency = this.dependencies.get(name);
    if (!dependency) throw new Error(`unknown dependency ${name}`);
    return dependency;
  }

  /** The answer of an effect that takes no simulated time, or WAITS. */
  protected immediate(effect: Effect, thread: ThreadContext): unknown {
    switch (effect.kind) {
      case 'clock':
        return this.clock.nowMs();
      case 'random':
        // A named stream of this client (`<client>/<stream>`); fork returns the same one each
        // time, so it is looked up once per name (no name built per draw).
        return effect.stream === undefined ? thread.rng.next() : this.namedStream(effect.stream).next();
      case 'redis-setup':
        return this.setup;
      case 'current-request':
        return thread.requestTag;
      case 'client-state': {
        let state = this.statics.get(effect.name);
        if (state === undefined) {
          state = effect.create();
          this.statics.set(effect.name, state);
        }
        return state;
      }
      case 'redis-send':
        this.sendCommand(this.primary, effect.command, thread.requestTag);
        return undefined;
      case 'masters':
        return Math.max(1, this.masters.length);
      case 'replicas':
        return this.primary.connectedReplicas();
      case 'note':
        this.hooks.note(this, effect.request === undefined ? thread : { ...thread, requestTag: effect.request }, effect.f, effect.ok, effect.detail);
        return undefined;
      case 'unsubscribe': {
        const latch = this.latches.get(effect.channel);
        if (latch && latch.waiters.length > 0) return undefined; // other threads still wait
        this.subscriptions.get(effect.channel)?.();
        this.subscriptions.delete(effect.channel);
        this.latches.delete(effect.channel);
        return undefined;
      }
      case 'spawn': {
        const handle = this.nextHandle++;
        const name = effect.detached ? `${this.name}/${effect.name}` : `${thread.name}/${effect.name}`;
        // A detached thread draws from a stream of its own name, not from the spawning thread's.
        const child: ThreadContext = effect.detached ? { name, rng: this.sim.random.fork(name), requestTag: name } : { ...thread, name };
        const p = this.sim.spawn(child.name, this.run(effect.program(), child), this.group);
        this.background.set(handle, p);
        return handle;
      }
      case 'cancel':
        this.background.get(effect.handle)?.kill();
        this.background.delete(effect.handle);
        return undefined;
      default:
        return WAITS;
    }
  }

  /**
   * @internal effects that take simulated time (or may: a crash point) and that ThreadRun does
   * not interpret itself.
   */
  *perform(effect: Effect, thread: ThreadContext): ProcessGenerator<unknown> {
    switch (effect.kind) {
      case 'redis-each':
        return yield* this.redisEach(effect.command, thread.requestTag, effect.wait);
      case 'subscribe': {
        if (!this.subscriptions.has(effect.channel)) this.subscribeAtNode(effect.channel);
        // SUBSCRIBE is confirmed after a round trip to the node.
        yield* this.redisCall(['PING'], thread.requestTag, this.primary, this.params.commandTimeoutUs);
        return undefined;
      }
      case 'await-message':
        return yield* this.awaitMessage(effect.channel, effect.timeoutUs);
      case 'crash-point':
        if (this.hooks.crashPoint(this, thread, effect.point)) {
          // This thread died with its process: wait on something that never happens.
          yield new Signal<never>('dead');
        }
        return undefined;
      default:
        throw new Error(`effect ${effect.kind} has no asynchronous interpretation`);
    }
  }

  /** The independent masters (Redlock), or this client's primary: the nodes own-code clients talk to. */
  get lockNodes(): readonly RedisNode[] {
    return this.masters.length > 0 ? this.masters : [this.primary];
  }

  /** One command on this process's connection to `node`. */
  sendCommand(node: RedisNode, command: string[], tag: string): Signal<RedisReply> {
    // NodeConnection.command's legs, as one object (command-trip.ts); a reply addressed to an
    // earlier incarnation of this process is dropped.
    const connection = node === this.lastNode ? (this.lastConnection as NodeConnection) : this.connectionTo(node);
    const spare = this.spareTrips.pop();
    const trip = spare === undefined ? new CommandTrip(this, this.incarnation, connection, node, command, tag) : spare.reuse(this.incarnation, connection, node, command, tag);
    return trip.start();
  }

  /**
   * @internal a thread read the reply of `reply`, a command of this process that it alone
   * waited for (ThreadRun): a CommandTrip fires only when its reply arrived back, so it is out
   * of every link and node and is refilled for a later command instead of dropped.
   */
  replyRead(reply: Signal<RedisReply>): void {
    if (reply instanceof CommandTrip && this.spareTrips.length < SPARE_TRIPS) this.spareTrips.push(reply);
  }

  private *redisCall(command: string[], tag: string, node: RedisNode, timeoutUs: number): ProcessGenerator<RedisOutcome> {
    const reply = this.sendCommand(node, command, tag);
    const r = yield this.commandWait.set(reply, timeoutUs);
    return r === TIMED_OUT ? TIMEOUT_OUTCOME : replyOutcome(r as RedisReply);
  }

  /** Each reply awaited until a common deadline. */
  private *awaitAll(replies: Signal<RedisReply>[], deadlineUs: number): ProcessGenerator<RedisOutcome[]> {
    const outcomes: RedisOutcome[] = [];
    for (const reply of replies) {
      if (!reply.fired) yield this.commandWait.set(reply, Math.max(0, deadlineUs - this.sim.nowUs));
      outcomes.push(reply.fired ? { status: 'ok', reply: reply.value as RedisReply } : { status: 'timeout' });
    }
    return outcomes;
  }

  /**
   * The same command to every master at the same instant. With a deadline, each reply is
   * awaited until it; otherwise the commands go over this process's ioredis connections and
   * the wait ends when every master answered, or when a quorum decided (see EachWait).
   */
  protected *redisEach(command: string[], tag: string, wait: EachWait): ProcessGenerator<EachOutcome[]> {
    const nodes = this.masters.length > 0 ? this.masters : [this.primary];
    if (wait.until === 'deadline') {
      const replies = nodes.map((node) => this.sendCommand(node, command, tag));
      return yield* this.awaitAll(replies, this.sim.nowUs + wait.timeoutUs);
    }
    const outcomes: EachOutcome[] = nodes.map(() => ({ status: 'pending' }));
    // The outcomes as they stood when the wait ended: later replies change nothing the caller sees.
    const decided = new Signal<EachOutcome[]>('redis-each');
    let answered = 0;
    let votesFor = 0;
    nodes.forEach((node, i) =>
      this.ioredisTo(node).send(command, tag, (outcome) => {
        if (decided.fired) return;
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

  /** The network path from this process to `node`, its latencies drawn from the stream `stream` (own-code's ioredis clients). */
  tcpPath(stream: string): TcpPath {
    return { sim: this.sim, fabric: this.fabric, latency: this.params.redisLatency, rng: this.sim.random.fork(stream) };
  }

  /** This process's ioredis connection to `node` (node-redlock's clients), opened on first use. */
  ioredisTo(node: RedisNode): IoredisConnection {
    let connection = this.ioredis.get(node);
    if (!connection) {
      const path = this.tcpPath(`ioredis/${this.name}->${node.name}`);
      connection = new IoredisConnection(path, this.name, node, this.group);
      this.ioredis.set(node, connection);
    }
    return connection;
  }

  private *awaitMessage(channel: string, timeoutUs: number | null): ProcessGenerator<'message' | 'timeout'> {
    const latch = this.latchFor(channel);
    if (latch.permits > 0) {
      latch.permits--;
      return 'message';
    }
    const turn = new Signal<true>('latch');
    latch.waiters.push(turn);
    const r = yield timeoutUs === null ? turn : new SignalWait(turn, timeoutUs);
    if (r === TIMED_OUT) {
      latch.waiters = latch.waiters.filter((w) => w !== turn);
      return 'timeout';
    }
    return 'message';
  }

  protected latchFor(channel: string): Latch {
    let latch = this.latches.get(channel);
    if (!latch) {
      latch = new Latch();
      this.latches.set(channel, latch);
    }
    return latch;
  }

  protected subscribeAtNode(channel: string): void {
    const node = this.primary;
    const link = this.connectionTo(node);
    const incarnation = this.incarnation;
    let unsubscribe: (() => void) | null = null;
    let cancelled = false;
    this.subscriptions.set(channel, () => {
      cancelled = true;
      unsubscribe?.();
    });
    link.out.send(() => {
      if (cancelled || !node.up) return;
      unsubscribe = node.subscribe(channel, () =>
        link.back.send(() => {
          if (this.incarnation !== incarnation) return;
          const latch = this.latchFor(channel);
          const waiter = latch.waiters.shift();
          if (waiter) waiter.fire(true);
          else latch.permits++;
        }),
      );
    });
  }

  /** This process's connection to `node`, one stream of draws for both ways, opened on first use. */
  connectionTo(node: RedisNode): NodeConnection {
    let connection = this.connections.get(node);
    if (connection) {
      this.lastNode = node;
      this.lastConnection = connection;
    } else {
      const rng = this.sim.random.fork(`link/${this.name}<->${node.name}`);
      connection = new NodeConnection(
        node,
        new Link(this.name, node.name, this.sim, this.fabric, this.params.redisLatency, rng),
        new Link(node.name, this.name, this.sim, this.fabric, this.params.redisLatency, rng),
      );
      this.connections.set(node, connection);
      this.lastNode = node;
      this.lastConnection = connection;
    }
    return connection;
  }
}
