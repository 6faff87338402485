// A token lock that keeps its lease alive from a setInterval (as redis-semaphore's refresh does).
import { randomUUID } from 'node:crypto';
const REFRESH = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";
const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
export default function refreshLock([redis], { leaseMs }) {
  return {
    async acquire(key) {
      const token = randomUUID();
      if ((await redis.set(key, token, 'PX', leaseMs, 'NX')) !== 'OK') return null;
      const timer = setInterval(() => { redis.eval(REFRESH, 1, key, token, leaseMs).catch(() => {}); }, leaseMs / 3);
      return { key, token, timer };
    },
    async release(lock) {
      if (!lock) return false;
      clearInterval(lock.timer);
      return (await redis.eval(UNLOCK, 1, lock.key, lock.token)) === 1;
    },
  };
}
