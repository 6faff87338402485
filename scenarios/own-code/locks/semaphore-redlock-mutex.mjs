// npm redis-semaphore 5.8.0's RedlockMutex, unmodified: the Mutex on every master at once,
// held when a quorum (n/2 + 1) of them took it, refreshed from a setInterval on all of them.
import { RedlockMutex } from 'redis-semaphore';

export default function semaphoreRedlockMutex(clients, { leaseMs, waitMs, retryIntervalMs, commandTimeout }) {
  if (commandTimeout !== undefined) for (const c of clients) c.options.commandTimeout = commandTimeout;
  return {
    async acquire(key) {
      const mutex = new RedlockMutex(clients, key, {
        lockTimeout: leaseMs ?? 10000,
        acquireTimeout: waitMs === Infinity ? Number.MAX_SAFE_INTEGER : Math.max(1, waitMs),
        acquireAttemptsLimit: waitMs === 0 ? 1 : Number.POSITIVE_INFINITY,
        retryInterval: retryIntervalMs,
        onLockLost: () => {},
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
