/**
 * Random command sequences over every command the model answers, on the model and on a real
 * redis-server 7 (harness.ts): every reply and the keyspace after every step must agree.
 * Seeded and reproducible: LOCK_SIM_CONFORMANCE_SEED and LOCK_SIM_CONFORMANCE_RUNS override
 * the seed and the number of sequences; fast-check prints the seed and the shrunk sequence of
 * a failure.
 *
 * Keys are shared between string and hash commands, so WRONGTYPE comes up, also inside the
 * built-in scripts (the fixed scripts EVAL sends: lock-sim runs only those without a Lua VM).
 * Values include "-0", "007", the 64-bit bounds and the empty string. TTLs follow the
 * harness's rule (no deadline within 30 s of a step): relative 90/150/210 s (or 0, negative,
 * not a number), absolute on whole minutes from the start ("@ms+2", "@s-2" are replaced when
 * the sequence starts), or the 64-bit maximum.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  compareAndDelete,
  fencedAcquire,
  redissonAcquire,
  redissonRenew,
  redissonRenewMany,
  redissonUnlock,
  redissonUnlockLatch,
  sha1,
} from '../../src/world/redis/scripts.js';
import type { Step } from './harness.js';
import { withRealRedis } from './setup.js';

const SEED = Number(process.env.LOCK_SIM_CONFORMANCE_SEED ?? 20_261_130);
const RUNS = Number(process.env.LOCK_SIM_CONFORMANCE_RUNS ?? 150);

const KEYS = ['k1', 'k2', 'h1', 'n'];
const key = fc.constantFrom(...KEYS);
const field = fc.constantFrom('f', 'g', 'u:1', 'u:2');
const value = fc.constantFrom('a', 'b', '0', '1', '-1', '-0', '007', '', '9223372036854775806', '9223372036854775807', '-9223372036854775808');
const increment = fc.constantFrom('1', '-1', '5', '0', '-0', 'x', '9223372036854775807', '-9223372036854775808');
const relMs = fc.constantFrom('90000', '150000', '210000', '0', '-1', 'x', '9223372036854775807');
const relS = fc.constantFrom('90', '150', '210', '0', '-5', '9223372036854775');
const absMs = fc.constantFrom('@ms+1', '@ms+2', '@ms+3', '@ms-2', '1', '9223372036854775807');
const absS = fc.constantFrom('@s+1', '@s+2', '@s-2', '1');
const expireFlags = fc.subarray(['NX', 'XX', 'GT', 'LT'], { maxLength: 2 });

const cmd = (args: string[]): fc.Arbitrary<string[]> => fc.constant(args);

/** SET with any subset of its options, in any order (valid and invalid combinations). */
const setCommand = fc
  .tuple(
    key,
    value,
    fc.subarray([['NX'], ['XX'], ['GET'], ['KEEPTTL']]),
    fc.option(fc.oneof(relMs.map((n) => ['PX', n]), relS.map((n) => ['EX', n]), absMs.map((n) => ['PXAT', n]), absS.map((n) => ['EXAT', n]))),
    fc.boolean(),
  )
  .map(([k, v, flags, expiry, expiryFirst]) => {
    const options = expiry === null ? flags.flat() : expiryFirst ? [...expiry, ...flags.flat()] : [...flags.flat(), ...expiry];
    return ['SET', k, v, ...options];
  });

const expireCommand = fc.oneof(
  fc.tuple(key, relMs, expireFlags).map(([k, n, f]) => ['PEXPIRE', k, n, ...f]),
  fc.tuple(key, relS, expireFlags).map(([k, n, f]) => ['EXPIRE', k, n, ...f]),
  fc.tuple(key, absMs, expireFlags).map(([k, n, f]) => ['PEXPIREAT', k, n, ...f]),
  fc.tuple(key, absS, expireFlags).map(([k, n, f]) => ['EXPIREAT', k, n, ...f]),
);

