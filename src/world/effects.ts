/**
 * The world's command API as plain data. Lock protocols and guards are generators that
 * yield these effects and never touch the world; a client host interprets them (and a
 * future interpreter could send them to a real Redis through ioredis).
 */
import type { RedisReply } from './redis/reply.js';
import type { DbResult, DbStatement } from './database.js';

/**
 * Which Redis node a command goes to: the primary as this client currently sees it, or
 * one of the independent masters of a Redlock deployment by index.
 */
export type RedisTarget = 'primary' | number;

export type Effect =
  | { kind: 'redis'; target: RedisTarget; command: string[] }
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
  | { kind: 'sleep'; us: number }
  /** The client's local clock, in milliseconds. */
  | { kind: 'clock' }
  /** A uniform number in [0, 1) from the calling thread's seeded stream. */
  | { kind: 'random' }
  /** SUBSCRIBE: returns once the subscription is confirmed (a round trip). */
  | { kind: 'subscribe'; channel: string }
  | { kind: 'unsubscribe'; channel: string }
  /**
   * Take one permit of this client's latch for `channel`, waiting at most `timeoutUs`
   * (null: forever). Each message received on the channel releases one permit, like the
   * Semaphore in Redisson's RedissonLockEntry.
   */
  | { kind: 'await-message'; channel: string; timeoutUs: number | null }
  /** Runs `program` as a background thread of the same client (a watchdog); returns a handle. */
  | { kind: 'spawn'; name: string; program: () => EffectProgram<void> }
  | { kind: 'cancel'; handle: number }
  /** A named point where a crash fault may strike (e.g. between SETNX and EXPIRE). */
  | { kind: 'crash-point'; point: string }
  /** Something the history should show (watchdog renewals, lock loss noticed). */
  | { kind: 'note'; f: NoteKind; ok: boolean; detail: string };

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

/** Typed helpers so protocol code reads as calls: `const r = yield* redis('GET', key)`. */
export function* redis(...command: string[]): EffectProgram<RedisOutcome> {
  return (yield { kind: 'redis', target: 'primary', command }) as RedisOutcome;
}

/** One command to each independent master in parallel (see the effect and EachWait). */
export function* redisEach(wait: EachWait, ...command: string[]): EffectProgram<EachOutcome[]> {
  return (yield { kind: 'redis-each', command, wait }) as EachOutcome[];
}

export function* masterCount(): EffectProgram<number> {
  return (yield { kind: 'masters' }) as number;
}

export function* replicaCount(): EffectProgram<number> {
  return (yield { kind: 'replicas' }) as number;
}

export function* db(statement: DbStatement): EffectProgram<DbResult> {
  return (yield { kind: 'db', statement }) as DbResult;
}

export function* sleep(us: number): EffectProgram<void> {
  yield { kind: 'sleep', us };
}

export function* localClockMs(): EffectProgram<number> {
  return (yield { kind: 'clock' }) as number;
}

export function* random(): EffectProgram<number> {
  return (yield { kind: 'random' }) as number;
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

export function* spawn(name: string, program: () => EffectProgram<void>): EffectProgram<number> {
  return (yield { kind: 'spawn', name, program }) as number;
}

export function* cancel(handle: number): EffectProgram<void> {
  yield { kind: 'cancel', handle };
}

export function* crashPoint(point: string): EffectProgram<void> {
  yield { kind: 'crash-point', point };
}

export function* note(f: NoteKind, ok: boolean, detail: string): EffectProgram<void> {
  yield { kind: 'note', f, ok, detail };
}
