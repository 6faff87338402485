/**
 * The world's command API as plain data. Lock protocols and guards are generators that
 * yield these effects and never touch the world; a client host interprets them (and a
 * future interpreter could send them to a real Redis through ioredis).
 */
import type { Signal } from '../engine/signal.js';
import type { ClientHost } from './client-host.js';
import type { RedisReply } from './redis/reply.js';
import type { DbResult, DbStatement } from './database.js';

/**
 * Which Redis node a command goes to: the primary as this client currently sees it, or
 * one of the independent masters of a Redlock deployment by index.
 */
export type RedisTarget = 'primary' | number;

export type Effect =
  /** One command; the reply is awaited `timeoutUs` (default: the client's command timeout). */
  | { kind: 'redis'; target: RedisTarget; command: string[]; timeoutUs?: number }
  /**
   * Commands written back to back on the primary's connection (a pipeline, as a Redisson
   * batch sends them): they reach the server in order; each reply is awaited until one
   * common deadline, `timeoutUs` after sending. Returns one outcome per command, in order.
   */
  | { kind: 'redis-pipeline'; commands: string[][]; timeoutUs: number }
  /** A command whose reply nobody waits for (fire and forget); returns at once. */
  | { kind: 'redis-send'; command: string[] }
  /** How the client is configured to reach Redis (see RedisSetup). */
  | { kind: 'redis-setup' }
  /** The request the calling thread serves (how the history names it). */
  | { kind: 'current-request' }
  /**
   * The same command to every independent master at once (Redlock's multiplexing), awaited
   * as `wait` says. Returns one outcome per master, in index order.
   */
  | { kind: 'redis-each'; command: string[]; wait: EachWait }
  /** How many independent masters there are (1 outside a Redlock deployment). */
  | { kind: 'masters' }
  /** How many replicas the client knows its primary to have (0 for a standalone server). */
  | { kind: 'replicas' }
  | { kind: 'db'; statement: DbStatement }
  | { kind: 'call'; dependency: string }
  /**
   * Waits for a signal of the world (an idle worker's wake-up) and returns its value. A
   * program may yield one such object again and again, set anew each time: it is read at once.
   */
  | { kind: 'wait'; signal: Signal<unknown> }
  | { kind: 'sleep'; us: number }
  /** The client's local clock, in milliseconds. */
  | { kind: 'clock' }
  /**
   * A uniform number in [0, 1) from the calling thread's seeded stream, or, with `stream`,
   * from this client's stream of that name (a new source of draws that shifts no other).
   */
  | { kind: 'random'; stream?: string }
  /** SUBSCRIBE: returns once the subscription is confirmed (a round trip). */
  | { kind: 'subscribe'; channel: string }
  | { kind: 'unsubscribe'; channel: string }
  /**
   * Take one permit of this client's latch for `channel`, waiting at most `timeoutUs`
   * (null: forever). Each message received on the channel releases one permit, like the
   * Semaphore in Redisson's RedissonLockEntry.
   */
  | { kind: 'await-message'; channel: string; timeoutUs: number | null }
  /**
   * Runs `program` as a background thread of the same client (a watchdog); returns a handle.
   * `detached`: a thread of the client itself rather than of the calling thread (named
   * `<client>/<name>`, writing under that name), as a timer shared by every lock of a client.
   */
  | { kind: 'spawn'; name: string; program: () => EffectProgram<void>; detached?: boolean }
  | { kind: 'cancel'; handle: number }
  /** A named point where a crash fault may strike (e.g. between SETNX and EXPIRE). */
  | { kind: 'crash-point'; point: string }
  /**
   * State that lives in the client process itself, one object per `name` (a library's static
   * maps: Redisson's renewal registry, its cached replica count). `create` makes it on first
   * use; a crash (a new process) starts from nothing again.
   */
  | { kind: 'client-state'; name: string; create: () => unknown }
  /**
   * Something the history should show (watchdog renewals, lock loss noticed), on behalf of
   * `request` (default: the calling thread's request).
   */
  | { kind: 'note'; f: NoteKind; ok: boolean; detail: string; request?: string }
  /**
   * A call into user lock code (src/own-code): `start` sets it off on behalf of the calling
   * thread's request with the client process itself, and the thread waits for the signal.
   * Only own-code locks yield it; the built-in protocols never see the client host.
   */
  | { kind: 'own-code'; start: (host: ClientHost, requestTag: string) => Signal<unknown> };

export type NoteKind = 'renew';

export type RedisOutcome =
  | { status: 'ok'; reply: RedisReply }
  /** No reply within the command timeout: the command may or may not have executed. */
  | { status: 'timeout' };

/**
 * How a `redis-each` waits for the masters' replies.
 * - `deadline`: each reply at most `timeoutUs` after the sending (the Redlock spec's
 *   per-instance timeout); a late one counts as `timeout`.
 * - `all`: every reply, however long it takes (node-redlock 4.2.0 counts callbacks until the
 *   last one). Commands travel over ioredis connections with its defaults: no command
 *   timeout, offline queue, reconnects (see ioredis-connection.ts).
 * - `quorum`: as soon as `quorum` replies equal `vote`, or `quorum` replies do not
 *   (node-redlock 5.0.0-beta.2 `_attemptOperation`); ioredis connections as for `all`.
 *   Masters that have not answered by then are `pending`: their late replies are dropped,
 *   but what the command did on the server stays.
 */