const channel = 'redisson_lock__channel:{h1}';
const scriptCommand = fc.oneof(
  fc.tuple(key, value).map(([k, v]) => ['EVAL', compareAndDelete.lua, '1', k, v]),
  fc.tuple(key, key, value, relMs).map(([k, n, v, px]) => ['EVAL', fencedAcquire.lua, '2', k, n, v, px]),
  fc.tuple(key, relMs, field).map(([k, l, o]) => ['EVAL', redissonRenew.lua, '1', k, l, o]),
  fc.tuple(key, relMs, field).map(([k, l, o]) => ['EVAL', redissonUnlock.lua, '2', k, channel, '0', l, o]),
  fc.tuple(key, key, relMs, field, relMs).map(([k, latch, l, o, px]) => ['EVAL', redissonUnlockLatch.lua, '3', k, channel, latch, '0', l, o, 'PUBLISH', px]),
  fc.tuple(fc.subarray(KEYS, { minLength: 1 }), relMs, field).map(([ks, l, o]) => ['EVAL', redissonRenewMany.lua, String(ks.length), ...ks, l, ...ks.map(() => o)]),
  fc.tuple(fc.constantFrom(compareAndDelete, redissonRenew), key, field).map(([s, k, o]) => ['EVALSHA', sha1(s.lua), '1', k, o, o]),
  fc.constantFrom(compareAndDelete, redissonRenew).map((s) => ['SCRIPT', 'LOAD', s.lua]),
  cmd(['SCRIPT', 'EXISTS', sha1(compareAndDelete.lua), sha1(redissonRenew.lua)]),
  cmd(['SCRIPT', 'FLUSH']),
);

/** Commands whose replies hold no time left: safe inside a transaction, compared exactly. */
const exactCommand: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 4, arbitrary: setCommand },
  { weight: 3, arbitrary: expireCommand },
  { weight: 1, arbitrary: fc.tuple(key, value).map(([k, v]) => ['SETNX', k, v]) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('GET', 'DEL', 'EXISTS', 'TYPE', 'INCR', 'HGETALL', 'HLEN'), key).map(([c, k]) => [c, k]) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('DEL', 'EXISTS'), fc.array(key, { minLength: 2, maxLength: 3 })).map(([c, ks]) => [c, ...ks]) },
  { weight: 3, arbitrary: fc.tuple(key, fc.array(fc.tuple(field, value), { minLength: 1, maxLength: 2 })).map(([k, fv]) => ['HSET', k, ...fv.flat()]) },
  { weight: 1, arbitrary: fc.tuple(key, field, value).map(([k, f, v]) => ['HSETNX', k, f, v]) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('HGET', 'HEXISTS'), key, field).map(([c, k, f]) => [c, k, f]) },
  { weight: 2, arbitrary: fc.tuple(key, field, increment).map(([k, f, n]) => ['HINCRBY', k, f, n]) },
  { weight: 1, arbitrary: fc.tuple(key, fc.array(field, { minLength: 1, maxLength: 2 })).map(([k, fs]) => ['HDEL', k, ...fs]) },
  { weight: 3, arbitrary: scriptCommand },
  {
    weight: 1,
    arbitrary: fc.oneof(
      cmd(['PUBLISH', channel, 'm']),
      cmd(['WAIT', '0', '0']),
      cmd(['INFO', 'replication']),
      cmd(['PING']),
      cmd(['NOSUCHCMD', 'k1']),
      cmd(['GET']),
      cmd(['HSET', 'h1', 'f']),
      cmd(['INCR', 'n', 'n']),
    ),
  },
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 10, arbitrary: exactCommand.map((args): Step => ({ args })) },
  { weight: 1, arbitrary: key.map((k): Step => ({ args: ['PTTL', k], tol: 'ms' })) },
  { weight: 1, arbitrary: key.map((k): Step => ({ args: ['TTL', k], tol: 's' })) },
  { weight: 2, arbitrary: fc.tuple(key, relMs, field).map(([k, l, o]): Step => ({ args: ['EVAL', redissonAcquire.lua, '1', k, l, o], tol: 'ms' })) },
  { weight: 1, arbitrary: fc.array(exactCommand, { maxLength: 3 }).map((multi): Step => ({ multi })) },
);

/** Replaces "@ms+N" / "@s-N" with whole minutes from the sequence's start. */
function at(startMs: number, arg: string): string {
  const m = /^@(ms|s)([+-]\d+)$/.exec(arg);
  if (m === null) return arg;
  const minutes = Number(m[2]);
  return m[1] === 'ms' ? String(startMs + minutes * 60_000) : String(Math.floor(startMs / 1000) + minutes * 60);
}

const resolve = (steps: readonly Step[]) => (startMs: number): Step[] =>
  steps.map((s) => ('multi' in s ? { multi: s.multi.map((c) => c.map((a) => at(startMs, a))) } : 'args' in s ? { ...s, args: s.args.map((a) => at(startMs, a)) } : s));

withRealRedis('the model against redis-server 7: random sequences', (conformance) => {
  it(`random sequences over every modelled command agree (seed ${SEED}, ${RUNS} sequences)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        expect(await conformance().run(resolve(steps), KEYS)).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: false },
    );
  });
});
