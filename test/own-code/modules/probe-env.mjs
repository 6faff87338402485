// Records what user code sees of time and randomness, in the lock value.
import { randomBytes, randomUUID } from 'node:crypto';
export const loadedAt = Date.now();
export default function probeEnv([redis]) {
  return {
    async acquire(key) {
      const seen = [Date.now(), performance.now().toFixed(3), Math.random().toFixed(6), randomUUID(), randomBytes(4).toString('hex'), loadedAt].join('|');
      return (await redis.set(key, seen, 'PX', 50, 'NX')) === 'OK' ? key : null;
    },
    async release() { return true; },
  };
}
