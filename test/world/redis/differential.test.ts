/**
 * Our Redis model and its built-in scripts against ioredis-mock, which runs the scripts'
 * Lua text in a real Lua VM (fengari). Random command sequences under controlled time;
 * every reply must agree, PTTLs included.
 *
 * Known ioredis-mock deviations from Redis 7 that the generators avoid (our model follows Redis):
 * - a key is expired in Redis when now > deadline, in the mock when now >= deadline, so time
 *   never lands exactly on a deadline;
 * - non-positive TTLs (SET PX 0 is an error in Redis, not in the mock) are not generated;
 * - type errors (WRONGTYPE) are not checked by the mock: string and hash keys are kept apart;
 * - a number a script passes to redis.call (Redisson's latch: set KEYS[3] 1) is stored by the
 *   mock as a number, by Redis as its decimal text: a GET of it is compared as text;
 * - SET's expiry option inside a script is read by the mock only in capitals: Redisson's latch
 *   (`redis.call('set', KEYS[3], 1, 'px', ARGV[5])`) left the latch with no TTL there (PTTL -1),
 *   while Redis 7 takes `px` in any case (t_string.c parseExtendedStringArgumentsOrReply
 *   compares with strcasecmp). The mock runs the scripts with `'PX'` (withCapitalSetOptions).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import RedisMock from 'ioredis-mock';
import { executeKeyspaceCommand } from '../../../src/world/redis/commands.js';
import { Keyspace } from '../../../src/world/redis/keyspace.js';
import { isErrorReply, type RedisReply } from '../../../src/world/redis/reply.js';
import {
  BUILTIN_SCRIPTS,
  compareAndDelete,
  compareAndPexpire,
  fencedAcquire,
  redissonAcquire,
  redissonRenew,
  redissonRenewMany,
  redissonUnlock,
  redissonUnlockLatch,
  runBuiltin,
  sha1,
} from '../../../src/world/redis/scripts.js';

const START_MS = 1_700_000_000_000;
const strKey = fc.constantFrom('s1', 's2');
const hashKey = fc.constantFrom('h1', 'h2');
const value = fc.constantFrom('tokA', 'tokB', 'locked');
const owner = fc.constantFrom('uuid-1:57', 'uuid-2:58');
const ttl = fc.integer({ min: 1, max: 5_000 });
/** Redisson's unlock latches: string keys only the latch script writes (its value must be 0 or 1). */
const latchKey = fc.constantFrom('l1', 'l2');

type Step = { kind: 'advance'; ms: number } | { kind: 'cmd'; args: string[] } | { kind: 'script'; name: string; keys: string[]; argv: string[] };

const command: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3_000 }) }),
  fc.tuple(strKey, value, fc.constantFrom([], ['NX'], ['XX']), fc.oneof(fc.constant([] as string[]), ttl.map((n) => ['PX', String(n)]), fc.integer({ min: 1, max: 5 }).map((n) => ['EX', String(n)])))
    .map(([k, v, c, e]) => ({ kind: 'cmd' as const, args: ['SET', k, v, ...c, ...e] })),
  fc.tuple(strKey, value).map(([k, v]) => ({ kind: 'cmd' as const, args: ['SETNX', k, v] })),
  fc.tuple(fc.constantFrom('GET', 'DEL', 'EXISTS', 'PTTL'), strKey).map(([c, k]) => ({ kind: 'cmd' as const, args: [c, k] })),
  fc.tuple(fc.constantFrom('EXISTS', 'PTTL', 'DEL'), hashKey).map(([c, k]) => ({ kind: 'cmd' as const, args: [c, k] })),
  fc.tuple(fc.oneof(strKey, hashKey), ttl).map(([k, n]) => ({ kind: 'cmd' as const, args: ['PEXPIRE', k, String(n)] })),
  fc.tuple(strKey, fc.integer({ min: 1, max: 5 })).map(([k, n]) => ({ kind: 'cmd' as const, args: ['EXPIRE', k, String(n)] })),
  fc.constant<Step>({ kind: 'cmd', args: ['INCR', 'n1'] }),
  fc.tuple(hashKey, owner, fc.integer({ min: -2, max: 3 })).map(([k, f, n]) => ({ kind: 'cmd' as const, args: ['HINCRBY', k, f, String(n)] })),
  fc.tuple(hashKey, owner).map(([k, f]) => ({ kind: 'cmd' as const, args: ['HEXISTS', k, f] })),
  fc.tuple(hashKey, owner).map(([k, f]) => ({ kind: 'cmd' as const, args: ['HDEL', k, f] })),
  fc.tuple(strKey, value).map(([k, v]) => ({ kind: 'script' as const, name: compareAndDelete.name, keys: [k], argv: [v] })),
  fc.tuple(strKey, value, ttl).map(([k, v, l]) => ({ kind: 'script' as const, name: compareAndPexpire.name, keys: [k], argv: [v, String(l)] })),
  fc.tuple(strKey, value, ttl).map(([k, v, l]) => ({ kind: 'script' as const, name: fencedAcquire.name, keys: [k, 'n1'], argv: [v, String(l)] })),
  fc.tuple(hashKey, ttl, owner).map(([k, l, o]) => ({ kind: 'script' as const, name: redissonAcquire.name, keys: [k], argv: [String(l), o] })),
  fc.tuple(hashKey, ttl, owner).map(([k, l, o]) => ({ kind: 'script' as const, name: redissonRenew.name, keys: [k], argv: [String(l), o] })),
  fc.tuple(hashKey, ttl, owner).map(([k, l, o]) => ({ kind: 'script' as const, name: redissonUnlock.name, keys: [k, `redisson_lock__channel:{${k}}`], argv: ['0', String(l), o] })),
  fc.tuple(hashKey, latchKey, ttl, owner, ttl).map(([k, latch, l, o, px]) => ({
    kind: 'script' as const, name: redissonUnlockLatch.name, keys: [k, `redisson_lock__channel:{${k}}`, latch], argv: ['0', String(l), o, 'PUBLISH', String(px)],
  })),
  fc.tuple(fc.array(fc.tuple(hashKey, owner), { minLength: 1, maxLength: 3 }), ttl).map(([locks, l]) => ({
    kind: 'script' as const, name: redissonRenewMany.name, keys: locks.map(([k]) => k), argv: [String(l), ...locks.map(([, o]) => o)],
  })),
  fc.tuple(fc.constantFrom('GET', 'PTTL', 'DEL'), latchKey).map(([c, k]) => ({ kind: 'cmd' as const, args: [c, k] })),
);

