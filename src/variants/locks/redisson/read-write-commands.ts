/**
 * The EVAL commands of RReadWriteLock's scripts (read-write-scripts.ts) with the keys and
 * arguments each version sends them with (RedissonReadLock.java, RedissonWriteLock.java,
 * renewal/ReadLockTask.java; the tags are cited on each script's era). The protocol
 * (redisson-read-write.ts) and the conformance test (test/conformance/read-write-lock.test.ts)
 * both build them here, so the test runs what the model sends.
 */
import { atLeastVersion, eraAt } from './semaphore-scripts.js';
import {
  READ_ACQUIRE,
  READ_LOCK_TASK,
  READ_RENEW,
  READ_UNLOCK,
  READ_UNLOCK_MESSAGE,
  rwChannelOf,
  rwKeyPrefixOf,
  rwTimeoutPrefixOf,
  UNLOCK_MESSAGE,
  WRITE_ACQUIRE,
  WRITE_UNLOCK,
  writeFieldOf,
} from './read-write-scripts.js';

/** RedissonSubscribeService.getPublishCommand: PUBLISH (SPUBLISH only for a sharded cluster, not modelled). */
const PUBLISH = 'PUBLISH';

/** The latch of an unlock (3.24.0+): its key and how long it lives, in ms. */
export interface UnlockLatch {
  key: string;
  ms: number;
}

/** RedissonBaseLock.getUnlockLatchName, as RLock's (redisson.ts). */
export const rwLatchOf = (name: string, requestId: string): string => `redisson_unlock_latch:{${name}}:${requestId}`;

/** tryLockInnerAsync of the read lock: `lockName` is "<client uuid>:<thread id>". */
export function readAcquireCommand(version: string, name: string, leaseMs: number, lockName: string): string[] {
  return ['EVAL', eraAt(READ_ACQUIRE, version).lua, '2', name, rwTimeoutPrefixOf(name, lockName), String(leaseMs), lockName, writeFieldOf(lockName)];
}

/** unlockInnerAsync of the read lock; `latch` from 3.24.0 (null before). */
export function readUnlockCommand(version: string, name: string, lockName: string, latch: UnlockLatch | null): string[] {
  const keys = [name, rwChannelOf(name), rwTimeoutPrefixOf(name, lockName), rwKeyPrefixOf(name)];
  const argv = [UNLOCK_MESSAGE, lockName];
  if (atLeastVersion(version, '3.22.0')) argv.push(PUBLISH);
  if (atLeastVersion(version, '3.24.0') && latch !== null) {
    keys.push(latch.key);
    argv.push(String(latch.ms));
  }
  return ['EVAL', eraAt(READ_UNLOCK, version).lua, String(keys.length), ...keys, ...argv];
}

/** renewExpirationAsync of the read lock (the per-lock watchdog, before 3.44.0), for the entry's first thread. */
export function readRenewCommand(version: string, name: string, leaseMs: number, lockName: string): string[] {
  return ['EVAL', eraAt(READ_RENEW, version).lua, '2', name, rwKeyPrefixOf(name), String(leaseMs), lockName];
}

/**
 * ReadLockTask.renew for one chunk of read locks (3.44.0+): each name with the lock names of
 * its holding threads in this client, the first first. Up to 4.3.x only the first is sent.
 */
export function readLockTaskCommand(version: string, leaseMs: number, chunk: ReadonlyArray<{ name: string; lockNames: readonly string[] }>): string[] {
  const keys = chunk.flatMap((c) => [c.name, rwKeyPrefixOf(c.name)]);
  const perThread = atLeastVersion(version, '4.4.0');
  const argv = [String(leaseMs), ...chunk.flatMap((c) => (perThread ? [String(c.lockNames.length), ...c.lockNames] : [c.lockNames[0]]))];
  return ['EVAL', eraAt(READ_LOCK_TASK, version).lua, String(keys.length), ...keys, ...argv];
}

/** tryLockInnerAsync of the write lock. */
export function writeAcquireCommand(version: string, name: string, leaseMs: number, lockName: string): string[] {
  return ['EVAL', eraAt(WRITE_ACQUIRE, version).lua, '1', name, String(leaseMs), writeFieldOf(lockName)];
}

/** unlockInnerAsync of the write lock; `latch` from 3.24.0 (null before). */
export function writeUnlockCommand(version: string, name: string, leaseMs: number, lockName: string, latch: UnlockLatch | null): string[] {
  const keys = [name, rwChannelOf(name)];
  const argv = [READ_UNLOCK_MESSAGE, String(leaseMs), writeFieldOf(lockName)];
  if (atLeastVersion(version, '3.22.0')) argv.push(PUBLISH);
  if (atLeastVersion(version, '3.24.0') && latch !== null) {
    keys.push(latch.key);
    argv.push(String(latch.ms));
  }
  return ['EVAL', eraAt(WRITE_UNLOCK, version).lua, String(keys.length), ...keys, ...argv];
}
