/**
 * One atomic SET NX PX with a constant value, released by a plain DEL (seed 001).
 * If the lease runs out first, the DEL removes whoever holds the lock by then.
 */
import { redis } from '../../world/effects.js';
import type { LockProtocol } from '../lock-protocol.js';
import { pollUntilAcquired } from './polling.js';
import { ACQUIRED, acquireFailure, BUSY, RELEASED, releaseFailure } from './outcomes.js';
import { DEFAULT_LEASE_MS } from './setnx-expire.js';

export const CONSTANT_LOCK_VALUE = 'locked';

export const setNxPx: LockProtocol = {
  name: 'set-nx-px',
  summary: 'SET key "locked" NX PX lease, DEL to release (value is not a token)',
  acquire(lock, params) {
    lock.leaseMs = params.leaseMs ?? DEFAULT_LEASE_MS;
    const leaseMs = String(lock.leaseMs);
    return pollUntilAcquired(function* () {
      const r = yield* redis('SET', lock.key, CONSTANT_LOCK_VALUE, 'NX', 'PX', leaseMs);
      return acquireFailure(r) ?? (r.status === 'ok' && r.reply === 'OK' ? ACQUIRED : BUSY);
    }, params);
  },
  *release(lock) {
    const r = yield* redis('DEL', lock.key);
    return releaseFailure(r) ?? RELEASED;
  },
};
