// A lock whose acquire leaves two errors nobody handles: a timer that throws 50 ms later and a
// promise that rejects with no handler. Both must be recorded, and the run must go on.
export default function stray([redis]) {
  return {
    async acquire(key) {
      setTimeout(() => {
        throw new Error('timer boom');
      }, 50);
      void Promise.reject(new TypeError('floating boom'));
      return (await redis.set(key, 'x', 'PX', 1000, 'NX')) === 'OK' ? key : null;
    },
    async release(key) {
      return key !== null && (await redis.del(key)) === 1;
    },
  };
}
