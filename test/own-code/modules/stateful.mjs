// Module-level state in the lock module and in a CommonJS package it imports; each acquire
// reports both counters after a later delivery (the reply) and, when asked, leaves a rejected
// promise unhandled (test/own-code/context.test.ts). With `mark: 'global'` or `mark: 'Error'`
// each acquire also reports, then sets, a property of the global object or of the built-in
// Error constructor (as bluebird sets Error.__BluebirdErrorTypes__ on load).
import pkg from './state-pkg/index.cjs';

let moduleCalls = 0;

export default function stateful([redis], { unhandled = false, mark = null } = {}) {
  return {
    async acquire(key) {
      moduleCalls += 1;
      await redis.get(key); // resumed by the reply: a later delivery
      const seen = { moduleCalls, pkgCalls: pkg.next(), sawEarly: pkg.sawEarly, version: pkg.version };
      if (mark !== null) {
        const target = mark === 'Error' ? Error : globalThis;
        seen.marked = target.lockSimTestMark ?? 0;
        target.lockSimTestMark = seen.marked + 1;
      }
      if (unhandled) Promise.reject(new Error('left unhandled'));
      throw new Error(`RESULTS ${JSON.stringify(seen)}`);
    },
    async release() {
      return false;
    },
  };
}
