/**
 * Redisson RFencedLock's scripts (variants/locks/redisson/fenced-scripts.ts), every era of
 * each, run on the model (in its Lua VM) and on a real redis-server 7: the token-answering
 * acquire (free, re-entered by the same thread, held by another, the counter surviving an
 * unlock and going on from any value), the inherited lock()'s acquire (the token INCR'd but
 * not answered), and a wrong type at the lock or the counter. Times left are compared as
 * PTTLs, within the harness's tolerance.
 */
import { expect, it } from 'vitest';
import { FENCED_ACQUIRE, FENCED_LOCK_WITHOUT_TOKEN, tokenKeyOf } from '../../src/variants/locks/redisson/fenced-scripts.js';
import type { ScriptEra } from '../../src/variants/locks/redisson/semaphore-scripts.js';
import type { Step } from './harness.js';
import { withRealRedis } from './setup.js';

const c = (...args: string[]): Step => ({ args });
const ms = (...args: string[]): Step => ({ args, tol: 'ms' });
const L = 'lock:stock:1';
const T = tokenKeyOf(L);
const A = 'uuid-a:1';
const B = 'uuid-b:7';

type Case = [title: string, keys: string[], steps: Step[]];

const take = (era: ScriptEra, owner: string, leaseMs = '30000', lock = L, token = T): Step => ms('EVAL', era.lua, '2', lock, token, leaseMs, owner);

const CASES: Case[] = [
  ...FENCED_ACQUIRE.map((era): Case => [`tryLockAndGetToken since ${era.since}: 1, then a re-entry 2, another thread's PTTL, the counter kept after the lock goes`, [L, T], [
    take(era, A), take(era, A), c('HGET', L, A), ms('PTTL', L), take(era, B), c('GET', T),
    c('DEL', L), take(era, B, '5000'), ms('PTTL', L), c('GET', T), ms('PTTL', T),
    c('DEL', L), c('SET', T, '41'), take(era, A), c('HGETALL', L),
  ]]),
  ...FENCED_ACQUIRE.map((era): Case => [`tryLockAndGetToken since ${era.since}: a wrong type at the lock or at the counter`, [L, T, 'h'], [
    c('SET', L, 'x'), take(era, A), c('DEL', L), c('HSET', 'h', 'f', '1'), take(era, A, '30000', L, 'h'), c('EXISTS', L), c('SET', T, 'abc'), take(era, A),
  ]]),
  ...FENCED_LOCK_WITHOUT_TOKEN.map((era): Case => [`lock() since ${era.since}: nil when taken, the PTTL when held, the token INCR'd all the same`, [L, T], [
    take(era, A), take(era, A), take(era, B), c('GET', T), c('HGET', L, A), ms('PTTL', L),
  ]]),
];

withRealRedis('the model against redis-server 7: Redisson RFencedLock scripts', (conformance) => {
  for (const [title, keys, steps] of CASES) {
    it(title, async () => {
      expect(await conformance().run(steps, keys)).toEqual([]);
    });
  }
});
