// Connection loss as user code meets it (test/own-code/connection.test.ts): the events the
// client emits, when (simulated ms after the first acquire) and how a command ends, under the
// ioredis options the probe names. Reports as the message of an error, as surface.mjs does.
export default function connection([redis], { probe }) {
  let done = false;
  return {
    async acquire(key) {
      if (done) return null;
      done = true;
      const t0 = Date.now();
      const at = () => Date.now() - t0;
      const seen = { events: [] };
      for (const e of ['close', 'reconnecting', 'connect', 'ready', 'end']) {
        redis.on(e, (arg) => seen.events.push(e === 'reconnecting' ? `${e} ${arg}` : e));
      }
      const outcome = async (fn) => {
        try {
          return { value: await fn(), at: at() };
        } catch (err) {
          return { name: err.name, error: err.message, at: at() };
        }
      };
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      if (probe === 'max-retries-1') redis.options.maxRetriesPerRequest = 1;
      if (probe === 'max-retries-null') redis.options.maxRetriesPerRequest = null;
      if (probe === 'retry-null') redis.options.retryStrategy = () => null;
      if (probe === 'retry-fixed') redis.options.retryStrategy = (times) => (times > 3 ? null : 300);
      if (probe === 'no-offline-queue') redis.options.enableOfflineQueue = false;
      if (probe === 'readonly' || probe === 'readonly-reconnect') {
        // A write every 500 ms until one is refused, then what the client does next.
        if (probe === 'readonly-reconnect') redis.options.reconnectOnError = (err) => err.message.startsWith('READONLY');
        for (let i = 0; i < 200; i++) {
          const o = await outcome(() => redis.set(key, `w${i}`));
          if (o.name === 'ReplyError') {
            seen.refused = o;
            break;
          }
          await sleep(500);
        }
        const before = seen.events.length;
        seen.read = await outcome(() => redis.get(key));
        seen.again = await outcome(() => redis.set(key, 'again'));
        seen.eventsAfterRefusal = seen.events.slice(before);
        seen.status = redis.status;
        throw new Error(`RESULTS ${JSON.stringify(seen)}`);
      }
      const messages = [];
      const sub = redis.duplicate();
      if (probe === 'subscribe') {
        sub.on('message', (channel, message) => messages.push(message));
        await sub.subscribe('news');
        await redis.publish('news', 'before');
      }
      seen.before = await outcome(() => redis.set(key, 'v', 'PX', 60000));
      await sleep(1000); // the server dies 500 ms into this
      seen.during = await outcome(() => redis.get(key));
      seen.after = await outcome(() => redis.get(key));
      seen.status = redis.status;
      if (probe === 'subscribe') {
        await redis.publish('news', 'after');
        await sleep(50);
        seen.messages = messages;
      }
      throw new Error(`RESULTS ${JSON.stringify(seen)}`);
    },
    async release() {
      return false;
    },
  };
}
