// npm simple-redis-mutex 3.0.0 (node-redis v5), unmodified: lock(redis, name, { timeout,
// pollingInterval, failAfter }) resolves to a release function once the lock is taken; a
// waiter retries when the holder's release is published, or every pollingInterval.
import { lock } from 'simple-redis-mutex';

export default function simpleRedisMutex([redis], { leaseMs, waitMs, pollMs = 2000 }) {
  return {
    async acquire(key) {
      try {
        return await lock(redis, key, { timeout: leaseMs ?? 30000, pollingInterval: pollMs, failAfter: waitMs === Infinity ? undefined : waitMs });
      } catch (err) {
        if (String(err.message).includes('could not be acquired')) return null;
        throw err;
      }
    },
    async release(release) {
      if (release === null) return false;
      await release();
      return true;
    },
  };
}
