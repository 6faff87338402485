/**
 * What every lock protocol provides: acquire and release as effect programs. A protocol
 * never sees the world; the client host interprets its effects.
 */
import type { EffectProgram } from '../world/effects.js';

export interface LockParams {
  /** Lease (TTL) in ms; null means the protocol's default (Redisson: watchdog). */
  leaseMs: number | null;
  /** How long acquire may keep trying, in ms; 0 tries once. */
  waitMs: number;
  /** Pause between attempts of polling locks, in ms. */
  retryIntervalMs: number;
}

/** One acquisition attempt's identity. */
export interface LockHandle {
  key: string;
  /** A token unique to this acquisition (what token locks store as the value). */
  token: string;
  /** "<client uuid>:<thread id>": Redisson's hash field, the same for every acquisition of a thread. */
  threadOwner: string;
  /** The lease actually requested, filled by acquire (null: none). */
  leaseMs: number | null;
  /** Background renewal thread, if any. */
  watchdog: number | null;
}

export type AcquireResult =
  | { acquired: true }
  | { acquired: false; reason: 'busy' | 'error' | 'timeout'; detail: string };

export type ReleaseResult =
  | { released: true }
  | { released: false; reason: 'not-held' | 'timeout' | 'error'; detail: string };

export interface LockProtocol {
  readonly name: string;
  readonly summary: string;
  acquire(lock: LockHandle, params: LockParams): EffectProgram<AcquireResult>;
  release(lock: LockHandle, params: LockParams): EffectProgram<ReleaseResult>;
}
