// npm redis-semaphore's Mutex, unmodified (docs/guides/own-code.md): SET key <uuid> PX
// lockTimeout NX, polled every retryInterval; a setInterval refreshes the TTL every
// 0.8 x lockTimeout by a Lua compare-and-PEXPIRE; release is a Lua compare-and-DEL.
import { Mutex } from 'redis-semaphore';

export default function semaphoreMutex([redis], { leaseMs, waitMs, retryIntervalMs, commandTimeoutMs }) {
  // ioredis' commandTimeout, as the service would configure it (`new Redis({ commandTimeout })`).
  redis.options.commandTimeout = commandTimeoutMs;
  return {
    async acquire(key) {
      const mutex = new Mutex(redis, key, {
        lockTimeout: leaseMs ?? 10000,
        // acquireTimeout 0 would make no attempt at all: one attempt is wait: 0.
        acquireTimeout: waitMs === Infinity ? Number.MAX_SAFE_INTEGER : Math.max(1, waitMs),
        acquireAttemptsLimit: waitMs === 0 ? 1 : Number.POSITIVE_INFINITY,
        retryInterval: retryIntervalMs,
        onLockLost: () => {}, // the default throws from the refresh timer; the history shows the loss anyway
      });
      return (await mutex.tryAcquire()) ? mutex : null;
    },
    async release(mutex) {
      if (mutex === null) return false;
      await mutex.release();
      return true;
    },
  };
}