export type EachWait =
  | { until: 'deadline'; timeoutUs: number }
  | { until: 'all' }
  | { until: 'quorum'; quorum: number; vote: string | number };

export type EachOutcome =
  | RedisOutcome
  /** The client library failed the command without a reply (ioredis MaxRetriesPerRequestError): it may or may not have run. */
  | { status: 'error'; message: string }
  /** No answer yet when a quorum decided. */
  | { status: 'pending' };

/** A protocol step: a generator of effects that returns T. */
export type EffectProgram<T> = Generator<Effect, T, any>;

/**
 * Effects without parameters, made once: the interpreter only reads effects, and these are
 * yielded on every lock call (no allocation for them).
 */
const CLOCK: Effect = { kind: 'clock' };
const CURRENT_REQUEST: Effect = { kind: 'current-request' };
const REDIS_SETUP: Effect = { kind: 'redis-setup' };
const MASTERS: Effect = { kind: 'masters' };
const REPLICAS: Effect = { kind: 'replicas' };
const RANDOM: Effect = { kind: 'random' };

/**
 * The same effects for a hot path that yields them itself (`(yield CLOCK_EFFECT) as number`)
 * instead of through a helper: a helper's `yield*` makes a generator per call.
 */
export const CLOCK_EFFECT = CLOCK;
export const CURRENT_REQUEST_EFFECT = CURRENT_REQUEST;
export const REDIS_SETUP_EFFECT = REDIS_SETUP;
export const REPLICAS_EFFECT = REPLICAS;

/** A `client-state` effect made once (a module constant) for a hot path to yield itself. */
export const clientStateEffect = <T>(name: string, create: () => T): Effect => ({ kind: 'client-state', name, create });

/** Typed helpers so protocol code reads as calls: `const r = yield* redis('GET', key)`. */
export function* redis(...command: string[]): EffectProgram<RedisOutcome> {
  return (yield { kind: 'redis', target: 'primary', command }) as RedisOutcome;
}

/**
 * The effect of one command on the primary, for a hot path that yields it itself
 * (`(yield primaryCommand([...])) as RedisOutcome`): no helper generator and no argument
 * copy per command. The interpreter never changes the array.
 */
export const primaryCommand = (command: readonly string[]): Effect => ({ kind: 'redis', target: 'primary', command: command as string[] });

/** Fire and forget. */
export function* redisSend(...command: string[]): EffectProgram<void> {
  yield { kind: 'redis-send', command };
}

/** What a Redis client library is configured with. */
export interface RedisSetup {
  /** The command timeout (`network.command-timeout`), in microseconds. */
  commandTimeoutUs: number;
  /** Configured with replicas behind a primary (Sentinel, Cluster), not a single server. */
  replicated: boolean;
}

export function* currentRequest(): EffectProgram<string> {
  return (yield CURRENT_REQUEST) as string;
}

export function* redisSetup(): EffectProgram<RedisSetup> {
  return (yield REDIS_SETUP) as RedisSetup;
}

/** One command to each independent master in parallel (see the effect and EachWait). */
export function* redisEach(wait: EachWait, ...command: string[]): EffectProgram<EachOutcome[]> {
  return (yield { kind: 'redis-each', command, wait }) as EachOutcome[];
}

export function* masterCount(): EffectProgram<number> {
  return (yield MASTERS) as number;
}

export function* replicaCount(): EffectProgram<number> {
  return (yield REPLICAS) as number;
}

export function* db(statement: DbStatement): EffectProgram<DbResult> {
  return (yield { kind: 'db', statement }) as DbResult;
}

export function* sleep(us: number): EffectProgram<void> {
  yield { kind: 'sleep', us };
}

export function* localClockMs(): EffectProgram<number> {
  return (yield CLOCK) as number;
}

export function* random(stream?: string): EffectProgram<number> {
  return (yield stream === undefined ? RANDOM : { kind: 'random', stream }) as number;
}

export function* awaitMessage(channel: string, timeoutUs: number | null): EffectProgram<'message' | 'timeout'> {
  return (yield { kind: 'await-message', channel, timeoutUs }) as 'message' | 'timeout';
}

export function* subscribe(channel: string): EffectProgram<void> {
  yield { kind: 'subscribe', channel };
}

export function* unsubscribe(channel: string): EffectProgram<void> {
  yield { kind: 'unsubscribe', channel };
}

export function* spawn(name: string, program: () => EffectProgram<void>, detached = false): EffectProgram<number> {
  return (yield detached ? { kind: 'spawn', name, program, detached } : { kind: 'spawn', name, program }) as number;
}

export function* clientState<T>(name: string, create: () => T): EffectProgram<T> {
  return (yield { kind: 'client-state', name, create }) as T;
}

export function* cancel(handle: number): EffectProgram<void> {
  yield { kind: 'cancel', handle };
}

export function* crashPoint(point: string): EffectProgram<void> {
  yield { kind: 'crash-point', point };
}

export function* note(f: NoteKind, ok: boolean, detail: string, request?: string): EffectProgram<void> {
  yield request === undefined ? { kind: 'note', f, ok, detail } : { kind: 'note', f, ok, detail, request };
}
