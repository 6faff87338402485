// Exercises the node-redis-compatible client once (test/own-code/node-redis.test.ts) and
// reports what it saw as the message of an error the history keeps.
export default function nodeRedisSurface([client]) {
  let done = false;
  return {
    async acquire(key) {
      if (done) return null;
      done = true;
      const seen = { v4: 'v4' in client, isOpen: client.isOpen };
      const attempt = async (name, fn) => {
        try {
          seen[name] = await fn();
        } catch (err) {
          seen[name] = { error: err.message, name: err.name };
        }
      };
      await attempt('setNxPx', () => client.set(key, 'a', { NX: true, PX: 5000 }));
      await attempt('setV5', () => client.set(key, 'b', { condition: 'NX', expiration: { type: 'PX', value: 5000 } }));
      await attempt('pTTL', async () => (await client.pTTL(key)) > 4000);
      await attempt('get', () => client.get(key));
      await attempt('setNX', () => client.setNX('k2', 'x'));
      await attempt('pExpire', () => client.pExpire('k2', 60000));
      await attempt('hSet', () => client.hSet('h', { f: '1', g: '2' }));
      await attempt('hGetAll', () => client.hGetAll('h'));
      await attempt('eval', () => client.eval("return {KEYS[1], ARGV[1]}", { keys: ['k1'], arguments: ['a1'] }));
      await attempt('evalSha', async () => client.evalSha(await client.scriptLoad("return 'loaded'"), { keys: [], arguments: [] }));
      await attempt('sendCommand', () => client.sendCommand(['GET', key]));
      await attempt('multi', () => client.multi().set('m', '1').incr('m').get('m').exec());
      await attempt('multiError', () => client.multi().set('m2', 'x').incr('m2').exec());
      await attempt('wrongType', () => client.get('h'));
      await attempt('setEx', () => client.setEx('k3', 60, 'v'));
      await attempt('getDel', () => client.getDel('k3'));
      await attempt('pubsub', async () => {
        const sub = client.duplicate();
        await sub.connect();
        const got = new Promise((resolve) => sub.subscribe('ch', (message, channel) => resolve(`${channel}:${message}`)));
        await new Promise((r) => setTimeout(r, 10));
        await client.publish('ch', 'hello');
        return got;
      });
      throw new Error(`RESULTS ${JSON.stringify(seen)}`);
    },
    async release() {
      return false;
    },
  };
}
