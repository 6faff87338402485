// npm redlock 4.2.0, unmodified (docs/guides/own-code.md): one ioredis client per master,
// lock(resource, ttl) until a quorum answers in time, retried retryCount times; unlock(). A
// LockError (no quorum after the retries, or nothing left to unlock) is "not acquired" /
// "not released"; any other error is the library's and is recorded as such.
import Redlock from 'redlock';

export default function redlockV4(clients, { leaseMs, commandTimeout }) {
  // ioredis' commandTimeout, if the scenario asks for one (lock.options.commandTimeout).
  if (commandTimeout !== undefined) for (const c of clients) c.options.commandTimeout = commandTimeout;
  const redlock = new Redlock(clients, { retryCount: 10, retryDelay: 200, retryJitter: 100 }); // its defaults
  redlock.on('clientError', () => {});
  return {
    async acquire(key) {
      try {
        return await redlock.lock(key, leaseMs ?? 10000);
      } catch (err) {
        if (err.name === 'LockError') return null;
        throw err;
      }
    },
    async release(lock) {
      if (lock === null) return false;
      try {
        await lock.unlock();
        return true;
      } catch (err) {
        if (err.name === 'LockError') return false;
        throw err;
      }
    },
  };
}
