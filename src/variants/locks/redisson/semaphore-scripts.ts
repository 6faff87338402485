/**
 * The Lua of Redisson's two semaphores, version by version, as the Java source concatenates
 * it (github.com/redisson/redisson, redisson/src/main/java/org/redisson/). Unlike RLock's
 * scripts these have no native twin (world/redis/scripts.ts): they run verbatim in the Lua VM
 * the model's nodes are given for them (own-code/lua-runner.ts; runner/run.ts), so what runs
 * is upstream's text, and test/conformance/ checks each one against redis-server.
 *
 * Key layout (RedissonObject.prefixName / suffixName, same at every tag read):
 * - the semaphore's name holds the available permits as a string (INCRBY / DECRBY);
 * - `redisson_sc:{name}`: the channel a release publishes the new count to;
 * - RPermitExpirableSemaphore only: `{name}:timeout`, a sorted set of the permits taken, each
 *   permit id scored with the client's clock at which its lease runs out (922337203685477, the
 *   class's nonExpirableTimeout, for a permit without lease).
 */

/** A script's text in effect from `since` (inclusive) until the next entry's. */
export interface ScriptEra {
  since: string;
  lua: string;
  source: string;
}

/** RedissonPermitExpirableSemaphore.nonExpirableTimeout: the score of a permit taken without a lease. */
export const NON_EXPIRABLE_TIMEOUT = '922337203685477';

/** RedissonObject.prefixName("redisson_sc", name) for a name without braces. */
export const semaphoreChannelOf = (name: string): string => `redisson_sc:{${name}}`;

/** RedissonObject.suffixName(name, "timeout") for a name without braces. */
export const timeoutSetOf = (name: string): string => `{${name}}:timeout`;

/** RedissonSemaphore.tryAcquireAsync(int) (tryAcquireAsync0 from 3.21.0): the same text at every tag. KEYS = [name], ARGV = [permits]; 1 = taken, 0 = not enough. */
export const SEMAPHORE_ACQUIRE: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua:
      "local value = redis.call('get', KEYS[1]); " +
      "if (value ~= false and tonumber(value) >= tonumber(ARGV[1])) then " +
      "local val = redis.call('decrby', KEYS[1], ARGV[1]); " +
      'return 1; ' +
      'end; ' +
      'return 0;',
    source: 'RedissonSemaphore.java tryAcquireAsync @ redisson-3.11.0 .. tryAcquireAsync0 @ redisson-4.7.0',
  },
];

/**
 * RedissonSemaphore.releaseAsync(int): INCRBY whoever calls it, no owner, and the new count
 * published. KEYS = [name, channel], ARGV = [permits] (+ the publish command from 3.22.0).
 */
export const SEMAPHORE_RELEASE: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua: "local value = redis.call('incrby', KEYS[1], ARGV[1]); redis.call('publish', KEYS[2], value); ",
    source: 'RedissonSemaphore.java releaseAsync @ redisson-3.11.0 .. redisson-3.21.3',
  },
  {
    since: '3.22.0',
    lua: "local value = redis.call('incrby', KEYS[1], ARGV[1]); redis.call(ARGV[2], KEYS[2], value); ",
    source: 'RedissonSemaphore.java releaseAsync @ redisson-3.22.0 .. redisson-4.7.0',
  },
];

/**
 * trySetPermitsAsync(int): sets the count when the key does not exist. KEYS = [name, channel],
 * ARGV = [permits] (+ the publish command from 3.22.0). RSemaphore's first text also accepts a
 * value == 0, which a string never is in Lua: the same behaviour.
 */
const TRY_SET_OR_ZERO =
  "local value = redis.call('get', KEYS[1]); if (value == false or value == 0) then redis.call('set', KEYS[1], ARGV[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1;end;return 0;";
const TRY_SET =
  "local value = redis.call('get', KEYS[1]); if (value == false) then redis.call('set', KEYS[1], ARGV[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1;end;return 0;";
const TRY_SET_COMMAND =
  "local value = redis.call('get', KEYS[1]); if (value == false) then redis.call('set', KEYS[1], ARGV[1]); redis.call(ARGV[2], KEYS[2], ARGV[1]); return 1;end;return 0;";

