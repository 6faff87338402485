// Exercises the client surface once and reports what it saw as the message of an error
// (the history keeps an acquire's error message): test/own-code/client.test.ts reads it.
export default function surface([redis], options) {
  const { probe } = options;
  let done = false;
  const sub = redis.duplicate();
  return {
    async acquire(key) {
      if (done) return null;
      done = true;
      const seen = {};
      const attempt = async (name, fn) => {
        try {
          seen[name] = await fn();
        } catch (err) {
          seen[name] = { error: err.message, name: err.name };
        }
      };
      if (probe === 'commands') {
        await attempt('set', () => redis.set(key, 'v1', 'PX', 5000, 'NX'));
        await attempt('setAgain', () => redis.set(key, 'v2', 'PX', 5000, 'NX'));
        await attempt('get', () => redis.get(key));
        await attempt('exists', () => redis.exists(key, 'nokey'));
        await attempt('pexpire', () => redis.pexpire(key, 60000));
        await attempt('pttlAbove59s', async () => (await redis.pttl(key)) > 59000);
        await attempt('call', () => redis.call('GET', key));
        await attempt('callback', () => new Promise((resolve, reject) => redis.get(key, (err, r) => (err ? reject(err) : resolve(`cb:${r}`)))));
        await attempt('incr', () => redis.incr('counter'));
        await attempt('hset', () => redis.hset('h', 'f', 'x', 'g', 'y'));
        await attempt('hincrby', () => redis.hincrby('h', 'n', 5));
        await attempt('wrongtype', () => redis.hget(key, 'f'));
        await attempt('eval', () => redis.eval("return {KEYS[1], ARGV[1], 7.9}", 1, 'k1', 'a1'));
        await attempt('evalshaUnknown', () => redis.evalsha('ffffffffffffffffffffffffffffffffffffffff', 0));
        await attempt('scriptLoad', async () => {
          const sha = await redis.script('load', "return 'loaded'");
          return redis.evalsha(sha, 0);
        });
        redis.defineCommand('echoKey', { numberOfKeys: 1, lua: "return 'key=' .. KEYS[1] .. ' arg=' .. ARGV[1]" });
        await attempt('defineCommand', () => redis.echoKey('kk', 'aa'));
        await attempt('multi', () => redis.multi().set('m1', '1').incr('m1').get('m1').hget('m1', 'x').exec());
        await attempt('execabort', async () => {
          try {
            return await redis.multi().set('m2', '1').incr().exec();
          } catch (err) {
            return { error: err.message, name: err.name, previous: (err.previousErrors ?? []).map((e) => e.message) };
          }
        });
        await attempt('m2AfterAbort', () => redis.exists('m2'));
        await attempt('info', async () => (await redis.info('replication')).split('\r\n')[1]);
        await attempt('wait', () => redis.wait(0, 100));
        await attempt('del', () => redis.del(key, 'counter'));
        const messages = [];
        sub.on('message', (channel, message) => messages.push(`${channel}:${message}`));
        await attempt('subscribe', () => sub.subscribe('news'));
        await attempt('publish', () => redis.publish('news', 'hello'));
        await new Promise((r) => setTimeout(r, 50));
        seen.messages = messages;
      } else if (probe === 'realm') {
        // What crosses from the simulation belongs to this realm, as what Node gives a module does.
        const table = await redis.eval("return {1, {2, 'x'}, redis.error_reply('nested')}", 0);
        const hash = (await redis.hset('h', 'f', 'v'), await redis.hgetall('h'));
        const multi = await redis.multi().set('m', '1').get('m').exec();
        seen.arrays = [table instanceof Array, table[1] instanceof Array, multi instanceof Array, multi[0] instanceof Array];
        seen.nested = [table[2] instanceof Error, table[2].name, table[2].message];
        seen.objects = [hash instanceof Object, options instanceof Object, Object.getPrototypeOf(options) === Object.prototype];
        seen.functionOfRealm = table.constructor.constructor === Function;
      } else if (probe === 'timeout') {
        redis.options.commandTimeout = 200;
        const t0 = Date.now();
        await attempt('get', () => redis.get(key));
        seen.afterMs = Date.now() - t0;
      }
      throw new Error(`RESULTS ${JSON.stringify(seen)}`);
    },
    async release() {
      return false;
    },
  };
}
