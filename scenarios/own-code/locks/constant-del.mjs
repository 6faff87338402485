// The careless variant (docs/guides/own-code.md) of the hand-written lock: a constant value and a plain DEL,
// in a release that also runs for a request that never got the lock (unlock-always).
// The same algorithm as the built-in `set-nx-px`.
export default function constantLock([redis], { leaseMs, waitMs, retryIntervalMs, commandTimeoutMs }) {
  redis.options.commandTimeout = commandTimeoutMs;
  const lease = leaseMs ?? 5000;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    async acquire(key) {
      const start = Date.now();
      for (;;) {
        if ((await redis.set(key, 'locked', 'NX', 'PX', lease)) === 'OK') return { key };
        if (Date.now() - start + retryIntervalMs > waitMs) return null;
        await sleep(retryIntervalMs);
      }
    },
    async release(_lock, key) {
      await redis.del(key); // whoever holds it
      return true;
    },
  };
}
