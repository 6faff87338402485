// A lock whose waiters are woken by pub/sub, as simple-redis-mutex 3.0.0 does (dist/index.js):
// each attempt is SET key <fresh random value> NX PX; a waiter registers a callback in a
// module-level list and retries from the subscriber's message listener when a release is
// published, or from a polling interval; release is a Lua compare-and-delete that publishes.
// A lock taken in the listener is sent by code that runs outside any request. With
// `lastFirst`, the waiter that came last wins: not the earliest.
const CHANNEL = 'test:releases';
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], KEYS[1]) return 1 end return 0";
let waiters = [];
let subscriber = null;

export default function pubsubWakeup([redis], { leaseMs, pollMs = 2000, lastFirst = false }) {
  const lease = leaseMs ?? 5000;
  async function listen() {
    if (subscriber) return;
    subscriber = redis.duplicate();
    subscriber.on('message', (channel, key) => {
      // `lastFirst`: the latest waiter tries first (its SET reaches Redis first and wins).
      const woken = waiters.filter((x) => x.key === key);
      for (const w of lastFirst ? woken.reverse() : woken) w.attempt();
    });
    await subscriber.subscribe(CHANNEL);
  }
  async function tryLock(key) {
    const value = String(Math.random());
    return (await redis.set(key, value, 'PX', lease, 'NX')) === 'OK' ? { key, value } : null;
  }
  return {
    async acquire(key) {
      await listen();
      return new Promise((resolve) => {
        let done = false;
        const w = { key, attempt };
        function attempt() {
          if (done) return;
          tryLock(key).then((lock) => {
            if (!lock || done) return;
            done = true;
            waiters = waiters.filter((x) => x !== w);
            clearInterval(poll);
            resolve(lock);
          });
        }
        waiters.push(w);
        const poll = setInterval(attempt, pollMs);
        attempt();
      });
    },
    async release(lock) {
      if (lock === null) return false;
      return (await redis.eval(RELEASE, 2, lock.key, CHANNEL, lock.value)) === 1;
    },
  };
}
