// npm simple-redis-mutex 3.0.0 (node-redis v5), unmodified (docs/guides/own-code.md): lock(redis,
// name, { timeout, pollingInterval, failAfter }) resolves to a release function once
// SET @simple-redis-mutex:lock-<name> <Math.random()> NX PX timeout succeeds; a waiter tries
// again when a release is published on its channel (a listener of one module-level subscriber)
// or every pollingInterval; failAfter rejects. Release is a Lua compare-and-delete that publishes.
import { lock } from 'simple-redis-mutex';

export default function simpleRedisMutex([redis], { leaseMs, waitMs, pollingInterval = 10000 }) {
  return {
    async acquire(key) {
      try {
        return await lock(redis, key, { timeout: leaseMs ?? 30000, pollingInterval, failAfter: waitMs === Infinity ? undefined : waitMs });
      } catch (err) {
        if (String(err.message).endsWith(`could not be acquired after ${waitMs} millis`)) return null; // failAfter
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
