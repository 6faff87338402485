/**
 * Redisson's fair lock scripts (variants/locks/redisson/fair-scripts.ts), every era of each, run on
 * the model (in its Lua VM) and on a real redis-server 7: at each version where one of the three
 * changes (3.11.0, 3.11.1, 3.22.0, 3.24.0, 3.32.0, 3.45.0) the scripts in effect there, with that
 * version's arguments: a first holder, two waiters queued with their timeouts, a waiter asking
 * again, re-entry, an unlock that keeps a re-entry and one that frees the lock and publishes to
 * the queue head's own channel, the head taking the lock and taking threadWaitTime off the others'
 * timeouts, acquireFailed, a stale head dropped by a later caller, an unlock by a non-holder and of
 * a lock gone, the unlock latch (3.24.0+), and a queue head or last waiter without a timeout (an
 * error before 3.32.0 and 3.45.0). The queue timeouts are the caller's clock, passed as arguments,
 * so only the lock's PTTL depends on the servers' time (its lease is 90 s: within tolerance).
 */
import { expect, it } from 'vitest';
import { FAIR_ACQUIRE_FAILED, FAIR_TRY_LOCK, FAIR_UNLOCK } from '../../src/variants/locks/redisson/fair-scripts.js';
import { atLeastVersion, eraAt } from '../../src/variants/locks/redisson/semaphore-scripts.js';
import type { Step } from './harness.js';
import { withRealRedis } from './setup.js';

const L = 'fair';
const Q = 'redisson_lock_queue:{fair}';
const T = 'redisson_lock_timeout:{fair}';
const CH = 'redisson_lock__channel:{fair}';
const LEASE = '90000';
const WAIT = '5000';
const A = 'uuid:1';
const B = 'uuid:2';
const C = 'uuid:3';
const D = 'uuid:4';
const E = 'uuid:5';

const c = (...args: string[]): Step => ({ args });
const tol = (step: Step): Step => ({ ...step, tol: 'ms' });

/** The versions at which one of the three scripts changes: each era of each is run at one of them. */
const VERSIONS = [...new Set([...FAIR_TRY_LOCK, ...FAIR_UNLOCK, ...FAIR_ACQUIRE_FAILED].map((e) => e.since))].sort((a, b) => (atLeastVersion(a, b) ? (a === b ? 0 : 1) : -1));

function steps(version: string): Step[] {
  const tryLock = (who: string, nowMs: number): Step => {
    const lua = eraAt(FAIR_TRY_LOCK, version).lua;
    const argv = atLeastVersion(version, '3.11.1') ? [LEASE, who, WAIT, String(nowMs)] : [LEASE, who, String(nowMs + Number(WAIT)), String(nowMs)];
    return tol(c('EVAL', lua, '3', L, Q, T, ...argv));
  };
  let latches = 0;
  const unlock = (who: string, nowMs: number, latch?: string): Step => {
    const lua = eraAt(FAIR_UNLOCK, version).lua;
    const keys = [L, Q, T, CH];
    const argv = ['0', LEASE, who, String(nowMs)];
    if (atLeastVersion(version, '3.22.0')) argv.push('PUBLISH');
    if (atLeastVersion(version, '3.24.0')) {
      keys.push(`redisson_unlock_latch:{fair}:${latch ?? `l${++latches}`}`);
      argv.push('120000');
    }
    return c('EVAL', lua, String(keys.length), ...keys, ...argv);
  };
  const failed = (who: string): Step => c('EVAL', eraAt(FAIR_ACQUIRE_FAILED, version).lua, '2', Q, T, who, WAIT);
  const persist = c('PERSIST', L);
  const look: Step[] = [c('LRANGE', Q, '0', '-1'), c('ZRANGE', T, '0', '-1', 'WITHSCORES'), c('HGETALL', L)];
  return [
    { args: ['SUBSCRIBE', `${CH}:${B}`, `${CH}:${C}`, `${CH}:${E}`], on: 'b' },
    // Each holder's key loses its TTL (PERSIST): the waiters' timeouts, computed from its PTTL, are then the same on both sides.
    tryLock(A, 1000), persist, tryLock(B, 1100), tryLock(C, 1200), ...look,
    // B asks again while queued: its estimate (before 3.32.0) or the lock's PTTL.
    tryLock(B, 1300), tryLock(A, 1400), persist, ...look,
    // A's first unlock keeps its re-entry; the second frees the lock and wakes B, the head.
    unlock(A, 1500), unlock(A, 1600), ...look,
    // C, not the head, asks while the lock is free; then B takes it and the others' timeouts shrink.
    tryLock(C, 1700), tryLock(B, 1800), persist, ...look,
    failed(C), ...look,
    // E queues behind B's lock; D comes far later: E's entry is stale and D's script drops it.
    tryLock(E, 2000), tryLock(D, 10_000_000), ...look,
    unlock(C, 10_000_100), unlock(B, 10_000_200, 'same'), unlock(B, 10_000_300, 'same'), ...look,
    // A lock gone (its key deleted) unlocked: 1, and the head (D) woken.
    c('DEL', L), unlock(A, 10_000_400), ...look,
    // The queue head without a timeout entry: the stale loop fails on it before 3.32.0.
    c('ZREM', T, D), tryLock(C, 10_000_500), ...look,
    // The last waiter without a timeout: a new waiter's script fails on it before 3.45.0.
    c('DEL', L, Q, T), tryLock(A, 20_000_000), persist, c('RPUSH', Q, B), tryLock(C, 20_000_100), ...look,
    c('DEL', L, Q, T), c('SET', L, 'x'), tryLock(A, 30_000_000), unlock(A, 30_000_100),
  ];
}

withRealRedis('the model against redis-server 7: Redisson fair lock scripts', (conformance) => {
  for (const version of VERSIONS) {
    const eras = [FAIR_TRY_LOCK, FAIR_UNLOCK, FAIR_ACQUIRE_FAILED].map((e) => eraAt(e, version).since).join(' / ');
    it(`at ${version} (tryLock / unlock / acquireFailed since ${eras})`, async () => {
      const latchKeys = ['l1', 'l2', 'l3', 'l4', 'l5', 'same'].map((l) => `redisson_unlock_latch:{fair}:${l}`);
      expect(await conformance().run(steps(version), [L, Q, T, ...latchKeys])).toEqual([]);
    });
  }
});
