/**
 * Token locks that keep their lease while they hold it: SET key <token> NX PX lease, then a
 * watchdog in the holder's client that extends the lease every third of it until the release
 * (redis.io "Distributed Locks with Redis", "Making the algorithm more reliable: Extending the
 * lock": a client "may extend the lock by sending a Lua script ... that extends the TTL of the
 * key if the key exists and its value is still the random value the client assigned when
 * acquiring the lock"). The page sets no period: a third of the lease is Redisson's watchdog's
 * (internalLockLeaseTime / 3, RedissonLock renewExpiration @ redisson-3.11.5), where
 * node-redlock 5.0.0-beta.2's using() extends 500 ms before the lease ends
 * (automaticExtensionThreshold). They differ in how they extend, each next to what it replaces:
 * - `lua-extend`: EVAL of the compare-and-PEXPIRE script (scripts.ts compareAndPexpire);
 * - `ifeq-extend`: `SET key <token> IFEQ <token> PX lease`, the server's own conditional set
 *   (Redis 8.4, redis/redis#14435; Valkey 8.1, valkey-io/valkey#1324: "set the key's value and
 *   expiration only if its current value is equal to comparison-value"), which a server
 *   without IFEQ (redis-7.0, redis-7.4) answers "ERR syntax error".
 * Both release with the Lua compare-and-delete (lua-unlock), after stopping the watchdog. A
 * watchdog whose extension got 0 or nil (the key gone or another's) or an error stops for good
 * and says so in the history; the holder is not told (as Redisson's watchdog before 3.44), so
 * it works on while its lease runs out.
 */
import { cancel, clientStateEffect, CURRENT_REQUEST_EFFECT, note, primaryCommand, sleep, spawn, type EffectProgram, type RedisOutcome } from '../../world/effects.js';
import { isErrorReply } from '../../world/redis/reply.js';
import { compareAndPexpire } from '../../world/redis/scripts.js';
import type { LockHandle, LockParams, LockProtocol } from '../lock-protocol.js';
import { acquireWithToken, luaUnlock } from './token-lock.js';

/** One extension of `key`'s lease to `leaseMs`, if it still holds `token`: the command, and whether its reply says it did. */
interface Extension {
  command(key: string, token: string, leaseMs: number): string[];
  extended(reply: unknown): boolean;
}

const LUA_EXTENSION: Extension = {
  command: (key, token, leaseMs) => ['EVAL', compareAndPexpire.lua, '1', key, token, String(leaseMs)],
  extended: (reply) => reply === 1,
};

const IFEQ_EXTENSION: Extension = {
  command: (key, token, leaseMs) => ['SET', key, token, 'IFEQ', token, 'PX', String(leaseMs)],
  extended: (reply) => reply === 'OK',
};

/** The watchdogs running in a client, by the token of the lock each extends. */
const WATCHDOGS = clientStateEffect('token-watchdog/running', () => new Map<string, number>());

/** Extends the lease at each third of it until an extension fails or the release cancels it. */
function* watchdog(extension: Extension, key: string, token: string, leaseMs: number, request: string): EffectProgram<void> {
  const send = primaryCommand(extension.command(key, token, leaseMs));
  for (;;) {
    yield sleep(Math.floor(leaseMs / 3) * 1000);
    const r = (yield send) as RedisOutcome;
    if (r.status !== 'ok') {
      yield note('renew', false, `extension timed out; watchdog stops`, request);
      return;
    }
    if (isErrorReply(r.reply)) {
      yield note('renew', false, `${r.reply.message}; watchdog stops`, request);
      return;
    }
    if (!extension.extended(r.reply)) {
      yield note('renew', false, 'lock no longer ours; watchdog stops (the holder is not told)', request);
      return;
    }
    yield note('renew', true, `extended to ${leaseMs}ms`, request);
  }
}

function watchdogLock(name: string, summary: string, extension: Extension): LockProtocol {
  return {
    name,
    summary,
    *acquire(lock: LockHandle, params: LockParams) {
      const result = yield* acquireWithToken(lock, params);
      if (!result.acquired) return result;
      const leaseMs = lock.leaseMs as number;
      const request = (yield CURRENT_REQUEST_EFFECT) as string;
      const running = (yield WATCHDOGS) as Map<string, number>;
      running.set(lock.token, (yield spawn('extend', () => watchdog(extension, lock.key, lock.token, leaseMs, request))) as number);
      return result;
    },
    *release(lock: LockHandle, params: LockParams) {
      const running = (yield WATCHDOGS) as Map<string, number>;
      const handle = running.get(lock.token);
      if (handle !== undefined) {
        running.delete(lock.token);
        yield cancel(handle);
      }
      return yield* luaUnlock.release(lock, params);
    },
  };
}

export const luaExtend = watchdogLock('lua-extend', 'SET key <token> NX PX lease; a watchdog extends it every third with a Lua compare-and-PEXPIRE; release = Lua compare-and-delete', LUA_EXTENSION);

export const ifeqExtend = watchdogLock(
  'ifeq-extend',
  'SET key <token> NX PX lease; a watchdog extends it every third with SET key <token> IFEQ <token> PX lease (Redis 8.4, Valkey 8.1: redis.server); release = Lua compare-and-delete',
  IFEQ_EXTENSION,
);
