// A token lock that refreshes its lease from a setTimeout chain re-armed after each refresh's
// reply (as redlock-universal's auto-extension does), polling with sleeps while it waits.
// `stopAfter` refreshes, the chain stops re-arming though the lock is still held (a refresh
// loop that gives up); `refreshes: false` keeps no refresh at all.
const REFRESH = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";
const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

export default function chainRefreshLock([redis], { leaseMs, retryIntervalMs, stopAfter = Infinity, refreshes = true }) {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    async acquire(key) {
      const token = String(Math.random());
      while ((await redis.set(key, token, 'PX', leaseMs, 'NX')) !== 'OK') await sleep(retryIntervalMs);
      const lock = { key, token, timer: null, done: false };
      let n = 0;
      const refresh = async () => {
        await redis.eval(REFRESH, 1, key, token, leaseMs);
        if (!lock.done && ++n < stopAfter) lock.timer = setTimeout(refresh, leaseMs / 3);
      };
      if (refreshes) lock.timer = setTimeout(refresh, leaseMs / 3);
      return lock;
    },
    async release(lock) {
      if (!lock) return false;
      lock.done = true;
      clearTimeout(lock.timer);
      return (await redis.eval(UNLOCK, 1, lock.key, lock.token)) === 1;
    },
  };
}
