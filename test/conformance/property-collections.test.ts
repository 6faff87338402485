/**
 * Random command sequences over lists, sets, sorted sets, the SCAN family, KEYS, OBJECT and
 * the blocking pops, on the model and on a real redis-server 7 (harness.ts): every reply and
 * the keyspace after every step must agree. Keys are shared between every type, so WRONGTYPE,
 * the deletion of an emptied value and the encoding conversions come up. Members include
 * integers (intsets) and long ones (a skiplist past 64 bytes); scores include -0, inf, tiny and
 * half-way values (%.17g).
 *
 * A second property interleaves blocking pops on two connections with pushes, pops and deletes
 * on a third, and unblocks whatever still waits at the end (CLIENT UNBLOCK): who is served
 * what, in which order, must agree. Seeded: LOCK_SIM_CONFORMANCE_SEED, _RUNS (sequences of the
 * first property), _BLOCKING_RUNS.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Step } from './harness.js';
import { withRealRedis } from './setup.js';

const SEED = Number(process.env.LOCK_SIM_CONFORMANCE_SEED ?? 20_261_130);
const RUNS = Number(process.env.LOCK_SIM_CONFORMANCE_RUNS ?? 300);
const BLOCKING_RUNS = Number(process.env.LOCK_SIM_CONFORMANCE_BLOCKING_RUNS ?? 100);

const KEYS = ['a', 'b', 'c', 's'];
const key = fc.constantFrom(...KEYS);
const member = fc.constantFrom('x', 'y', 'z', '1', '2', '-3', '007', '', 'm'.repeat(65), '9223372036854775808');
const members = fc.array(member, { minLength: 1, maxLength: 3 });
const index = fc.constantFrom('0', '1', '-1', '-2', '5', '-100', 'x');
const count = fc.constantFrom('0', '1', '2', '5', '-1', 'x');
const score = fc.constantFrom('0', '1', '-1', '1.5', '-0', 'inf', '-inf', '0.1', '1e17', '4.9e-324', 'nan', 'x', '1000000000000000.25');
const bound = fc.constantFrom('-inf', '+inf', '0', '1', '(1', '1.5', '(0', 'x');
const lexBound = fc.constantFrom('-', '+', '[x', '(y', '[1', 'x');
const side = fc.constantFrom('LEFT', 'RIGHT', 'left', 'UP');

const cmd = (args: string[]): fc.Arbitrary<string[]> => fc.constant(args);

const listCommand = fc.oneof(
  fc.tuple(fc.constantFrom('LPUSH', 'RPUSH', 'LPUSHX', 'RPUSHX'), key, members).map(([c, k, m]) => [c, k, ...m]),
  fc.tuple(fc.constantFrom('LPOP', 'RPOP'), key, fc.option(count)).map(([c, k, n]) => (n === null ? [c, k] : [c, k, n])),
  fc.tuple(key, index, index).map(([k, s, e]) => ['LRANGE', k, s, e]),
  fc.tuple(key, index, index).map(([k, s, e]) => ['LTRIM', k, s, e]),
  fc.tuple(fc.constantFrom('LLEN'), key).map(([c, k]) => [c, k]),
  fc.tuple(key, index).map(([k, i]) => ['LINDEX', k, i]),
  fc.tuple(key, index, member).map(([k, i, m]) => ['LSET', k, i, m]),
  fc.tuple(key, index, member).map(([k, i, m]) => ['LREM', k, i, m]),
  fc.tuple(key, fc.constantFrom('BEFORE', 'AFTER', 'x'), member, member).map(([k, w, p, m]) => ['LINSERT', k, w, p, m]),
  fc.tuple(key, member, fc.subarray([['RANK', '-1'], ['COUNT', '0'], ['MAXLEN', '2'], ['RANK', '2']])).map(([k, m, o]) => ['LPOS', k, m, ...o.flat()]),
  fc.tuple(key, key, side, side).map(([s, d, f, t]) => ['LMOVE', s, d, f, t]),
  fc.tuple(key, key).map(([s, d]) => ['RPOPLPUSH', s, d]),
  fc.tuple(fc.array(key, { minLength: 1, maxLength: 2 }), side, fc.option(count)).map(([ks, w, n]) => ['LMPOP', String(ks.length), ...ks, w, ...(n === null ? [] : ['COUNT', n])]),
);

const setCommand = fc.oneof(
  fc.tuple(fc.constantFrom('SADD', 'SREM'), key, members).map(([c, k, m]) => [c, k, ...m]),
  fc.tuple(fc.constantFrom('SISMEMBER'), key, member).map(([c, k, m]) => [c, k, m]),
  fc.tuple(key, members).map(([k, m]) => ['SMISMEMBER', k, ...m]),
  key.map((k) => ['SCARD', k]),
  fc.tuple(key, key, member).map(([s, d, m]) => ['SMOVE', s, d, m]),
);

const zsetCommand = fc.oneof(
  fc.tuple(key, fc.subarray(['NX', 'XX', 'GT', 'LT', 'CH', 'INCR'], { maxLength: 2 }), fc.array(fc.tuple(score, member), { minLength: 1, maxLength: 2 })).map(([k, o, p]) => ['ZADD', k, ...o, ...p.flat()]),
  fc.tuple(key, score, member).map(([k, s, m]) => ['ZINCRBY', k, s, m]),
  fc.tuple(key, members).map(([k, m]) => ['ZREM', k, ...m]),
  fc.tuple(fc.constantFrom('ZSCORE', 'ZRANK', 'ZREVRANK'), key, member).map(([c, k, m]) => [c, k, m]),
  fc.tuple(key, members).map(([k, m]) => ['ZMSCORE', k, ...m]),
  key.map((k) => ['ZCARD', k]),
  fc.tuple(key, bound, bound).map(([k, a, b]) => ['ZCOUNT', k, a, b]),
  fc.tuple(key, index, index, fc.subarray(['WITHSCORES', 'REV'])).map(([k, s, e, o]) => ['ZRANGE', k, s, e, ...o]),
  fc.tuple(key, bound, bound, fc.subarray(['WITHSCORES', 'REV']), fc.option(fc.tuple(index, index))).map(([k, a, b, o, l]) => ['ZRANGE', k, a, b, 'BYSCORE', ...o, ...(l === null ? [] : ['LIMIT', ...l])]),
  fc.tuple(key, lexBound, lexBound).map(([k, a, b]) => ['ZRANGE', k, a, b, 'BYLEX']),
  fc.tuple(fc.constantFrom('ZREMRANGEBYSCORE', 'ZREMRANGEBYRANK'), key, bound, bound).map(([c, k, a, b]) => [c, k, c === 'ZREMRANGEBYRANK' ? a.replace(/[(inf+-]/g, '') || '0' : a, b]),
  fc.tuple(fc.constantFrom('ZPOPMIN', 'ZPOPMAX'), key, fc.option(count)).map(([c, k, n]) => (n === null ? [c, k] : [c, k, n])),
  fc.tuple(fc.array(key, { minLength: 1, maxLength: 2 }), fc.constantFrom('MIN', 'MAX'), fc.option(count)).map(([ks, w, n]) => ['ZMPOP', String(ks.length), ...ks, w, ...(n === null ? [] : ['COUNT', n])]),
);

const otherCommand = fc.oneof(
  fc.tuple(key, fc.constantFrom('v', '10', 'x'.repeat(50))).map(([k, v]) => ['SET', k, v]),
  fc.tuple(key, fc.constantFrom('f', 'g'), fc.constantFrom('1', 'v')).map(([k, f, v]) => ['HSET', k, f, v]),
  fc.tuple(fc.constantFrom('DEL', 'TYPE', 'EXISTS', 'INCR', 'GET'), key).map(([c, k]) => [c, k]),
  fc.tuple(fc.constantFrom('ENCODING', 'REFCOUNT'), key).map(([s, k]) => ['OBJECT', s, k]),
  fc.tuple(key, fc.constantFrom('90000', '150000')).map(([k, ms]) => ['PEXPIRE', k, ms]),
  cmd(['DBSIZE']),
  // Blocking pops inside a script (BLMPOP / BZMPOP run there without blocking).
  fc.tuple(key, side).map(([k, w]) => ['EVAL', 'return redis.call(ARGV[1], 0, 1, KEYS[1], ARGV[2])', '1', k, 'BLMPOP', w]),
);

/** Commands replied to in an order of their own: a hashtable's dict order (compared as multisets). */
const unorderedCommand = fc.oneof(key.map((k) => ['SMEMBERS', k]), fc.constantFrom('*', '?', '[ab]', 's*').map((p) => ['KEYS', p]), key.map((k) => ['HKEYS', k]));

