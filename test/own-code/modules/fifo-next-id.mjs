// A lock that keeps a counter next to its key, as FIFO and fencing locks do: each acquire
// draws a number with INCR `<key>:next-id` (no TTL, never deleted), then takes `<key>` by
// SET NX PX with that number as its token; release compares and deletes.
const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

export default function fifoNextId([redis], { leaseMs, waitMs, retryIntervalMs }) {
  const lease = leaseMs ?? 5000;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    async acquire(key) {
      const token = `ticket-${await redis.incr(`${key}:next-id`)}`;
      const start = Date.now();
      for (;;) {
        if ((await redis.set(key, token, 'NX', 'PX', lease)) === 'OK') return { key, token };
        if (Date.now() - start + retryIntervalMs > waitMs) return null;
        await sleep(retryIntervalMs);
      }
    },
    async release(lock) {
      if (lock === null) return false;
      return (await redis.eval(UNLOCK, 1, lock.key, lock.token)) === 1;
    },
  };
}
