/**
 * A thread of a client process interpreting its effect program (what ClientHost.run returns):
 * the engine drives it as a process generator. Written as a state machine rather than a
 * generator: the effects every request makes (a command, a pipeline, a statement, a sleep, a
 * wait and the effects answered in place) are plain calls here, with one result object set
 * anew for each wait (the engine reads it at once), instead of a generator resume and a fresh
 * result object per wait. The rarer effects (subscribe, await-message, redis-each, crash
 * points) run as the host's generators (ClientHost.perform), delegated to as `yield*` would.
 */
import type { ProcessGenerator } from '../engine/process.js';
import { TIMED_OUT, type Signal, type Yieldable } from '../engine/signal.js';
import type { ConnectionPool } from './connection-pool.js';
import type { ClientHost, ThreadContext } from './client-host.js';
import type { DbResult, DbStatement } from './database.js';
import type { Effect, EffectProgram, RedisOutcome, RedisTarget } from './effects.js';
import type { RedisReply } from './redis/reply.js';

/** What ClientHost's `immediate` answers for an effect that takes simulated time. */
export const WAITS: unique symbol = Symbol('waits');

/** A command that got no reply in time. */
export const TIMEOUT_OUTCOME: RedisOutcome = { status: 'timeout' };
const OK_OK: RedisOutcome = { status: 'ok', reply: 'OK' };
const OK_NIL: RedisOutcome = { status: 'ok', reply: null };
const OK_0: RedisOutcome = { status: 'ok', reply: 0 };
const OK_1: RedisOutcome = { status: 'ok', reply: 1 };

/**
 * A reply as the outcome a lock protocol reads. Outcomes are only read, never changed or kept
 * apart from their reply: the commonest replies (OK, nil, 0, 1) share one object each.
 */
export function replyOutcome(r: RedisReply): RedisOutcome {
  if (r === 'OK') return OK_OK;
  if (r === null) return OK_NIL;
  if (r === 1) return OK_1;
  if (r === 0) return OK_0;
  return { status: 'ok', reply: r };
}

/** What the input of the next resumption answers (ThreadRun.pc). */
/** The program's own wait (a 'wait' or 'own-code' effect): the input goes to it as it is. */
const FEED = 0;
/** A command's reply, or TIMED_OUT. */
const REPLY = 1;
/** A sleep or a dependency call ended: the program gets undefined. */
const SLEPT = 2;
/** The pool's turn came: the statement is sent now. */
const DB_TURN = 3;
/** A statement's result. */
const DB_RESULT = 4;
/** One of a pipeline's replies came, or its deadline passed. */
const PIPELINE = 5;
/** A generator of the host's runs (`sub`). */
const SUB = 6;
const DONE = 7;
/** A connection of the client's pool came free: the command (or the pipeline) is sent now. */
const REDIS_TURN = 8;

/** The outcomes of no pipeline (between pipelines; never handed out). */
const NO_OUTCOMES: RedisOutcome[] = [];

export class ThreadRun<T> implements ProcessGenerator<T> {
  private pc = FEED;
  private readonly step: { done: boolean; value: Yieldable } = { done: false, value: 0 };
  /** The command whose reply the thread waits for (REPLY). */
  private trip: Signal<RedisReply> | null = null;
  /** The statement whose result the thread waits for (DB_RESULT). */
  private reply: Signal<DbResult> | null = null;
  /** The statement in progress (DB_TURN, DB_RESULT) and the pool its connection is from. */
  private statement: DbStatement | null = null;
  private pool: ConnectionPool | null = null;
  private keep = false;
  /** The pipeline in progress: its replies (one array per thread, emptied after), outcomes, deadline. */
  private readonly replies: Signal<RedisReply>[] = [];
  private outcomes: RedisOutcome[] = NO_OUTCOMES;
  private replyIndex = 0;
  private deadlineUs = 0;
  private sub: ProcessGenerator<unknown> | null = null;
  /** The pool the thread holds a connection of for its command or pipeline (null: none). */
  private slot: RedisTarget | null = null;
  /** The command or pipeline waiting for a connection of the pool (REDIS_TURN). */
  private pending: Effect | null = null;

  constructor(
    private readonly host: ClientHost,
    private readonly program: EffectProgram<T>,
    private readonly thread: ThreadContext,
  ) {}

