// A lock module that calls process.exit (test/own-code/worker-ends.test.ts): `where` says
// when ('acquire': in acquire, 'never': it does not).
export default function exits([redis], { where }) {
  return {
    async acquire(key) {
      if (where === 'acquire') process.exit(3);
      return (await redis.set(key, 'x', 'PX', 1000, 'NX')) === 'OK' ? key : null;
    },
    async release(handle) {
      if (handle === null) return false;
      return (await redis.del(handle)) === 1;
    },
  };
}
