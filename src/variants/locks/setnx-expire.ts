/**
 * SETNX then EXPIRE as two commands, DEL to release ("From setnx to Redisson", first
 * version; "Redis to Redisson in four stages", 1).
 * A crash between the two leaves a lock with no TTL that blocks everyone until someone
 * deletes it by hand ("From setnx to Redisson": lock:stock:10037 lived 11 days).
 */
import { crashPoint, primaryCommand, type RedisOutcome } from '../../world/effects.js';
import type { LockProtocol } from '../lock-protocol.js';
import { pollUntilAcquired } from './polling.js';
import { ACQUIRED, acquireFailure, BUSY, RELEASED, releaseFailure } from './lock-results.js';

const CRASH_BETWEEN_SETNX_AND_EXPIRE = 'between-setnx-and-expire';
export const DEFAULT_LEASE_MS = 5_000;

export const setnxExpire: LockProtocol = {
  name: 'setnx-expire',
  summary: 'SETNX then EXPIRE (two commands), DEL to release',
  acquire(lock, params) {
    lock.leaseMs = params.leaseMs ?? DEFAULT_LEASE_MS;
    const leaseS = String(Math.max(1, Math.ceil(lock.leaseMs / 1000)));
    return pollUntilAcquired(function* () {
      const r = (yield primaryCommand(['SETNX', lock.key, lock.token])) as RedisOutcome;
      const failure = acquireFailure(r);
      if (failure) return failure;
      if (r.status === 'ok' && r.reply === 0) return BUSY;
      yield crashPoint(CRASH_BETWEEN_SETNX_AND_EXPIRE);
      // If EXPIRE is lost the lock has no TTL; the client cannot tell, so it proceeds.
      yield primaryCommand(['EXPIRE', lock.key, leaseS]);
      return ACQUIRED;
    }, params);
  },
  *release(lock) {
    const r = (yield primaryCommand(['DEL', lock.key])) as RedisOutcome;
    return releaseFailure(r) ?? RELEASED;
  },
};