const scanStep: fc.Arbitrary<Step> = fc.oneof(
  fc.option(fc.constantFrom('string', 'list', 'set', 'zset', 'hash')).map((t): Step => ({ scanAll: t === null ? ['SCAN'] : ['SCAN', 'TYPE', t] })),
  fc.tuple(fc.constantFrom('SSCAN', 'HSCAN', 'ZSCAN'), key, fc.option(fc.constantFrom('x*', '?', '*'))).map(([c, k, p]): Step => ({ scanAll: [c, k, ...(p === null ? [] : ['MATCH', p])] })),
);

/** Blocking pops where they may not block: inside MULTI. */
const deniedBlocking = fc.tuple(key, key).map(([k1, k2]) => [['BLPOP', k1, k2, '0'], ['BZPOPMAX', k1, '0'], ['BLMOVE', k1, k2, 'LEFT', 'RIGHT', '0'], ['BZMPOP', '0', '1', k2, 'MIN']]);

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: listCommand.map((args): Step => ({ args })) },
  { weight: 4, arbitrary: setCommand.map((args): Step => ({ args })) },
  { weight: 5, arbitrary: zsetCommand.map((args): Step => ({ args })) },
  { weight: 2, arbitrary: otherCommand.map((args): Step => ({ args })) },
  { weight: 1, arbitrary: unorderedCommand.map((args): Step => ({ args, unordered: true })) },
  { weight: 1, arbitrary: scanStep },
  { weight: 1, arbitrary: fc.oneof(fc.array(fc.oneof(listCommand, setCommand, zsetCommand), { minLength: 1, maxLength: 3 }), deniedBlocking).map((multi): Step => ({ multi })) },
);

