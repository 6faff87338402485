// npm @microfleet/ioredis-lock 6.0.1, unmodified (ioredis): createLock(client, { timeout,
// retries, delay, jitter }) per request; acquire(key) tries SET key <uuid> PX timeout NX, then
// `retries` more times, `delay` x random(1, jitter) ms apart (node:timers/promises), and
// rejects with LockAcquisitionError; release() runs its delifequal script (defineCommand,
// compare-and-delete) and rejects with LockReleaseError when the key was no longer its own.
import { createLock, LockAcquisitionError, LockReleaseError } from '@microfleet/ioredis-lock';

export default function microfleetLock([redis], { leaseMs, retries, delay }) {
  return {
    async acquire(key) {
      const lock = createLock(redis, { timeout: leaseMs ?? 10000, ...(retries === undefined ? {} : { retries }), ...(delay === undefined ? {} : { delay }) });
      try {
        return await lock.acquire(key);
      } catch (err) {
        if (err instanceof LockAcquisitionError) return null;
        throw err;
      }
    },
    async release(lock) {
      if (lock === null) return false;
      try {
        await lock.release();
        return true;
      } catch (err) {
        if (err instanceof LockReleaseError) return false;
        throw err;
      }
    },
  };
}