  next(input?: unknown): IteratorResult<Yieldable, T> {
    switch (this.pc) {
      case FEED:
        break;
      case REPLY: {
        const trip = this.trip as Signal<RedisReply>;
        this.trip = null;
        this.releaseSlot();
        if (input === TIMED_OUT) {
          input = TIMEOUT_OUTCOME;
          this.host.transport.done(trip, true);
        } else {
          input = replyOutcome(input as RedisReply);
          this.host.transport.done(trip, false);
        }
        break;
      }
      case REDIS_TURN: {
        const effect = this.pending as Effect;
        this.pending = null;
        if (effect.kind === 'redis') return this.sendCommand(effect.target, effect.command, effect.timeoutUs);
        if (effect.kind !== 'redis-pipeline') throw new Error(`effect ${effect.kind} waits for no Redis connection`);
        const wait = this.sendPipeline(effect.commands, effect.timeoutUs);
        if (wait !== null) return wait;
        input = this.pipelineEnded();
        break;
      }
      case SLEPT:
        input = undefined;
        break;
      case DB_TURN:
        return this.sendStatement();
      case DB_RESULT:
        this.statementEnded();
        this.host.statementRead(this.reply as Signal<DbResult>);
        this.reply = null;
        break;
      case PIPELINE: {
        const reply = this.replies[this.replyIndex++];
        this.outcomes.push(reply.fired ? replyOutcome(reply.value as RedisReply) : TIMEOUT_OUTCOME);
        const wait = this.pipelineWait();
        if (wait !== null) return wait;
        input = this.pipelineEnded();
        break;
      }
      case SUB: {
        const r = (this.sub as ProcessGenerator<unknown>).next(input);
        if (r.done !== true) return r;
        this.sub = null;
        input = r.value;
        break;
      }
      default:
        return { done: true, value: undefined as T };
    }
    this.pc = FEED;
    return this.advance(input);
  }

  /** Runs the program with `input` until it waits for something that takes simulated time, or ends. */
  private advance(input: unknown): IteratorResult<Yieldable, T> {
    const host = this.host;
    const thread = this.thread;
    for (;;) {
      const r = this.program.next(input);
      if (r.done === true) {
        this.pc = DONE;
        return { done: true, value: r.value };
      }
      const effect = r.value;
      const kind = effect.kind;
      if (kind === 'redis') {
        // The commonest effect, tested before the effects answered in place (immediate()
        // answers WAITS for it). A pooled client's command first takes a connection.
        const turn = host.redisTurn(effect.target);
        if (turn !== null) return this.awaitConnection(effect, turn, effect.target);
        this.slot = effect.target;
        return this.sendCommand(effect.target, effect.command, effect.timeoutUs);
      }
      if (kind === 'sleep') {
        this.pc = SLEPT;
        return this.waitFor(effect.us);
      }
      const now = host.answerNow(effect, thread);
      if (now !== WAITS) {
        input = now;
        continue;
      }
      switch (effect.kind) {
        case 'wait':
          return this.waitFor(effect.signal);
        case 'redis-pipeline': {
          // A pipeline (Redisson's WAIT batches) holds one connection of the pool for all of it.
          const turn = host.redisTurn('primary');
          if (turn !== null) return this.awaitConnection(effect, turn, 'primary');
          this.slot = 'primary';
          const wait = this.sendPipeline(effect.commands, effect.timeoutUs);
          if (wait !== null) return wait;
          input = this.pipelineEnded();
          continue;
        }
        case 'db': {
          // A statement on a pooled connection. BEGIN pins a connection to the thread until
          // COMMIT or ROLLBACK, so a transaction holds its connection (and its row locks) for
          // its whole length. The statement runs in the database, outside this process: a GC
          // pause or kill -9 of the client does not stop it; only the handling of its reply waits.
          const pinned = thread.pinnedPool ?? null;
          const pool = pinned ?? host.pool;
          this.statement = effect.statement;
          this.pool = pool;
          this.keep = pinned !== null;
          if (!pinned) {
            const turn = pool.acquire();
            if (turn) {
              this.pc = DB_TURN;
              return this.waitFor(turn);
            }
          }
          return this.sendStatement();
        }
        case 'call':
          this.pc = SLEPT;
          return this.waitFor(host.dependencyCallUs(effect.dependency));
        case 'own-code':
          return this.waitFor(effect.start(host, thread.requestTag));
        default: {
          const sub = host.perform(effect, thread);
          const s = sub.next(undefined);
          if (s.done !== true) {
            this.sub = sub;
            this.pc = SUB;
            return s;
          }
          input = s.value;
        }
      }
    }
  }

  /** Waits for a connection of the pool to `target`; it is the thread's when the wait ends. */
  private awaitConnection(effect: Effect, turn: Signal<true>, target: RedisTarget): IteratorResult<Yieldable, T> {
    this.pending = effect;
    this.slot = target;
    this.pc = REDIS_TURN;
    return this.waitFor(turn);
  }

  /** The thread's connection of the pool goes back (a command's reply read, its timeout, a pipeline's end). */
  private releaseSlot(): void {
    const slot = this.slot;
    if (slot === null) return;
    this.slot = null;
    this.host.redisReleased(slot);
  }

