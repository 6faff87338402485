/**
 * What every lock protocol provides: acquire and release as effect programs. A protocol
 * never sees the world; the client host interprets its effects.
 */
import type { VariantSpec } from '../spec/variant.js';
import type { EffectProgram } from '../world/effects.js';

/**
 * A variant's lock options: lease (null: the protocol's default, Redisson: watchdog),
 * wait budget (0 tries once, Infinity never gives up), polling interval, and the options
 * of Redisson and Redlock.
 */
export type LockParams = Pick<
  VariantSpec,
  | 'leaseMs'
  | 'waitMs'
  | 'retryIntervalMs'
  | 'syncReplicas'
  | 'watchdogOnError'
  | 'redlockVersion'
  | 'redissonVersion'
  | 'commandRetries'
  | 'commandRetryIntervalMs'
  | 'lockWatchdogTimeoutMs'
  | 'slavesSyncTimeoutMs'
  | 'retryCount'
  | 'retryDelayMs'
  | 'retryJitterMs'
  | 'driftFactor'
  | 'instanceTimeoutMs'
  | 'permits'
  | 'threadWaitTimeMs'
  | 'lockOrder'
>;

/** One acquisition attempt's identity. */
export interface LockHandle {
  key: string;
  /** A multi-lock's keys (a cart's SKUs), in the order it takes them; `key` is the first. Absent: `key` alone. */
  keys?: readonly string[];
  /** A token unique to this acquisition (what token locks store as the value). */
  token: string;
  /** "<client uuid>:<thread id>": Redisson's hash field, the same for every acquisition of a thread. */
  threadOwner: string;
  /** The lease actually requested, filled by acquire (null: none). */
  leaseMs: number | null;
  /** The fencing token handed out with this acquisition (locks that mint them). */
  fence: number | null;
  /** A read-write lock's side for this request: `read` shares the lock with other readers (absent: write, exclusive). */
  mode?: 'read' | 'write';
}

export type AcquireResult =
  | { acquired: true }
  /** `unknown`: an error after the lock may have been taken (it is recorded as info, like a timeout). */
  | { acquired: false; reason: 'busy' | 'error' | 'timeout' | 'unknown'; detail: string };

export type ReleaseResult =
  | { released: true }
  | { released: false; reason: 'not-held' | 'timeout' | 'error'; detail: string };

export interface LockProtocol {
  readonly name: string;
  readonly summary: string;
  /** No lock at all: the flow records no critical section for it. */
  readonly noop?: boolean;
  /**
   * The server knows the owner by thread, not by acquisition (Redisson's hash field
   * "<client uuid>:<thread id>"): a thread re-enters a lock it already holds.
   */
  readonly reentrantByThread?: boolean;
  /**
   * A semaphore: the server's key counts free permits (the checker judges its permits from the
   * client's side: observers/permits.ts).
   */
  readonly countsPermits?: boolean;
  /**
   * Its keys name no one holder (a semaphore's counter, a read-write lock's hash of readers and
   * a writer): neither backend records key-state facts for it (runner/run.ts, the real key watch).
   */
  readonly namesNoHolder?: boolean;
  /** Its scripts are upstream's Lua text (the semaphores, the fair and read-write locks, RFencedLock, the multi-lock): the run's nodes get the Lua VM. */
  readonly upstreamLua?: boolean;
  /** A fair lock: it promises its waiters the lock in arrival order (the run's setup says so, for observers/fairness.ts). */
  readonly fair?: boolean;
  /**
   * A read-write lock: each request takes the read or the write side (LockHandle.mode).
   */
  readonly readWrite?: boolean;
  acquire(lock: LockHandle, params: LockParams): EffectProgram<AcquireResult>;
  release(lock: LockHandle, params: LockParams): EffectProgram<ReleaseResult>;
}
