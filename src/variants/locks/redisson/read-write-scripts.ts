/**
 * The Lua of Redisson's RReadWriteLock, version by version, as the Java source concatenates it
 * (github.com/redisson/redisson, redisson/src/main/java/org/redisson/RedissonReadLock.java,
 * RedissonWriteLock.java, renewal/ReadLockTask.java; every tag from redisson-3.11.0 to
 * redisson-4.7.0 read, each era below named with the first and last tag of its text). Like the
 * semaphores' scripts they run verbatim in the nodes' Lua VM (own-code/lua-runner.ts), and
 * test/conformance/read-write-lock.test.ts runs each against redis-server 7.0.
 *
 * Key layout (RedissonReadWriteLock, RedissonReadLock, RedissonWriteLock, the same at every tag):
 * - the lock's name: a hash with `mode` ('read' or 'write') and one field per holding thread,
 *   `<client uuid>:<thread id>` for a reader and `<client uuid>:<thread id>:write` for the
 *   writer, each counting that thread's re-entries;
 * - `{name}:<client uuid>:<thread id>:rwlock_timeout:<n>`: a string per read entry of a thread
 *   (n = 1 .. its count), with the lease of that entry as its TTL. An unlock that leaves other
 *   readers sets the hash's TTL to the longest of theirs, and deletes the hash when none is left
 *   alive: a reader whose timeout key expired no longer keeps the lock;
 * - `redisson_rwlock:{name}`: the channel both unlocks publish to;
 * - `redisson_unlock_latch:{name}:<request id>` (3.24.0+): the unlock's latch, as RLock's.
 */
import type { ScriptEra } from './semaphore-scripts.js';

/** RedissonReadLock.getChannelName: prefixName("redisson_rwlock", name), for a name without braces. */
export const rwChannelOf = (name: string): string => `redisson_rwlock:{${name}}`;

/** RedissonReadLock.getKeyPrefix: suffixName(name, ...) up to the lock name, `{name}`; the timeout keys start with it. */
export const rwKeyPrefixOf = (name: string): string => `{${name}}`;

/** RedissonReadLock.getReadWriteTimeoutNamePrefix: `{name}:<lock name>:rwlock_timeout` (the entry's number follows). */
export const rwTimeoutPrefixOf = (name: string, lockName: string): string => `${rwKeyPrefixOf(name)}:${lockName}:rwlock_timeout`;

/** RedissonWriteLock.getLockName: the writer's hash field. */
export const writeFieldOf = (lockName: string): string => `${lockName}:write`;

/** LockPubSub.UNLOCK_MESSAGE (the read unlock's) and READ_UNLOCK_MESSAGE (the write unlock's). */
export const UNLOCK_MESSAGE = '0';
export const READ_UNLOCK_MESSAGE = '1';

/**
 * RedissonReadLock.tryLockInnerAsync. KEYS = [name, timeout prefix], ARGV = [lease ms, lock
 * name, the thread's write field]; nil = taken, else the hash's PTTL. A reader joins when the
 * mode is read, or when its own thread holds the write lock. 3.11.1 (redisson#2144): a reader
 * joining no longer shortens the hash's TTL to its own lease.
 */
