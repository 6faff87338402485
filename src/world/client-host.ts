/**
 * An application process (a JVM, say) with worker threads, a connection pool, a local
 * clock and connections to Redis. It interprets the effects that lock protocols and the
 * request flow yield. Everything it runs belongs to one process group, so a GC pause
 * stops workers, watchdogs and reply handling together, and kill -9 ends them together.
 */
import type { ProcessGenerator, Process, ProcessGroup } from '../engine/process.js';
import type { RandomStream } from '../engine/random.js';
import { Signal, SignalWait, TIMED_OUT } from '../engine/signal.js';
import type { Simulation } from '../engine/simulation.js';
import type { Micros } from '../engine/time.js';
import { LocalClock } from './clock.js';
import { ConnectionPool } from './connection-pool.js';
import type { Database, DbResult, DbStatement } from './database.js';
import type { Dependency } from './dependency.js';
import type { EachOutcome, EachWait, Effect, EffectProgram, NoteKind, RedisOutcome, RedisSetup, RedisTarget } from './effects.js';
import type { RedisReply } from './redis/reply.js';
import { replyOutcome, ThreadRun, TIMEOUT_OUTCOME, WAITS } from './thread-run.js';
import type { RedisTransport } from './transport.js';

interface ClientParams {
  /** The database connection pool (HikariCP-like). */
  poolSize: number;
  commandTimeoutUs: Micros;
  /** Redis is a primary with replicas (Sentinel, Cluster) rather than single servers. */
  replicated: boolean;
  /**
   * Connections per Redis node of the client model's pool (client-model.ts poolSizeOf); null:
   * one multiplexed connection, no pool to wait for.
   */
  redisPoolSize: number | null;
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
class Latch {
  permits = 0;
  waiters: Signal<true>[] = [];
}

export class ClientHost<T extends RedisTransport = RedisTransport> {
  group: ProcessGroup;
  up = true;
  /** Bumped by every crash; replies addressed to an earlier incarnation are dropped. */
  incarnation = 0;
  pool: ConnectionPool;
  readonly clock: LocalClock;
  /** How this process's commands reach Redis (simulated or real), obeying its client model. */
  readonly transport: T;
  /** The client model's connection pool per Redis target (primary first, then each master); null: multiplexed. */
  private redisPools: ConnectionPool[] | null;
  /** This client's named random streams by their short name (a stream outlives a crash: it is the simulation's). */
  private readonly streams = new Map<string, RandomStream>();
  protected latches = new Map<string, Latch>();
  protected subscriptions = new Map<string, () => void>();
  private background = new Map<number, Process<unknown>>();
  private nextHandle = 1;
  /** The process's own state (effect `client-state`); a crash starts a fresh process without it. */
  private statics = new Map<string, unknown>();
  private readonly setup: RedisSetup;
  /** @internal the bounded wait every command of this process yields (SignalWait.set: read at once by the engine). */
  readonly commandWait = new SignalWait<RedisReply>(new Signal<RedisReply>('unused'), 0);

  constructor(
    readonly name: string,
    private readonly sim: Simulation,
    private readonly params: ClientParams,
    /** Makes the process's transport (it reads the process's name, incarnation and group). */
    transport: (host: ClientHost<T>) => T,
    private readonly database: Database,
    private readonly dependencies: ReadonlyMap<string, Dependency>,
    private readonly hooks: ClientHooks,
  ) {
    this.group = sim.group(name);
    this.pool = new ConnectionPool(params.poolSize);
    this.clock = new LocalClock(sim);
    this.setup = { commandTimeoutUs: params.commandTimeoutUs, replicated: params.replicated };
    this.transport = transport(this);
    this.redisPools = this.newRedisPools();
  }

  private newRedisPools(): ConnectionPool[] | null {
    const size = this.params.redisPoolSize;
    if (size === null) return null;
    return Array.from({ length: 1 + this.transport.masterCount }, () => new ConnectionPool(size));
  }

