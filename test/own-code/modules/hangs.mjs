// acquire never settles for the first request of each client; later ones take the lock.
export default function hangs([redis]) {
  let calls = 0;
  return {
    acquire(key) {
      calls++;
      if (calls === 1) return new Promise(() => {});
      return redis.set(key, 'x', 'PX', 1000, 'NX').then((r) => (r === 'OK' ? key : null));
    },
    async release(key) { return key !== null && (await redis.del(key)) === 1; },
  };
}