export const READ_ACQUIRE: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua:
      "local mode = redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call('hset', KEYS[1], " +
      "'mode', 'read'); redis.call('hset', KEYS[1], ARGV[2], 1); redis.call('set', KEYS[2] .. ':1', 1); " +
      "redis.call('pexpire', KEYS[2] .. ':1', ARGV[1]); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; " +
      "end; if (mode == 'read') or (mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 1) then " +
      "local ind = redis.call('hincrby', KEYS[1], ARGV[2], 1); local key = KEYS[2] .. ':' .. " +
      "ind;redis.call('set', key, 1); redis.call('pexpire', key, ARGV[1]); redis.call('pexpire', KEYS[1], " +
      "ARGV[1]); return nil; end;return redis.call('pttl', KEYS[1]);",
    source: 'RedissonReadLock.java tryLockInnerAsync @ redisson-3.11.0 .. redisson-3.11.0',
  },
  {
    since: '3.11.1',
    lua:
      "local mode = redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call('hset', KEYS[1], " +
      "'mode', 'read'); redis.call('hset', KEYS[1], ARGV[2], 1); redis.call('set', KEYS[2] .. ':1', 1); " +
      "redis.call('pexpire', KEYS[2] .. ':1', ARGV[1]); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; " +
      "end; if (mode == 'read') or (mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 1) then " +
      "local ind = redis.call('hincrby', KEYS[1], ARGV[2], 1); local key = KEYS[2] .. ':' .. " +
      "ind;redis.call('set', key, 1); redis.call('pexpire', key, ARGV[1]); local remainTime = " +
      "redis.call('pttl', KEYS[1]); redis.call('pexpire', KEYS[1], math.max(remainTime, ARGV[1])); return nil; " +
      "end;return redis.call('pttl', KEYS[1]);",
    source: 'RedissonReadLock.java tryLockInnerAsync @ redisson-3.11.1 .. redisson-4.7.0',
  },
];

/**
 * RedissonReadLock.unlockInnerAsync. KEYS = [name, channel, timeout prefix, key prefix (,
 * latch from 3.24.0)], ARGV = [UNLOCK_MESSAGE, lock name (, publish command from 3.22.0 (,
 * latch ms from 3.24.0))]. 1 = the lock is free (deleted, published), 0 = other holders remain
 * (the hash's TTL set to the longest of their timeout keys), nil = not held by this thread.
 * Before 3.44.0 an unlock that finds no hash at all answers 1 (redisson 1ce49b7a2: "unlock()
 * doesn't respect the lock owner"), from 3.44.0 nil.
 */