export const SEMAPHORE_TRY_SET: readonly ScriptEra[] = [
  { since: '3.11.0', lua: TRY_SET_OR_ZERO, source: 'RedissonSemaphore.java trySetPermitsAsync @ redisson-3.11.0 .. redisson-3.16.2' },
  { since: '3.16.3', lua: TRY_SET, source: 'RedissonSemaphore.java trySetPermitsAsync @ redisson-3.16.3 .. redisson-3.21.3' },
  { since: '3.22.0', lua: TRY_SET_COMMAND, source: 'RedissonSemaphore.java trySetPermitsAsync @ redisson-3.22.0 .. redisson-4.7.0' },
];

export const EXPIRABLE_TRY_SET: readonly ScriptEra[] = [
  { since: '3.11.0', lua: TRY_SET_OR_ZERO, source: 'RedissonPermitExpirableSemaphore.java trySetPermitsAsync @ redisson-3.11.0 .. redisson-3.18.0' },
  { since: '3.18.1', lua: TRY_SET, source: 'RedissonPermitExpirableSemaphore.java trySetPermitsAsync @ redisson-3.18.1 .. redisson-3.21.3' },
  { since: '3.22.0', lua: TRY_SET_COMMAND, source: 'RedissonPermitExpirableSemaphore.java trySetPermitsAsync @ redisson-3.22.0 .. redisson-4.7.0' },
];

/** The expired permits given back first, by every acquire: ZRANGEBYSCORE up to the caller's clock, ZREM, INCRBY, publish when positive. */
const reclaim = (now: string, limit: string, publish: string): string =>
  `local expiredIds = redis.call('zrangebyscore', KEYS[2], 0, ${now}, 'limit', 0, ${limit}); ` +
  'if #expiredIds > 0 then ' +
  "redis.call('zrem', KEYS[2], unpack(expiredIds)); " +
  "local value = redis.call('incrby', KEYS[1], #expiredIds); " +
  'if tonumber(value) > 0 then ' +
  `redis.call(${publish}, KEYS[3], value); ` +
  'end;' +
  'end; ';

/** The permit's own TTL follows the counter's (3.12.0+): none here, since the counter has no TTL. */
const FOLLOW_TTL = "local ttl = redis.call('pttl', KEYS[1]); if ttl > 0 then redis.call('pexpire', KEYS[2], ttl); end; ";

/** The nearest lease end when no permit is free, for a waiter's sleep: ':' .. score, or nil. */
const nearest = (nonExpirable: string): string =>
  "local v = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES'); " +
  `if v[1] ~= nil and v[2] ~= ${nonExpirable} then ` +
  "return ':' .. tostring(v[2]); " +
  'end ' +
  'return nil;';

const takeOne = (id: string, ttl: string): string =>
  "local value = redis.call('get', KEYS[1]); " +
  'if (value ~= false and tonumber(value) >= tonumber(ARGV[1])) then ' +
  "redis.call('decrby', KEYS[1], ARGV[1]); " +
  `redis.call('zadd', KEYS[2], ARGV[2], ${id}); ` +
  ttl +
  `return ${id}; ` +
  'end; ';

/**
 * RedissonPermitExpirableSemaphore's acquire. KEYS = [name, timeout set, channel]. Up to
 * 3.23.3: ARGV = [permits, lease end, permit id, now, nonExpirableTimeout (, publish command)],
 * the id back when taken; from 3.23.4 (several ids per call): ARGV = [count, lease end, now,
 * nonExpirableTimeout, publish command, ids...], 'OK' when taken. Otherwise ':<nearest lease
 * end>' or nil.
 */