/** Pushes, pops and deletes on connection a while b and c block. */
const blockingStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('b', 'c'), fc.constantFrom('BLPOP', 'BRPOP'), fc.subarray(['a', 'b', 'c'], { minLength: 1 })).map(([on, c, ks]): Step => ({ on, args: [c, ...ks, '0'], async: true })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('b', 'c'), key, key, side.filter((s) => s !== 'UP'), side.filter((s) => s !== 'UP')).map(([on, s, d, f, t]): Step => ({ on, args: ['BLMOVE', s, d, f, t, '0'], async: true })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('b', 'c'), fc.subarray(['a', 'b', 'c'], { minLength: 1 }), count.filter((n) => /^[1-9]/.test(n))).map(([on, ks, n]): Step => ({ on, args: ['BLMPOP', '0', String(ks.length), ...ks, 'LEFT', 'COUNT', n], async: true })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('b', 'c'), fc.constantFrom('BZPOPMIN', 'BZPOPMAX'), key).map(([on, c, k]): Step => ({ on, args: [c, k, '0'], async: true })) },
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom('LPUSH', 'RPUSH'), fc.constantFrom('a', 'b', 'c'), members).map(([c, k, m]): Step => ({ args: [c, k, ...m] })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', 'b', 'c'), score, member).map(([k, s, m]): Step => ({ args: ['ZADD', k, s, m] })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('LPOP', 'DEL', 'TYPE'), key).map(([c, k]): Step => ({ args: [c, k] })) },
  { weight: 1, arbitrary: fc.tuple(key, key).map(([k, d]): Step => ({ multi: [['RPUSH', k, 'm1', 'm2'], ['LPOP', k], ['LMOVE', k, d, 'LEFT', 'LEFT']] })) },
  { weight: 1, arbitrary: fc.constantFrom('b', 'c').map((who): Step => ({ args: ['CLIENT', 'UNBLOCK', `@${who}`] })) },
);

withRealRedis('the model against redis-server 7: random sequences over lists, sets, sorted sets, SCAN, blocking pops', (conformance) => {
  it(`random sequences over every type agree (seed ${SEED}, ${RUNS} sequences)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const found = await conformance().run(steps, KEYS);
        expect(found, found.slice(0, 4).map((d) => `step ${d.step} ${d.what}: model ${JSON.stringify(d.model)}, real ${JSON.stringify(d.real)}`).join('\n')).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: false },
    );
  });

  it(`random interleavings of blocking pops and pushes on three connections agree (seed ${SEED}, ${BLOCKING_RUNS} sequences)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(blockingStep, { minLength: 1, maxLength: 20 }), async (steps) => {
        // Whatever still waits at the end is unblocked (a nil answer), so every pending command is compared.
        const found = await conformance().run(steps, ['a', 'b', 'c'], { unblockAtEnd: true });
        expect(found, found.slice(0, 4).map((d) => `step ${d.step} ${d.what}: model ${JSON.stringify(d.model)}, real ${JSON.stringify(d.real)}`).join('\n')).toEqual([]);
      }),
      { seed: SEED, numRuns: BLOCKING_RUNS, endOnFailure: false },
    );
  });
});
