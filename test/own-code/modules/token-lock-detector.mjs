// The README's token + Lua lock on a client made with ioredis' Sentinel `failoverDetector: true`
// (it reconnects when the Sentinels announce a new master): test/own-code/refusals.test.ts.
import tokenLock from '../../../scenarios/own-code/locks/token-lock.mjs';

export default function detectingTokenLock(clients, options) {
  for (const c of clients) c.options.failoverDetector = true;
  return tokenLock(clients, options);
}
