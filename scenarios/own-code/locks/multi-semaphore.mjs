// npm redis-semaphore 5.8.0's MultiSemaphore, unmodified: each request takes `lock.options.
// permitsPerRequest` permits at once (members `<id>_0` .. `<id>_{k-1}` of the sorted set
// `semaphore:<key>`, scored with the client's Date.now(); lib/multiSemaphore/acquire/lua.js),
// of a limit of `permits` x permitsPerRequest, so that, as for the Semaphore, the variant's
// `permits` is how many requests may be inside at once.
import { MultiSemaphore } from 'redis-semaphore';

export default function multiSemaphore([redis], { leaseMs, waitMs, retryIntervalMs, commandTimeoutMs, permits, permitsPerRequest = 2 }) {
  redis.options.commandTimeout = commandTimeoutMs;
  if (permits === null) throw new Error('multi-semaphore.mjs: give the variant `permits` (how many requests may hold it at once)');
  if (!Number.isInteger(permitsPerRequest) || permitsPerRequest < 1) throw new Error('multi-semaphore.mjs: lock.options.permitsPerRequest must be a whole number >= 1');
  return {
    async acquire(key) {
      const semaphore = new MultiSemaphore(redis, key, permits * permitsPerRequest, permitsPerRequest, {
        lockTimeout: leaseMs ?? 10000,
        acquireTimeout: waitMs === Infinity ? Number.MAX_SAFE_INTEGER : Math.max(1, waitMs),
        acquireAttemptsLimit: waitMs === 0 ? 1 : Number.POSITIVE_INFINITY,
        retryInterval: retryIntervalMs,
        onLockLost: () => {},
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
