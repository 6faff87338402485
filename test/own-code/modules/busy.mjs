// Blocking user code (test/own-code/busy-loop.test.ts): `where` says where it spins for ever
// on the simulated clock (which stands still while user code runs); `spins: N` spins N times
// and returns instead.
export default function busy([redis], { where, spins }) {
  const spin = () => {
    if (spins !== undefined) {
      let x = 0;
      for (let i = 0; i < spins; i++) x += i;
      return x;
    }
    const until = Date.now() + 10; // never reached: Date.now() does not move here
    while (Date.now() < until) { /* waiting for the clock */ }
    return 0;
  };
  return {
    async acquire(key) {
      if (where === 'acquire') spin();
      if (where === 'timer') setTimeout(spin, 100);
      if (where === 'reply') await redis.get(key).then(spin);
      return (await redis.set(key, 'x', 'PX', 1000, 'NX')) === 'OK' ? key : null;
    },
    async release(handle) {
      if (handle === null) return false;
      return (await redis.del(handle)) === 1;
    },
  };
}