/**
 * ioredis-mock takes a Lua table for an array only when its keys iterate in descending order
 * (its isTopArray reverses them), which a table built with table.insert does not: it hands
 * back a Lua proxy. For scripts that return an array, the mock runs the same text inside a
 * function whose array result is joined into one string, and ours is joined the same way.
 */
const returnsArray = new Set([redissonRenewMany.name]);
const asJoinedLua = (lua: string): string =>
  `local r = (function() ${lua} end)(); if type(r) ~= 'table' then return r end; local s = {}; for i = 1, #r do s[i] = tostring(r[i]) end; return table.concat(s, ',')`;

/** The script as the mock can read it: SET's lower-case `'px'` option in capitals (see the header). */
const withCapitalSetOptions = (lua: string): string => lua.replaceAll("'px'", "'PX'");

function normalise(r: RedisReply): unknown {
  if (isErrorReply(r)) return 'ERROR';
  return r;
}

describe('Redis model vs ioredis-mock (Lua scripts run in a Lua VM)', () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it('generates every built-in script', () => {
    const names = new Set(fc.sample(command, { numRuns: 3000, seed: 1 }).flatMap((s) => (s.kind === 'script' ? [s.name] : [])));
    expect([...names].sort()).toEqual(BUILTIN_SCRIPTS.map((s) => s.name).sort());
  });

  it('agrees on random command and script sequences, TTLs included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 40 }), async (steps) => {
        let now = START_MS;
        vi.setSystemTime(now);
        const mock = new RedisMock();
        await mock.flushall();
        const ks = new Keyspace(() => now);
        const deadlines = (): number[] =>
          ks.keys().map((k) => ks.rawGet(k)?.expireAtMs).filter((d): d is number => d != null);
        for (const step of steps) {
          if (step.kind === 'advance') {
            now += step.ms;
            // Never land exactly on a deadline (the mock's >= vs Redis's >).
            while (deadlines().includes(now)) now += 1;
            vi.setSystemTime(now);
            continue;
          }
          let ours: unknown;
          let theirs: unknown;
          if (step.kind === 'cmd') {
            ours = normalise(executeKeyspaceCommand(ks, step.args, 't'));
            try {
              const [name, ...rest] = step.args;
              theirs = await (mock as unknown as Record<string, (...a: string[]) => Promise<unknown>>)[name.toLowerCase()](...rest);
              if (name === 'GET' && typeof theirs === 'number') theirs = String(theirs);
            } catch {
              theirs = 'ERROR';
            }
          } else {
            const script = BUILTIN_SCRIPTS.find((s) => s.name === step.name)!;
            const native = normalise(runBuiltin(script, { keyspace: ks, publish: () => 0, tag: 't', sha: sha1(script.lua), writeRefusal: () => null }, step.keys, step.argv));
            const joined = returnsArray.has(script.name);
            ours = joined && Array.isArray(native) ? native.join(',') : native;
            try {
              const lua = withCapitalSetOptions(script.lua);
              theirs = await mock.eval(joined ? asJoinedLua(lua) : lua, step.keys.length, ...step.keys, ...step.argv);
            } catch {
              theirs = 'ERROR';
            }
          }
          expect({ step, reply: ours }).toEqual({ step, reply: theirs ?? null });
        }
        mock.disconnect();
      }),
      { numRuns: 150 },
    );
  });
});