export const READ_UNLOCK: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua:
      "local mode = redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call('publish', KEYS[2], " +
      "ARGV[1]); return 1; end; local lockExists = redis.call('hexists', KEYS[1], ARGV[2]); if (lockExists == " +
      "0) then return nil;end; local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1); if (counter == 0) " +
      "then redis.call('hdel', KEYS[1], ARGV[2]); end;redis.call('del', KEYS[3] .. ':' .. (counter+1)); if " +
      "(redis.call('hlen', KEYS[1]) > 1) then local maxRemainTime = -3; local keys = redis.call('hkeys', " +
      "KEYS[1]); for n, key in ipairs(keys) do counter = tonumber(redis.call('hget', KEYS[1], key)); if " +
      "type(counter) == 'number' then for i=counter, 1, -1 do local remainTime = redis.call('pttl', KEYS[4] .. " +
      "':' .. key .. ':rwlock_timeout:' .. i); maxRemainTime = math.max(remainTime, maxRemainTime);end; end; " +
      "end; if maxRemainTime > 0 then redis.call('pexpire', KEYS[1], maxRemainTime); return 0; end;if mode == " +
      "'write' then return 0;end; end; redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); " +
      "return 1; ",
    source: 'RedissonReadLock.java unlockInnerAsync @ redisson-3.11.0 .. redisson-3.21.3',
  },
  {
    since: '3.22.0',
    lua:
      "local mode = redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call(ARGV[3], KEYS[2], " +
      "ARGV[1]); return 1; end; local lockExists = redis.call('hexists', KEYS[1], ARGV[2]); if (lockExists == " +
      "0) then return nil;end; local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1); if (counter == 0) " +
      "then redis.call('hdel', KEYS[1], ARGV[2]); end;redis.call('del', KEYS[3] .. ':' .. (counter+1)); if " +
      "(redis.call('hlen', KEYS[1]) > 1) then local maxRemainTime = -3; local keys = redis.call('hkeys', " +
      "KEYS[1]); for n, key in ipairs(keys) do counter = tonumber(redis.call('hget', KEYS[1], key)); if " +
      "type(counter) == 'number' then for i=counter, 1, -1 do local remainTime = redis.call('pttl', KEYS[4] .. " +
      "':' .. key .. ':rwlock_timeout:' .. i); maxRemainTime = math.max(remainTime, maxRemainTime);end; end; " +
      "end; if maxRemainTime > 0 then redis.call('pexpire', KEYS[1], maxRemainTime); return 0; end;if mode == " +
      "'write' then return 0;end; end; redis.call('del', KEYS[1]); redis.call(ARGV[3], KEYS[2], ARGV[1]); " +
      "return 1; ",
    source: 'RedissonReadLock.java unlockInnerAsync @ redisson-3.22.0 .. redisson-3.23.5',
  },
  {
    since: '3.24.0',
    lua:
      "local val = redis.call('get', KEYS[5]); if val ~= false then return tonumber(val);end; local mode = " +
      "redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call(ARGV[3], KEYS[2], ARGV[1]); " +
      "redis.call('set', KEYS[5], 1, 'px', ARGV[4]); return 1; end; local lockExists = redis.call('hexists', " +
      "KEYS[1], ARGV[2]); if (lockExists == 0) then return nil;end; local counter = redis.call('hincrby', " +
      "KEYS[1], ARGV[2], -1); if (counter == 0) then redis.call('hdel', KEYS[1], ARGV[2]); " +
      "end;redis.call('del', KEYS[3] .. ':' .. (counter+1)); if (redis.call('hlen', KEYS[1]) > 1) then local " +
      "maxRemainTime = -3; local keys = redis.call('hkeys', KEYS[1]); for n, key in ipairs(keys) do counter = " +
      "tonumber(redis.call('hget', KEYS[1], key)); if type(counter) == 'number' then for i=counter, 1, -1 do " +
      "local remainTime = redis.call('pttl', KEYS[4] .. ':' .. key .. ':rwlock_timeout:' .. i); maxRemainTime = " +
      "math.max(remainTime, maxRemainTime);end; end; end; if maxRemainTime > 0 then redis.call('pexpire', " +
      "KEYS[1], maxRemainTime); redis.call('set', KEYS[5], 0, 'px', ARGV[4]); return 0; end;if mode == 'write' " +
      "then redis.call('set', KEYS[5], 0, 'px', ARGV[4]); return 0;end; end; redis.call('del', KEYS[1]); " +
      "redis.call(ARGV[3], KEYS[2], ARGV[1]); redis.call('set', KEYS[5], 1, 'px', ARGV[4]); return 1; ",
    source: 'RedissonReadLock.java unlockInnerAsync @ redisson-3.24.0 .. redisson-3.43.0',
  },
  {
    since: '3.44.0',
    lua:
      "local val = redis.call('get', KEYS[5]); if val ~= false then return tonumber(val);end; local mode = " +
      "redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call(ARGV[3], KEYS[2], ARGV[1]); " +
      "redis.call('set', KEYS[5], 1, 'px', ARGV[4]); return nil; end; local lockExists = redis.call('hexists', " +
      "KEYS[1], ARGV[2]); if (lockExists == 0) then return nil;end; local counter = redis.call('hincrby', " +
      "KEYS[1], ARGV[2], -1); if (counter == 0) then redis.call('hdel', KEYS[1], ARGV[2]); " +
      "end;redis.call('del', KEYS[3] .. ':' .. (counter+1)); if (redis.call('hlen', KEYS[1]) > 1) then local " +
      "maxRemainTime = -3; local keys = redis.call('hkeys', KEYS[1]); for n, key in ipairs(keys) do counter = " +
      "tonumber(redis.call('hget', KEYS[1], key)); if type(counter) == 'number' then for i=counter, 1, -1 do " +
      "local remainTime = redis.call('pttl', KEYS[4] .. ':' .. key .. ':rwlock_timeout:' .. i); maxRemainTime = " +
      "math.max(remainTime, maxRemainTime);end; end; end; if maxRemainTime > 0 then redis.call('pexpire', " +
      "KEYS[1], maxRemainTime); redis.call('set', KEYS[5], 0, 'px', ARGV[4]); return 0; end;if mode == 'write' " +
      "then redis.call('set', KEYS[5], 0, 'px', ARGV[4]); return 0;end; end; redis.call('del', KEYS[1]); " +
      "redis.call(ARGV[3], KEYS[2], ARGV[1]); redis.call('set', KEYS[5], 1, 'px', ARGV[4]); return 1; ",
    source: 'RedissonReadLock.java unlockInnerAsync @ redisson-3.44.0 .. redisson-4.7.0',
  },
];

