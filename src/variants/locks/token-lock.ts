/**
 * The token locks share acquire (SET key <token> NX PX lease) and differ in release:
 * `token-get-del` compares with GET and deletes with DEL as two commands (the code of "Redis to Redisson in four stages"),
 * so the lock can change hands in between; `lua-unlock` does both in one atomic script;
 * `delex-unlock` and `delifeq-unlock` ask the server's own compare-and-delete, `DELEX key IFEQ
 * token` (Redis 8.4, redis/redis#14435) and `DELIFEQ key token` (Valkey 9.0,
 * valkey-io/valkey#1975, whose description names this lock release as its use), which a server
 * without the command answers with its unknown-command error: the unlock fails and the lock
 * stays until its lease runs out.
 */
import { primaryCommand, type EffectProgram, type RedisOutcome } from '../../world/effects.js';
import { compareAndDelete } from '../../world/redis/scripts.js';
import type { AcquireResult, LockHandle, LockParams, LockProtocol, ReleaseResult } from '../lock-protocol.js';
import { pollCommand, replyIsOk } from './polling.js';
import { RELEASED, releaseFailure } from './lock-results.js';
import { DEFAULT_LEASE_MS } from './setnx-expire.js';

export function acquireWithToken(lock: LockHandle, params: LockParams): EffectProgram<AcquireResult> {
  lock.leaseMs = params.leaseMs ?? DEFAULT_LEASE_MS;
  return pollCommand(params, ['SET', lock.key, lock.token, 'NX', 'PX', String(lock.leaseMs)], replyIsOk);
}

export const tokenGetDel: LockProtocol = {
  name: 'token-get-del',
  summary: 'SET key <token> NX PX lease; release = GET, compare, DEL (two commands)',
  acquire: acquireWithToken,
  *release(lock) {
    const got = (yield primaryCommand(['GET', lock.key])) as RedisOutcome;
    const failure = releaseFailure(got);
    if (failure) return failure;
    if (got.status === 'ok' && got.reply !== lock.token) {
      return { released: false, reason: 'not-held', detail: 'value is not our token' };
    }
    const del = (yield primaryCommand(['DEL', lock.key])) as RedisOutcome;
    return releaseFailure(del) ?? RELEASED;
  },
};

/** A release by one command answering 1 (deleted: ours) or 0 (not ours, or gone). */
function* releaseByCommand(command: readonly string[]): EffectProgram<ReleaseResult> {
  const r = (yield primaryCommand(command)) as RedisOutcome;
  const failure = releaseFailure(r);
  if (failure) return failure;
  return r.status === 'ok' && r.reply === 1 ? RELEASED : { released: false, reason: 'not-held', detail: 'value is not our token' };
}

export const delexUnlock: LockProtocol = {
  name: 'delex-unlock',
  summary: 'SET key <token> NX PX lease; release = DELEX key IFEQ <token> (Redis 8.4: redis.server redis-8.4)',
  acquire: acquireWithToken,
  release: (lock) => releaseByCommand(['DELEX', lock.key, 'IFEQ', lock.token]),
};

export const delifeqUnlock: LockProtocol = {
  name: 'delifeq-unlock',
  summary: 'SET key <token> NX PX lease; release = DELIFEQ key <token> (Valkey 9.0: redis.server valkey-9.0)',
  acquire: acquireWithToken,
  release: (lock) => releaseByCommand(['DELIFEQ', lock.key, lock.token]),
};

export const luaUnlock: LockProtocol = {
  name: 'lua-unlock',
  summary: 'SET key <token> NX PX lease; release = atomic Lua compare-and-delete',
  acquire: acquireWithToken,
  *release(lock) {
    const r = (yield primaryCommand(['EVAL', compareAndDelete.lua, '1', lock.key, lock.token])) as RedisOutcome;
    const failure = releaseFailure(r);
    if (failure) return failure;
    return r.status === 'ok' && r.reply === 1
      ? RELEASED
      : { released: false, reason: 'not-held', detail: 'value is not our token' };
  },
};
