// npm redis-semaphore 5.8.0's Semaphore, unmodified (docs/guides/own-code.md): a sorted set
// `semaphore:<key>` of holders scored with the *client's* Date.now(); each acquire first
// removes the members older than lockTimeout by its own clock (ZREMRANGEBYSCORE), then adds
// itself when fewer than maxCount remain (lib/semaphore/acquire/lua.js); a setInterval
// refreshes the holder's score every 0.8 x lockTimeout; release is ZREM.
// The variant's `permits` is maxCount.
import { Semaphore } from 'redis-semaphore';

export default function semaphore([redis], { leaseMs, waitMs, retryIntervalMs, commandTimeoutMs, permits }) {
  // ioredis' commandTimeout, as the service would configure it (`new Redis({ commandTimeout })`).
  redis.options.commandTimeout = commandTimeoutMs;
  if (permits === null) throw new Error('semaphore.mjs: give the variant `permits` (the semaphore\'s maxCount)');
  return {
    async acquire(key) {
      const semaphore = new Semaphore(redis, key, permits, {
        lockTimeout: leaseMs ?? 10000,
        // acquireTimeout 0 would make no attempt at all: one attempt is wait: 0.
        acquireTimeout: waitMs === Infinity ? Number.MAX_SAFE_INTEGER : Math.max(1, waitMs),
        acquireAttemptsLimit: waitMs === 0 ? 1 : Number.POSITIVE_INFINITY,
        retryInterval: retryIntervalMs,
        onLockLost: () => {}, // the default throws from the refresh timer; the history shows the loss anyway
      });
      return (await semaphore.tryAcquire()) ? semaphore : null;
    },
    async release(semaphore) {
      if (semaphore === null) return false;
      await semaphore.release();
      return true;
    },
  };
}
