/**
 * Redisson's semaphore scripts (variants/locks/redisson/semaphore-scripts.ts), every era of
 * each, run on the model (in its Lua VM) and on a real redis-server 7: trySetPermits, RSemaphore's
 * acquire and release, RPermitExpirableSemaphore's acquire (taking a permit, the nearest lease
 * end when none is free, the reclaim of expired permits with unpack) and release (of a permit
 * held, gone, or expired but not yet reclaimed), and a wrong type under each. The scores are
 * the caller's clock, passed as arguments, so nothing depends on the servers' time.
 */
import { expect, it } from 'vitest';
import {
  EXPIRABLE_ACQUIRE,
  EXPIRABLE_RELEASE,
  EXPIRABLE_TRY_SET,
  NON_EXPIRABLE_TIMEOUT as NEVER,
  SEMAPHORE_ACQUIRE,
  SEMAPHORE_RELEASE,
  SEMAPHORE_TRY_SET,
  type ScriptEra,
} from '../../src/variants/locks/redisson/semaphore-scripts.js';
import { atLeastVersion } from '../../src/variants/locks/redisson/semaphore-scripts.js';
import type { Step } from './harness.js';
import { withRealRedis } from './setup.js';

const c = (...args: string[]): Step => ({ args });
const S = 'sem';
const T = '{sem}:timeout';
const CH = 'redisson_sc:{sem}';
const from = (era: ScriptEra, since: string): boolean => atLeastVersion(era.since, since);

type Case = [title: string, keys: string[], steps: Step[]];

const trySet = (era: ScriptEra, key: string, n: string): Step => c('EVAL', era.lua, '2', key, CH, n, ...(from(era, '3.22.0') ? ['PUBLISH'] : []));

const CASES: Case[] = [
  ...SEMAPHORE_TRY_SET.map((era): Case => [`trySetPermits since ${era.since}: sets a missing count only; WRONGTYPE on a hash`, [S, 'h'], [
    trySet(era, S, '3'), trySet(era, S, '5'), c('GET', S), c('SET', S, '0'), trySet(era, S, '2'), c('HSET', 'h', 'f', '1'), trySet(era, 'h', '2'),
  ]]),
  ...EXPIRABLE_TRY_SET.map((era): Case => [`expirable trySetPermits since ${era.since}`, [S], [trySet(era, S, '2'), trySet(era, S, '2'), c('GET', S)]]),
  ...SEMAPHORE_ACQUIRE.flatMap((acquire) => SEMAPHORE_RELEASE.map((release): Case => {
    const take = (key = S): Step => c('EVAL', acquire.lua, '1', key, '1');
    const give = (key = S): Step => c('EVAL', release.lua, '2', key, CH, '1', ...(from(release, '3.22.0') ? ['PUBLISH'] : []));
    return [`RSemaphore acquire since ${acquire.since}, release since ${release.since}: three permits, a fourth refused, a release by anyone adds one; a count that is no number`, [S, 'none', 'h'], [
      c('SET', S, '3'), take(), take(), take(), take(), c('GET', S), give(), take(), give(), give(), give(), give(), c('GET', S),
      take('none'), give('none'), c('GET', 'none'), c('HSET', 'h', 'f', '1'), take('h'), give('h'), c('SET', S, 'abc'), take(), give(),
    ]];
  })),
  ...EXPIRABLE_ACQUIRE.flatMap((acquire) => EXPIRABLE_RELEASE.map((release): Case => {
    const multi = from(acquire, '3.23.4');
    const take = (id: string, leaseEnd: string, nowMs: string, key = S): Step => multi
      ? c('EVAL', acquire.lua, '3', key, T, CH, '1', leaseEnd, nowMs, NEVER, 'PUBLISH', id)
      : c('EVAL', acquire.lua, '3', key, T, CH, '1', leaseEnd, id, nowMs, NEVER, ...(from(acquire, '3.22.0') ? ['PUBLISH'] : []));
    const give = (id: string, nowMs: string): Step => c('EVAL', release.lua, '3', S, CH, T, id, '1', ...(from(release, '3.17.0') ? [nowMs] : []), ...(from(release, '3.22.0') ? ['PUBLISH'] : []));
    return [`RPermitExpirableSemaphore acquire since ${acquire.since}, release since ${release.since}: leases, the nearest end, reclaim, release of a permit gone or expired`, [S, T, 'h'], [
      c('SET', S, '2'),
      take('a', '5000', '1000'), take('b', NEVER, '1100'), take('c', '9000', '1200'), c('ZRANGE', T, '0', '-1', 'WITHSCORES'),
      // At 6000 a's lease has run out: the next acquire gives it back and takes it.
      take('c', '9000', '6000'), c('GET', S), c('ZRANGE', T, '0', '-1', 'WITHSCORES'),
      give('b', '6100'), give('b', '6200'), c('GET', S),
      // c's lease (9000) has run out at 9500 but nobody reclaimed it: from 3.17.0 its release gives it back and answers 0.
      give('c', '9500'), c('GET', S), c('ZCARD', T),
      take('d', NEVER, '9600'), take('e', NEVER, '9700'), take('f', NEVER, '9800'),
      c('HSET', 'h', 'f', '1'), take('g', '5000', '1000', 'h'),
    ]];
  })),
];

withRealRedis('the model against redis-server 7: Redisson semaphore scripts', (conformance) => {
  for (const [title, keys, steps] of CASES) {
    it(title, async () => {
      expect(await conformance().run(steps, keys)).toEqual([]);
    });
  }
});
