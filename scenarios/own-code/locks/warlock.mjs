// npm node-redis-warlock 1.0.2, unmodified, on an ioredis client (its callback API:
// set(key, id, 'PX', ttl, 'NX', cb), script('load', ...), evalsha(...)): optimistic(key, ttl,
// maxAttempts, wait, cb) tries SET <key>:lock <uuid v1> PX ttl NX up to maxAttempts times,
// `wait` ms apart; the unlock function it hands back runs its parityDel Lua
// (compare-and-delete, loaded with SCRIPT LOAD on NOSCRIPT). No refresh.
import Warlock from 'node-redis-warlock';

export default function warlockAdapter([redis], { leaseMs, waitMs, retryIntervalMs, commandTimeoutMs }) {
  redis.options.commandTimeout = commandTimeoutMs; // as the service would pass it to new Redis({ commandTimeout })
  const warlock = Warlock(redis);
  const attempts = waitMs === Infinity ? Number.MAX_SAFE_INTEGER : Math.max(1, Math.floor(waitMs / retryIntervalMs) + 1);
  return {
    acquire(key) {
      return new Promise((resolve, reject) => {
        warlock.optimistic(key, leaseMs ?? 10000, attempts, retryIntervalMs, (err, unlock) => {
          if (err && err.message === 'unable to obtain lock') resolve(null);
          else if (err) reject(err);
          else resolve(unlock);
        });
      });
    },
    release(unlock) {
      if (unlock === null) return Promise.resolve(false);
      return new Promise((resolve, reject) => unlock((err, deleted) => (err ? reject(err) : resolve(deleted === 1))));
    },
  };
}
