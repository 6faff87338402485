// npm redlock-universal 0.8.5 (node-redis v5 through its NodeRedisAdapter), unmodified:
// createLock({ adapter, key, ttl, retryAttempts, retryDelay }).using(routine) takes the lock
// (SET key <value> NX PX ttl, retried) and runs the routine while a timer chain extends the
// key (atomicExtend, a Lua compare-and-PEXPIRE that refuses when less than the safety buffer
// of TTL is left) at 80% of the TTL; when an extension fails the chain stops and the routine's
// AbortSignal is aborted, and the lock is released (compare-and-delete) when the routine ends.
// Here the routine is the request's critical section: acquire resolves when it starts; release
// ends it and resolves once using() has released the lock, true unless the signal was aborted.
import { createLock, LockAcquisitionError, NodeRedisAdapter } from 'redlock-universal';

export default function redlockUniversal([redis], { leaseMs, waitMs, retryIntervalMs }) {
  const adapter = new NodeRedisAdapter(redis);
  const retryAttempts = waitMs === Infinity ? 1000000 : Math.floor(waitMs / retryIntervalMs);
  return {
    acquire(key) {
      const lock = createLock({ adapter, key, ttl: leaseMs ?? 30000, retryAttempts, retryDelay: retryIntervalMs });
      return new Promise((resolve, reject) => {
        let end;
        const ended = new Promise((r) => { end = r; });
        const done = lock.using(async (signal) => {
          resolve({ end, signal, done });
          await ended;
        });
        done.catch((err) => (err instanceof LockAcquisitionError ? resolve(null) : reject(err)));
      });
    },
    async release(held) {
      if (held === null) return false;
      held.end();
      await held.done;
      return !held.signal.aborted;
    },
  };
}
