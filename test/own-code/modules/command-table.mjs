// Exercises the clients' command tables (test/own-code/command-table.test.ts): which command
// methods an ioredis-compatible client has, and what a node-redis client's methods write and
// answer. Reports what it saw as the message of an error the history keeps.
export default function commandTable([client], options) {
  let done = false;
  return {
    async acquire(key) {
      if (done) return null;
      done = true;
      const seen = {};
      const attempt = async (name, fn) => {
        try {
          seen[name] = await fn();
        } catch (err) {
          seen[name] = { error: err.message };
        }
      };
      if (options.probe === 'methods') {
        seen.missing = options.names.filter((n) => typeof client[n] !== 'function' || typeof client[n.toUpperCase()] !== 'function');
        const p = client.pipeline();
        seen.pipelineMissing = options.names.filter((n) => typeof p[n] !== 'function');
        await attempt('clientId', async () => typeof (await client.client('ID')));
        await attempt('pipeline', async () => (await client.multi().sadd('s', 'a', 'b').SCARD('s').exec()).map(([, r]) => r));
      } else {
        await attempt('lPush', () => client.lPush('l', ['a', 'b']));
        await attempt('blPop', () => client.blPop(['none', 'l'], 1));
        await attempt('sAdd', () => client.sAdd('s', ['x', 'y']));
        await attempt('sIsMember', () => client.sIsMember('s', 'x'));
        await attempt('zAdd', () => client.zAdd('z', [{ score: 1, value: 'm1' }, { score: 2.5, value: 'm2' }]));
        await attempt('zScore', () => client.zScore('z', 'm2'));
        await attempt('zRangeWithScores', () => client.zRangeWithScores('z', 0, -1));
        await attempt('zRangeByScore', () => client.zRange('z', '-inf', 2, { BY: 'SCORE' }));
        await attempt('zPopMin', () => client.zPopMin('z'));
        await attempt('scan', () => client.scan(0, { MATCH: 'l*', COUNT: 100 }));
        await attempt('scanIterator', async () => {
          const out = [];
          for await (const k of client.scanIterator({ MATCH: 's*' })) out.push(k);
          return out;
        });
        await attempt('clientId', async () => typeof (await client.clientId()));
        await attempt('multi', () => client.multi().zScore('z', 'm2').sIsMember('s', 'y').exec());
      }
      throw new Error(`RESULTS ${JSON.stringify(seen)}`);
    },
    async release() {
      return false;
    },
  };
}
