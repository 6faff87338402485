// npm redis-lock 1.0.0, unmodified: a node-redis v4 client (it refuses any other: its index.js
// checks `"v4" in client`). lock(name, timeout) polls SET lock.<name> <deadline> PX timeout NX
// every retryDelay, for ever (any error is retried too); the release function deletes the key
// with a plain DEL if the holder's own clock says the deadline has not passed.
import redisLock from 'redis-lock';

export default function redisLockAdapter([client], { leaseMs, retryIntervalMs }) {
  const lock = redisLock(client, retryIntervalMs);
  return {
    async acquire(key) {
      return lock(key, leaseMs ?? 5000); // resolves to the release function
    },
    async release(unlock) {
      if (unlock === null) return false;
      await unlock();
      return true;
    },
  };
}
