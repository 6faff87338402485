/**
 * The world's command API as plain data. Lock protocols and guards are generators that
 * yield these effects and never touch the world; a client host interprets them (and a
 * future interpreter could send them to a real Redis through ioredis).
 */
import type { Signal } from '../engine/signal.js';
import type { ClientHost } from './client-host.js';
import type { RedisReply } from './redis/reply.js';
import type { DbStatement } from './database.js';

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
  /**
   * One statement; returns a DbResult. As with `wait`, a hot program may yield one such
   * object again and again, its statement set anew each time: it is read at once.
   */
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
 * How a protocol issues an effect, everywhere: it yields an effect made here and reads the
 * answer with the type the effect's comment gives, `const r = (yield primaryCommand(['GET', key])) as RedisOutcome`.
 * Effects without parameters are constants made once (the interpreter only reads effects, and
 * these are yielded on every lock call); the others are made by plain functions. No helper
 * generator: a `yield*` per effect made a generator per call under the hottest paths.
 */
/** Returns the client's local clock, in milliseconds (a number). */
export const CLOCK_EFFECT: Effect = { kind: 'clock' };
/** Returns the request the calling thread serves (a string). */
export const CURRENT_REQUEST_EFFECT: Effect = { kind: 'current-request' };
/** Returns how the client reaches Redis (a RedisSetup). */
export const REDIS_SETUP_EFFECT: Effect = { kind: 'redis-setup' };
/** Returns how many independent masters there are (a number). */
export const MASTERS_EFFECT: Effect = { kind: 'masters' };
/** Returns how many replicas the client knows its primary to have (a number). */
export const REPLICAS_EFFECT: Effect = { kind: 'replicas' };
/** Returns a uniform number in [0, 1) from the calling thread's stream. */
export const RANDOM_EFFECT: Effect = { kind: 'random' };

/**
 * One command on the primary; returns a RedisOutcome. The command array is not copied (the
 * interpreter never changes it), so a hot path may pass one made once.
 */
export const primaryCommand = (command: readonly string[]): Effect => ({ kind: 'redis', target: 'primary', command: command as string[] });

/** One command on the primary, its reply awaited `timeoutUs`; returns a RedisOutcome. */
export const timedCommand = (command: string[], timeoutUs: number): Effect => ({ kind: 'redis', target: 'primary', command, timeoutUs });

/** Commands back to back on the primary's connection, awaited until one deadline; returns RedisOutcome[]. */
export const pipeline = (commands: string[][], timeoutUs: number): Effect => ({ kind: 'redis-pipeline', commands, timeoutUs });

/** Fire and forget; returns at once. */
export const redisSend = (command: string[]): Effect => ({ kind: 'redis-send', command });

/** What a Redis client library is configured with. */
export interface RedisSetup {
  /** The command timeout (`network.command-timeout`), in microseconds. */
  commandTimeoutUs: number;
  /** Configured with replicas behind a primary (Sentinel, Cluster), not a single server. */
  replicated: boolean;
}

/** One command to each independent master in parallel (see the effect and EachWait); returns EachOutcome[]. */
export const redisEach = (wait: EachWait, command: string[]): Effect => ({ kind: 'redis-each', command, wait });

/** Returns after `us` of simulated time. */
export const sleep = (us: number): Effect => ({ kind: 'sleep', us });

/** A uniform number in [0, 1): from the calling thread's stream, or with `stream` from this client's stream of that name. */
export const random = (stream?: string): Effect => (stream === undefined ? RANDOM_EFFECT : { kind: 'random', stream });

/** Returns 'message' or 'timeout' (see the effect). */
export const awaitMessage = (channel: string, timeoutUs: number | null): Effect => ({ kind: 'await-message', channel, timeoutUs });

/** Returns once the subscription is confirmed. */
export const subscribe = (channel: string): Effect => ({ kind: 'subscribe', channel });

export const unsubscribe = (channel: string): Effect => ({ kind: 'unsubscribe', channel });

/** Calls the scenario's dependency `dependency` (a risk check, a payment service); returns when it answers. */
export const dependencyCall = (dependency: string): Effect => ({ kind: 'call', dependency });

/** Runs `program` as a background thread of the client; returns its handle (a number). */
export const spawn = (name: string, program: () => EffectProgram<void>, detached = false): Effect =>
  detached ? { kind: 'spawn', name, program, detached } : { kind: 'spawn', name, program };

/** A `client-state` effect, made once (a module constant): returns the state, made by `create` on first use. */
export const clientStateEffect = <T>(name: string, create: () => T): Effect => ({ kind: 'client-state', name, create });

export const cancel = (handle: number): Effect => ({ kind: 'cancel', handle });

export const crashPoint = (point: string): Effect => ({ kind: 'crash-point', point });

export const note = (f: NoteKind, ok: boolean, detail: string, request?: string): Effect =>
  request === undefined ? { kind: 'note', f, ok, detail } : { kind: 'note', f, ok, detail, request };
