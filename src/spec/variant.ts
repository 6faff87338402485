/** A scenario's variants, resolved: which lock, guard and client each runs, with every option filled. */

/** The Redis client libraries a variant can run on (their models: world/client-model.ts). */
export type ClientModelName = 'jedis' | 'redisson' | 'ioredis';
export const CLIENT_MODEL_NAMES: readonly ClientModelName[] = ['jedis', 'redisson', 'ioredis'];

/** Which statements of `fenced-write` carry the fencing token to the storage (variants/guard.ts). */
export const FENCE_CHECKS = ['writes', 'reads-and-writes'] as const;
export type FenceCheck = (typeof FENCE_CHECKS)[number];

/** Which Redlock runs (variants option `redlock-version`; see variants/locks/redlock.ts). */
export const REDLOCK_VERSIONS = ['spec', 'v4', 'v5'] as const;
export type RedlockVersion = (typeof REDLOCK_VERSIONS)[number];

/** A variant's user lock module (`lock: { module: ... }`; src/own-code). */
export interface LockModuleSpec {
  /** The path as the scenario file gives it. */
  module: string;
  /** The absolute path it resolves to (from the scenario file's directory). */
  file: string;
  /** The factory export, as given (null: the default export). */
  export: string | null;
  /** `lock.keys`: the Redis keys the lock lives under, `{key}` for the request's key (null: the key itself). */
  keys: readonly string[] | null;
  /** `lock.options` as given (empty: none). */
  options: Record<string, unknown>;
  /** `lock.client`: the client family the factory receives (default ioredis). */
  client: 'ioredis' | 'node-redis' | 'node-redis@4' | 'node-redis@5';
  /** `lock.time-zone` and `lock.locale`: what Date's local time and Intl read in the module (default UTC, en-US). */
  timeZone: string;
  locale: string;
}

export interface VariantSpec {
  name: string;
  /** A built-in lock's name, or "module" for a user lock module (see lockModule). */
  lock: string;
  /** The user lock module of `lock: { module: ... }` (absent: a built-in lock). */
  lockModule?: LockModuleSpec;
  guard: string;
  leaseMs: number | null;
  /** How long acquire may keep trying (Infinity: forever, the anti-pattern). */
  waitMs: number;
  retryIntervalMs: number;
  /**
   * Unlock in a finally block that also runs when the lock was never acquired ("Redis atomicity failed?"'s
   * code): a request turned away deletes whoever holds the lock.
   */
  unlockAlways: boolean;
  /** Orders carry a UNIQUE order key: a second insert of one order fails. */
  uniqueOrderKey: boolean;
  /**
   * Redisson: checkLockSyncedSlaves, whether a WAIT that no replica acknowledged (or fewer than
   * asked, by version) fails the lock command. WAIT is sent either way.
   */
  syncReplicas: boolean;
  /** Redisson: after a failed renewal, stop (before 3.44) or keep renewing (3.44+). */
  watchdogOnError: 'stop' | 'continue';
  /** Redisson: the released version whose behaviour is modelled (variants/locks/redisson/versions.ts). */
  redissonVersion: string;
  /** Redisson: retryAttempts (null: the version's default). */
  commandRetries: number | null;
  /** Redisson: retryInterval in ms, a constant delay between re-sends (null: the version's delay). */
  commandRetryIntervalMs: number | null;
  /** Redisson: Config.lockWatchdogTimeout, the lease of a lock taken without one, renewed every third of it. */
  lockWatchdogTimeoutMs: number;
  /** Redisson: Config.slavesSyncTimeout (3.22.0+; 1000 ms before), the timeout of the WAIT after a lock script. */
  slavesSyncTimeoutMs: number;
  /** Redlock: which implementation, and its options (node-redlock's names). */
  redlockVersion: RedlockVersion;
  /** Redlock options (node-redlock's names). */
  retryCount: number;
  retryDelayMs: number;
  retryJitterMs: number;
  driftFactor: number;
  instanceTimeoutMs: number;
  /** version-cas: retries after a conflict, base backoff, and +- jitter. */
  casRetries: number;
  casBackoffMs: number;
  casJitterMs: number;
  /** fenced-write: which statements carry the fencing token. */
  fenceCheck: FenceCheck;
  /** The Redis client library the variant runs on (world/client-model.ts); null: a lock module's own client. */
  client: ClientModelName | null;
  /** Connections per node of the client's pool (null: the client model's default). */
  clientPool: number | null;
  /**
   * A semaphore's permits: how many requests may hold the key at once. Set for the semaphore
   * locks only (absent: a mutex, one holder), so a mutex's variant is the same data as before.
   */
  permits?: number;
  /**
   * Redisson's fair lock: threadWaitTime in ms (RedissonFairLock.java), set for redisson-fair only
   * (absent: the version's default, variants/locks/redisson-fair.ts defaultThreadWaitTimeMs).
   */
  threadWaitTimeMs?: number;
  /**
   * A multi-lock's order (lock redisson-multi only): its cart's keys as given, or sorted (one
   * order for every request). Absent for every other lock.
   */
  lockOrder?: 'as-given' | 'sorted';
}