/**
 * RedissonReadLock.renewExpirationAsync, the per-lock watchdog's renewal (3.11.0 .. 3.43.x).
 * KEYS = [name, key prefix], ARGV = [lease ms, the first holding thread's lock name]. When
 * that thread's field is there: the hash's TTL and every holder's timeout keys (1 .. its count,
 * the holders of every client) set to the lease; 1, else 0.
 */
export const READ_RENEW: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua:
      "local counter = redis.call('hget', KEYS[1], ARGV[2]); if (counter ~= false) then redis.call('pexpire', " +
      "KEYS[1], ARGV[1]); if (redis.call('hlen', KEYS[1]) > 1) then local keys = redis.call('hkeys', KEYS[1]); " +
      "for n, key in ipairs(keys) do counter = tonumber(redis.call('hget', KEYS[1], key)); if type(counter) == " +
      "'number' then for i=counter, 1, -1 do redis.call('pexpire', KEYS[2] .. ':' .. key .. ':rwlock_timeout:' " +
      ".. i, ARGV[1]); end; end; end; end; return 1; end; return 0;",
    source: 'RedissonReadLock.java renewExpirationAsync @ redisson-3.11.0 .. redisson-3.43.0',
  },
];

/**
 * renewal/ReadLockTask.renew, the shared watchdog's renewal of every read lock of a client in
 * one script (3.44.0+). KEYS = [name 1, key prefix 1, name 2, key prefix 2, ...]; one result
 * per name, 1 renewed, 0 gone.
 * - 3.44.0 .. 3.52.0: ARGV = [lease ms, the first thread's lock name of each name]; the inner
 *   loop reuses `i`, the outer loop's index into KEYS, for the entry number, so `KEYS[i+1]`
 *   is the key prefix of the first name in the chunk for entry 1, another key for entry n
 *   (`KEYS[n+1]`), and nil past the last key (a Lua error: concatenating nil). The first name's
 *   single entries are renewed; the other names' hashes are, their readers' timeout keys are not.
 * - 4.0.0 .. 4.3.x (redisson#6883, "fix LockTask, ReadLockTask"): the inner loop's own `c`.
 * - 4.4.0+ (redisson#7098, "Fix ReadWriteLock cross-instance zombie renewal"): ARGV = [lease
 *   ms, then per name the count of this client's holding threads and their lock names]; only
 *   this client's threads' timeout keys are renewed, and the hash when one of them is alive.
 */
