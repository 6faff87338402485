// acquire throws for the first request of each client (once synchronously, once as a rejection).
export default function throws([redis]) {
  let calls = 0;
  return {
    acquire(key) {
      calls++;
      if (calls === 1) throw new Error('boom in acquire');
      if (calls === 2) return Promise.reject(new TypeError('async boom'));
      return redis.set(key, 'x', 'PX', 1000, 'NX').then((r) => (r === 'OK' ? key : null));
    },
    async release(key) { return key !== null && (await redis.del(key)) === 1; },
  };
}
