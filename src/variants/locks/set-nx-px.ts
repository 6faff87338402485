/**
 * One atomic SET NX PX with a constant value, released by a plain DEL ("Redis atomicity failed?").
 * If the lease runs out first, the DEL removes whoever holds the lock by then.
 */
import { primaryCommand, type RedisOutcome } from '../../world/effects.js';
import type { LockProtocol } from '../lock-protocol.js';
import { pollCommand, replyIsOk } from './polling.js';
import { RELEASED, releaseFailure } from './lock-results.js';
import { DEFAULT_LEASE_MS } from './setnx-expire.js';

const CONSTANT_LOCK_VALUE = 'locked';

export const setNxPx: LockProtocol = {
  name: 'set-nx-px',
  summary: 'SET key "locked" NX PX lease, DEL to release (value is not a token)',
  acquire(lock, params) {
    lock.leaseMs = params.leaseMs ?? DEFAULT_LEASE_MS;
    return pollCommand(params, ['SET', lock.key, CONSTANT_LOCK_VALUE, 'NX', 'PX', String(lock.leaseMs)], replyIsOk);
  },
  *release(lock) {
    const r = (yield primaryCommand(['DEL', lock.key])) as RedisOutcome;
    return releaseFailure(r) ?? RELEASED;
  },
};
