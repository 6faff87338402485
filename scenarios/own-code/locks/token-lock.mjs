// The hand-written lock of docs/guides/own-code.md: SET key <random token> NX PX lease,
// polled every retry-interval until the wait budget is spent, released by a Lua
// compare-and-delete. The same algorithm as the built-in `lua-unlock`.
import { randomUUID } from 'node:crypto';

const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

export default function tokenLock([redis], { leaseMs, waitMs, retryIntervalMs, commandTimeoutMs }) {
  redis.options.commandTimeout = commandTimeoutMs; // the same timeout as lock-sim's built-in clients
  const lease = leaseMs ?? 5000;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    async acquire(key) {
      const token = randomUUID();
      const start = Date.now();
      for (;;) {
        if ((await redis.set(key, token, 'NX', 'PX', lease)) === 'OK') return { key, token };
        if (Date.now() - start + retryIntervalMs > waitMs) return null;
        await sleep(retryIntervalMs);
      }
    },
    async release(lock) {
      if (lock === null) return false; // never acquired: nothing of ours to delete
      return (await redis.eval(UNLOCK, 1, lock.key, lock.token)) === 1;
    },
  };
}