export const READ_LOCK_TASK: readonly ScriptEra[] = [
  {
    since: '3.44.0',
    lua:
      "local result = {} local j = 1 for i = 1, #KEYS, 2 do j = j + 1; local counter = redis.call('hget', " +
      "KEYS[i], ARGV[j]); if (counter ~= false) then redis.call('pexpire', KEYS[i], ARGV[1]); if " +
      "(redis.call('hlen', KEYS[i]) > 1) then local keys = redis.call('hkeys', KEYS[i]); for n, key in " +
      "ipairs(keys) do counter = tonumber(redis.call('hget', KEYS[i], key)); if type(counter) == 'number' then " +
      "for i=counter, 1, -1 do redis.call('pexpire', KEYS[i+1] .. ':' .. key .. ':rwlock_timeout:' .. i, " +
      "ARGV[1]); end; end; end; end; table.insert(result, 1); else table.insert(result, 0); end; end; return " +
      "result;",
    source: 'renewal/ReadLockTask.java renew @ redisson-3.44.0 .. redisson-3.52.0',
  },
  {
    since: '4.0.0',
    lua:
      "local result = {} local j = 1 for i = 1, #KEYS, 2 do j = j + 1; local counter = redis.call('hget', " +
      "KEYS[i], ARGV[j]); if (counter ~= false) then redis.call('pexpire', KEYS[i], ARGV[1]); if " +
      "(redis.call('hlen', KEYS[i]) > 1) then local keys = redis.call('hkeys', KEYS[i]); for n, key in " +
      "ipairs(keys) do counter = tonumber(redis.call('hget', KEYS[i], key)); if type(counter) == 'number' then " +
      "for c=counter, 1, -1 do redis.call('pexpire', KEYS[i+1] .. ':' .. key .. ':rwlock_timeout:' .. c, " +
      "ARGV[1]); end; end; end; end; table.insert(result, 1); else table.insert(result, 0); end; end; return " +
      "result;",
    source: 'renewal/ReadLockTask.java renew @ redisson-4.0.0 .. redisson-4.3.1',
  },
  {
    since: '4.4.0',
    lua:
      "local result = {} local argIdx = 2 for i = 1, #KEYS, 2 do local anyAlive = false; local lockNamesCount = " +
      "tonumber(ARGV[argIdx]); argIdx = argIdx + 1; for k = 1, lockNamesCount do local counter = " +
      "redis.call('hget', KEYS[i], ARGV[argIdx]); if (counter ~= false) then anyAlive = true; for c=counter, 1, " +
      "-1 do redis.call('pexpire', KEYS[i+1] .. ':' .. ARGV[argIdx] .. ':rwlock_timeout:' .. c, ARGV[1]); end; " +
      "end; argIdx = argIdx + 1; end; if (anyAlive) then redis.call('pexpire', KEYS[i], ARGV[1]); " +
      "table.insert(result, 1); else table.insert(result, 0); end; end; return result;",
    source: 'renewal/ReadLockTask.java renew @ redisson-4.4.0 .. redisson-4.7.0',
  },
];

/**
 * RedissonWriteLock.tryLockInnerAsync: the same text at every tag. KEYS = [name], ARGV =
 * [lease ms, write field]; nil = taken (or re-entered by its thread, whose TTL grows by the
 * lease), else the hash's PTTL.
 */
export const WRITE_ACQUIRE: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua:
      "local mode = redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call('hset', KEYS[1], " +
      "'mode', 'write'); redis.call('hset', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); " +
      "return nil; end; if (mode == 'write') then if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then " +
      "redis.call('hincrby', KEYS[1], ARGV[2], 1); local currentExpire = redis.call('pttl', KEYS[1]); " +
      "redis.call('pexpire', KEYS[1], currentExpire + ARGV[1]); return nil; end; end;return redis.call('pttl', " +
      "KEYS[1]);",
    source: 'RedissonWriteLock.java tryLockInnerAsync @ redisson-3.11.0 .. redisson-4.7.0',
  },
];

/**
 * RedissonWriteLock.unlockInnerAsync. KEYS = [name, channel (, latch from 3.24.0)], ARGV =
 * [READ_UNLOCK_MESSAGE, lease ms, write field (, publish command from 3.22.0 (, latch ms from
 * 3.24.0))]. 1 = released (the hash deleted, or back to mode read when the thread also holds
 * read entries), 0 = still re-entered, nil = not held by this thread; before 3.44.0 an unlock
 * that finds no hash answers 1, from 3.44.0 nil.
 */
