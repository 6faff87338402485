// Reports what user code sees of time and randomness, as the message of an acquire error
// (test/own-code/environment.test.ts reads it from the history).
import { randomBytes, randomUUID } from 'node:crypto';
import * as crypto from 'node:crypto';

export const loadedAt = Date.now();

export default function probeEnv() {
  return {
    async acquire() {
      const before = { date: Date.now(), newDate: new Date().getTime(), perf: performance.now() };
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const seen = {
        ...before,
        afterTimerMs: Date.now() - before.date,
        random: Math.random(),
        uuid: randomUUID(),
        uuidNamespace: crypto.randomUUID(),
        bytes: randomBytes(4).toString('hex'),
        loadedAt,
      };
      throw new Error(`RESULTS ${JSON.stringify(seen)}`);
    },
    async release() {
      return false;
    },
  };
}