  /**
   * @internal a connection of the pool to `target` for the calling thread's next command: null
   * when one was free (it is the thread's now) or the client multiplexes; else what to wait for.
   */
  redisTurn(target: RedisTarget): Signal<true> | null {
    const pools = this.redisPools;
    return pools === null ? null : pools[target === 'primary' ? 0 : target + 1].acquire();
  }

  /** @internal the thread's command on `target` is over: its pooled connection goes back. */
  redisReleased(target: RedisTarget): void {
    const pools = this.redisPools;
    if (pools !== null) pools[target === 'primary' ? 0 : target + 1].release();
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
    this.transport.crashed();
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
    this.redisPools = this.newRedisPools();
  }

  /**
   * Interprets an effect program on the calling thread (thread-run.ts: the effects every
   * request makes are plain calls there, the rarer ones this host's generators, `perform`).
   */
  run<R>(program: EffectProgram<R>, thread: ThreadContext): ProcessGenerator<R> {
    return new ThreadRun(this, program, thread);
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
        this.transport.sendAndForget(effect.command, thread.requestTag);
        return undefined;
      case 'masters':
        return Math.max(1, this.transport.masterCount);
      case 'replicas':
        return this.transport.replicaCount();
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
        yield* this.redisCall(['PING'], thread.requestTag, 'primary', this.params.commandTimeoutUs);
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

  private *redisCall(command: string[], tag: string, target: RedisTarget, timeoutUs: number): ProcessGenerator<RedisOutcome> {
    const reply = this.transport.send(target, command, tag);
    const r = yield this.commandWait.set(reply, timeoutUs);
    this.transport.done(reply, r === TIMED_OUT);
    return r === TIMED_OUT ? TIMEOUT_OUTCOME : replyOutcome(r as RedisReply);
  }

  /**
   * Each reply awaited until a common deadline, and each done with as it is decided (the
   * transport frees its connection, or withdraws a command still waiting for one: a pool's
   * accounting, real-transport.ts; without it every reply held its pooled connection for good).
   */
  private *awaitAll(replies: Signal<RedisReply>[], deadlineUs: number): ProcessGenerator<RedisOutcome[]> {
    const outcomes: RedisOutcome[] = [];
    for (const reply of replies) {
      if (!reply.fired) yield this.commandWait.set(reply, Math.max(0, deadlineUs - this.sim.nowUs));
      outcomes.push(reply.fired ? { status: 'ok', reply: reply.value as RedisReply } : { status: 'timeout' });
      this.transport.done(reply, !reply.fired);
    }
    return outcomes;
  }

  /**
   * The same command to every master at the same instant. With a deadline, each reply is
   * awaited until it; otherwise the transport's ioredis connections carry them and the wait
   * ends when every master answered, or when a quorum decided (see EachWait).
   */
  protected *redisEach(command: string[], tag: string, wait: EachWait): ProcessGenerator<EachOutcome[]> {
    if (wait.until === 'deadline') {
      const count = Math.max(1, this.transport.masterCount);
      const replies = Array.from({ length: count }, (_, i) => this.transport.send(this.transport.masterCount > 0 ? i : 'primary', command, tag));
      return yield* this.awaitAll(replies, this.sim.nowUs + wait.timeoutUs);
    }
    return (yield this.transport.each(command, tag, wait)) as EachOutcome[];
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

  /** SUBSCRIBE through the transport; each message releases one latch permit (or wakes a waiter). */
  protected subscribeAtNode(channel: string): void {
    const incarnation = this.incarnation;
    const unsubscribe = this.transport.subscribe(channel, () => {
      if (this.incarnation !== incarnation) return;
      const latch = this.latchFor(channel);
      const waiter = latch.waiters.shift();
      if (waiter) waiter.fire(true);
      else latch.permits++;
    });
    this.subscriptions.set(channel, unsubscribe);
  }
}
