/**
 * The contract between lock-sim and a user lock module (variants `lock: { module: ... }`).
 * The module exports a factory (default export, or the one `export:` names):
 *
 *   export default function makeLock(clients, options) { return { acquire, release } }
 *
 * lock-sim calls it once per simulated client process (again after a crash and restart),
 * with ioredis-compatible clients: one per master for `topology: independent`, else one
 * (talking to the primary the process currently knows). `acquire(key)` resolves to a handle
 * (anything but null/undefined/false) when the lock is taken, or null when it is not;
 * `release(handle, key)` resolves to true when the lock was released; the handle is null
 * when the request never got the lock (a variant with `unlock-always: true` unlocks in a
 * finally block anyway). Both may throw or reject: the request records the error and goes on.
 */

/** The subset of ioredis' `Redis` that lock-sim's simulated client provides (see docs/guides/own-code.md). */
export interface SimRedisClient {
  readonly options: { commandTimeout?: number; [option: string]: unknown };
  readonly status: string;
  call(command: string, ...args: Array<string | number>): Promise<unknown>;
  set(key: string, value: string | number, ...options: Array<string | number>): Promise<string | null>;
  get(key: string): Promise<string | null>;
  del(...keys: string[]): Promise<number>;
  exists(...keys: string[]): Promise<number>;
  expire(key: string, seconds: number, ...options: string[]): Promise<number>;
  pexpire(key: string, ms: number, ...options: string[]): Promise<number>;
  ttl(key: string): Promise<number>;
  pttl(key: string): Promise<number>;
  incr(key: string): Promise<number>;
  hset(key: string, ...fieldsAndValues: Array<string | number>): Promise<number>;
  hget(key: string, field: string): Promise<string | null>;
  hdel(key: string, ...fields: string[]): Promise<number>;
  hincrby(key: string, field: string, by: number): Promise<number>;
  hexists(key: string, field: string): Promise<number>;
  eval(script: string, numKeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
  evalsha(sha: string, numKeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
  script(subcommand: 'load' | 'LOAD' | 'exists' | 'EXISTS' | 'flush' | 'FLUSH', ...args: string[]): Promise<unknown>;
  defineCommand(name: string, definition: { lua: string; numberOfKeys?: number }): void;
  multi(): SimPipeline;
  publish(channel: string, message: string): Promise<number>;
  subscribe(...channels: string[]): Promise<number>;
  unsubscribe(...channels: string[]): Promise<number>;
  on(event: 'message', listener: (channel: string, message: string) => void): this;
  wait(replicas: number, timeoutMs: number): Promise<number>;
  info(section?: string): Promise<string>;
}

export interface SimPipeline {
  exec(): Promise<Array<[Error | null, unknown]> | null>;
  [command: string]: unknown;
}

/** The variant's options as the factory receives them. */
export interface OwnLockOptions {
  /** The variant's `lease` in ms (null: not given; the module picks its default). */
  leaseMs: number | null;
  /** The variant's `wait` in ms (Infinity: "forever"). */
  waitMs: number;
  /** The variant's `retry-interval` in ms. */
  retryIntervalMs: number;
  /** The scenario's `network.command-timeout` in ms, for a module that wants the same timeout as the built-in clients. */
  commandTimeoutMs: number;
  /** The variant's `permits`: how many requests the checker lets hold the key at once (null: not given, a mutex). */
  permits: number | null;
  /** The variant's `lock.options`, as written. */
  [option: string]: unknown;
}

export interface OwnLock<H = unknown> {
  acquire(key: string): Promise<H | null>;
  release(handle: H | null, key: string): Promise<boolean>;
}

export type OwnLockFactory<H = unknown> = (clients: SimRedisClient[], options: OwnLockOptions) => OwnLock<H> | Promise<OwnLock<H>>;