export const EXPIRABLE_ACQUIRE: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua: reclaim('ARGV[4]', 'ARGV[1]', "'publish'") + takeOne('ARGV[3]', '') + nearest('ARGV[5]'),
    source: 'RedissonPermitExpirableSemaphore.java tryAcquireAsync(int, long) @ redisson-3.11.0 .. redisson-3.11.6',
  },
  {
    since: '3.12.0',
    lua: reclaim('ARGV[4]', 'ARGV[1]', "'publish'") + takeOne('ARGV[3]', FOLLOW_TTL) + nearest('ARGV[5]'),
    source: 'RedissonPermitExpirableSemaphore.java tryAcquireAsync(int, long) @ redisson-3.12.0 .. redisson-3.21.3',
  },
  {
    since: '3.22.0',
    lua: reclaim('ARGV[4]', 'ARGV[1]', 'ARGV[6]') + takeOne('ARGV[3]', FOLLOW_TTL) + nearest('ARGV[5]'),
    source: 'RedissonPermitExpirableSemaphore.java tryAcquireAsync(byte[], int, long) @ redisson-3.22.0 .. redisson-3.23.3',
  },
  {
    since: '3.23.4',
    lua:
      reclaim('ARGV[3]', 'ARGV[1]', 'ARGV[5]') +
      "local value = redis.call('get', KEYS[1]); " +
      'if (value ~= false and tonumber(value) >= tonumber(ARGV[1])) then ' +
      "redis.call('decrby', KEYS[1], ARGV[1]); " +
      'for i = 6, #ARGV, 1 do ' +
      "redis.call('zadd', KEYS[2], ARGV[2], ARGV[i]); " +
      'end; ' +
      FOLLOW_TTL +
      "return 'OK'; " +
      'end; ' +
      nearest('ARGV[4]'),
    source: 'RedissonPermitExpirableSemaphore.java tryAcquireAsync(List<String>, long) @ redisson-3.23.4 .. redisson-4.7.0',
  },
];

/**
 * RedissonPermitExpirableSemaphore.tryReleaseAsync(String): ZREM of the permit id; when it
 * was there, INCRBY 1 and publish. KEYS = [name, channel, timeout set], ARGV = [id, 1 (, now
 * (, publish command))]. 1 = released; 0 = not there (already released, or reclaimed by an
 * acquire after its lease); from 3.17.0 also 0 for a permit whose lease had run out but that
 * nobody had reclaimed yet, which it still gives back (releaseAsync then throws).
 */
export const EXPIRABLE_RELEASE: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua:
      "local removed = redis.call('zrem', KEYS[3], ARGV[1]);" +
      'if tonumber(removed) ~= 1 then return 0;end;' +
      "local value = redis.call('incrby', KEYS[1], ARGV[2]); redis.call('publish', KEYS[2], value); return 1;",
    source: 'RedissonPermitExpirableSemaphore.java tryReleaseAsync(String) @ redisson-3.11.0 .. redisson-3.16.8',
  },
  {
    since: '3.17.0',
    lua:
      "local expire = redis.call('zscore', KEYS[3], ARGV[1]);local removed = redis.call('zrem', KEYS[3], ARGV[1]);" +
      'if tonumber(removed) ~= 1 then return 0;end;' +
      "local value = redis.call('incrby', KEYS[1], ARGV[2]); redis.call('publish', KEYS[2], value); " +
      'if tonumber(expire) <= tonumber(ARGV[3]) then return 0;end;return 1;',
    source: 'RedissonPermitExpirableSemaphore.java tryReleaseAsync(String) @ redisson-3.17.0 .. redisson-3.21.3',
  },
  {
    since: '3.22.0',
    lua:
      "local expire = redis.call('zscore', KEYS[3], ARGV[1]);local removed = redis.call('zrem', KEYS[3], ARGV[1]);" +
      'if tonumber(removed) ~= 1 then return 0;end;' +
      "local value = redis.call('incrby', KEYS[1], ARGV[2]); redis.call(ARGV[4], KEYS[2], value); " +
      'if tonumber(expire) <= tonumber(ARGV[3]) then return 0;end;return 1;',
    source: 'RedissonPermitExpirableSemaphore.java tryReleaseAsync(String) @ redisson-3.22.0 .. redisson-4.7.0',
  },
];

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** Whether `version` is `since` or later. */
export const atLeastVersion = (version: string, since: string): boolean => compareVersions(version, since) >= 0;

/** The era of `eras` in effect at `version`. */
export function eraAt(eras: readonly ScriptEra[], version: string): ScriptEra {
  let found = eras[0];
  for (const era of eras) if (atLeastVersion(version, era.since)) found = era;
  return found;
}