export const WRITE_UNLOCK: readonly ScriptEra[] = [
  {
    since: '3.11.0',
    lua:
      "local mode = redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call('publish', KEYS[2], " +
      "ARGV[1]); return 1; end;if (mode == 'write') then local lockExists = redis.call('hexists', KEYS[1], " +
      "ARGV[3]); if (lockExists == 0) then return nil;else local counter = redis.call('hincrby', KEYS[1], " +
      "ARGV[3], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; else " +
      "redis.call('hdel', KEYS[1], ARGV[3]); if (redis.call('hlen', KEYS[1]) == 1) then redis.call('del', " +
      "KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); else redis.call('hset', KEYS[1], 'mode', 'read'); " +
      "end; return 1; end; end; end; return nil;",
    source: 'RedissonWriteLock.java unlockInnerAsync @ redisson-3.11.0 .. redisson-3.21.3',
  },
  {
    since: '3.22.0',
    lua:
      "local mode = redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call(ARGV[4], KEYS[2], " +
      "ARGV[1]); return 1; end;if (mode == 'write') then local lockExists = redis.call('hexists', KEYS[1], " +
      "ARGV[3]); if (lockExists == 0) then return nil;else local counter = redis.call('hincrby', KEYS[1], " +
      "ARGV[3], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; else " +
      "redis.call('hdel', KEYS[1], ARGV[3]); if (redis.call('hlen', KEYS[1]) == 1) then redis.call('del', " +
      "KEYS[1]); redis.call(ARGV[4], KEYS[2], ARGV[1]); else redis.call('hset', KEYS[1], 'mode', 'read'); end; " +
      "return 1; end; end; end; return nil;",
    source: 'RedissonWriteLock.java unlockInnerAsync @ redisson-3.22.0 .. redisson-3.23.5',
  },
  {
    since: '3.24.0',
    lua:
      "local val = redis.call('get', KEYS[3]); if val ~= false then return tonumber(val);end; local mode = " +
      "redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call(ARGV[4], KEYS[2], ARGV[1]); " +
      "redis.call('set', KEYS[3], 1, 'px', ARGV[5]); return 1; end;if (mode == 'write') then local lockExists = " +
      "redis.call('hexists', KEYS[1], ARGV[3]); if (lockExists == 0) then return nil;else local counter = " +
      "redis.call('hincrby', KEYS[1], ARGV[3], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], " +
      "ARGV[2]); redis.call('set', KEYS[3], 0, 'px', ARGV[5]); return 0; else redis.call('hdel', KEYS[1], " +
      "ARGV[3]); if (redis.call('hlen', KEYS[1]) == 1) then redis.call('del', KEYS[1]); redis.call(ARGV[4], " +
      "KEYS[2], ARGV[1]); else redis.call('hset', KEYS[1], 'mode', 'read'); end; redis.call('set', KEYS[3], 1, " +
      "'px', ARGV[5]); return 1; end; end; end; return nil;",
    source: 'RedissonWriteLock.java unlockInnerAsync @ redisson-3.24.0 .. redisson-3.43.0',
  },
  {
    since: '3.44.0',
    lua:
      "local val = redis.call('get', KEYS[3]); if val ~= false then return tonumber(val);end; local mode = " +
      "redis.call('hget', KEYS[1], 'mode'); if (mode == false) then redis.call(ARGV[4], KEYS[2], ARGV[1]); " +
      "redis.call('set', KEYS[3], 1, 'px', ARGV[5]); return nil; end;if (mode == 'write') then local lockExists " +
      "= redis.call('hexists', KEYS[1], ARGV[3]); if (lockExists == 0) then return nil;else local counter = " +
      "redis.call('hincrby', KEYS[1], ARGV[3], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], " +
      "ARGV[2]); redis.call('set', KEYS[3], 0, 'px', ARGV[5]); return 0; else redis.call('hdel', KEYS[1], " +
      "ARGV[3]); if (redis.call('hlen', KEYS[1]) == 1) then redis.call('del', KEYS[1]); redis.call(ARGV[4], " +
      "KEYS[2], ARGV[1]); else redis.call('hset', KEYS[1], 'mode', 'read'); end; redis.call('set', KEYS[3], 1, " +
      "'px', ARGV[5]); return 1; end; end; end; return nil;",
    source: 'RedissonWriteLock.java unlockInnerAsync @ redisson-3.44.0 .. redisson-4.7.0',
  },
];
