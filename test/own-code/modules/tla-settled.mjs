// A top-level await on what is already settled, and a dynamic import (test/own-code/module-errors.test.ts): it loads.
const { createHash } = await import('node:crypto');
const digest = createHash('sha1').update('x').digest('hex');
export default function settled([redis]) {
  return {
    async acquire(key) { return (await redis.set(key, digest, 'PX', 1000, 'NX')) === 'OK' ? key : null; },
    async release(key) { return key !== null && (await redis.del(key)) === 1; },
  };
}