  /** One command on its connection now; the thread waits for its reply until the command timeout. */
  private sendCommand(target: RedisTarget, command: readonly string[], timeoutUs: number | undefined): IteratorResult<Yieldable, T> {
    const host = this.host;
    const reply = host.transport.send(target, command, this.thread.requestTag);
    this.trip = reply;
    this.pc = REPLY;
    return this.waitFor(host.commandWait.set(reply, timeoutUs ?? host.commandTimeoutUs));
  }

  /**
   * A pipeline: every command written now, in order, on the primary's connection; each reply
   * awaited until one common deadline. Returns the wait for the first reply not in, or null.
   */
  private sendPipeline(commands: readonly (readonly string[])[], timeoutUs: number): IteratorResult<Yieldable, T> | null {
    const host = this.host;
    const replies = this.replies;
    const sent = host.transport.pipeline(commands, this.thread.requestTag);
    for (let i = 0; i < sent.length; i++) replies.push(sent[i]);
    this.deadlineUs = host.nowUs + timeoutUs;
    this.outcomes = [];
    this.replyIndex = 0;
    return this.pipelineWait();
  }

  private waitFor(value: Yieldable): IteratorResult<Yieldable, T> {
    const step = this.step;
    step.value = value;
    return step as IteratorResult<Yieldable, T>;
  }

  /** The statement leaves for the database (its connection is ours); its signal is the reply. */
  private sendStatement(): IteratorResult<Yieldable, T> {
    this.pc = DB_RESULT;
    try {
      const reply = this.host.statement(this.statement as DbStatement, this.thread.name);
      this.reply = reply;
      return this.waitFor(reply);
    } catch (err) {
      this.releaseConnection();
      throw err;
    }
  }

  /** The statement's result came: a transaction's BEGIN keeps the connection, its end gives it back. */
  private statementEnded(): void {
    const kind = (this.statement as DbStatement).kind;
    if (kind === 'begin') this.keep = true;
    if (kind === 'commit' || kind === 'rollback') this.keep = false;
    this.releaseConnection();
  }

  /** The connection stays pinned to the thread (an open transaction) or goes back to the pool. */
  private releaseConnection(): void {
    const pool = this.pool as ConnectionPool;
    this.thread.pinnedPool = this.keep ? pool : null;
    if (!this.keep) pool.release();
    this.statement = null;
    this.pool = null;
  }

  /** The wait for the pipeline's next reply not in yet, or null when every outcome is taken. */
  private pipelineWait(): IteratorResult<Yieldable, T> | null {
    const replies = this.replies;
    const host = this.host;
    while (this.replyIndex < replies.length) {
      const reply = replies[this.replyIndex];
      if (!reply.fired) {
        this.pc = PIPELINE;
        return this.waitFor(host.commandWait.set(reply, Math.max(0, this.deadlineUs - host.nowUs)));
      }
      this.outcomes.push(replyOutcome(reply.value as RedisReply));
      this.replyIndex++;
    }
    return null;
  }

  /** The pipeline's outcomes, in order; its answered commands are done with. */
  private pipelineEnded(): RedisOutcome[] {
    const replies = this.replies;
    const transport = this.host.transport;
    for (let i = 0; i < replies.length; i++) transport.done(replies[i], !replies[i].fired);
    replies.length = 0;
    this.releaseSlot();
    const outcomes = this.outcomes;
    this.outcomes = NO_OUTCOMES;
    return outcomes;
  }

  /** Thrown into the thread at its wait (the engine's interrupt): as the generator it replaces. */
  throw(err: unknown): IteratorResult<Yieldable, T> {
    if (this.pc === SUB) {
      let r: IteratorResult<Yieldable, unknown>;
      try {
        r = (this.sub as ProcessGenerator<unknown>).throw(err);
      } catch (e) {
        this.close();
        throw e;
      }
      if (r.done !== true) return r;
      this.sub = null;
      this.pc = FEED;
      return this.advance(r.value);
    }
    // A statement's wait is inside the try whose finally gives back the connection.
    if (this.pc === DB_RESULT) this.releaseConnection();
    this.close();
    throw err;
  }

  return(value: T): IteratorResult<Yieldable, T> {
    if (this.pc === SUB) (this.sub as ProcessGenerator<unknown>).return(undefined);
    if (this.pc === DB_RESULT) this.releaseConnection();
    this.close();
    return { done: true, value };
  }

  private close(): void {
    // A thread stopped while it held a pooled connection (an interrupt) gives it back; one
    // still waiting for a connection leaves the queue with its process (a crash ends the pool).
    if (this.pc !== REDIS_TURN) this.releaseSlot();
    this.slot = null;
    this.pending = null;
    this.pc = DONE;
    this.sub = null;
    this.trip = null;
    this.reply = null;
    this.replies.length = 0;
  }

  [Symbol.iterator](): this {
    return this;
  }
}
