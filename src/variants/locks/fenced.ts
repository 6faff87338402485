/**
 * A token lock that hands out a fencing token with every acquisition (Kleppmann's fix;
 * Redisson's RFencedLock, RedissonFencedLock.java since redisson-3.19.0): SET NX PX and INCR of a per-lock counter
 * in one script, release by compare-and-delete. The token is only useful if the storage
 * checks it: pair it with guard `fenced-write`. The counter sits on the same primary as the
 * lock, so a failover can lose increments and hand out a token again.
 */
import { fencedAcquire } from '../../world/redis/scripts.js';
import type { LockProtocol } from '../lock-protocol.js';
import { pollCommand } from './polling.js';
import { DEFAULT_LEASE_MS } from './setnx-expire.js';
import { luaUnlock } from './token-lock.js';

const fenceKeyOf = (lockKey: string): string => `fence:${lockKey}`;

export const fenced: LockProtocol = {
  name: 'fenced',
  summary: 'SET key <token> NX PX lease + INCR fencing token (one script); release = Lua compare-and-delete',
  acquire(lock, params) {
    lock.leaseMs = params.leaseMs ?? DEFAULT_LEASE_MS;
    const command = ['EVAL', fencedAcquire.lua, '2', lock.key, fenceKeyOf(lock.key), lock.token, String(lock.leaseMs)];
    // The script answers the new fencing token, or 0 when the lock is held.
    return pollCommand(params, command, (reply) => {
      if (typeof reply !== 'number' || reply <= 0) return false;
      lock.fence = reply;
      return true;
    });
  },
  // Release is the token lock's atomic compare-and-delete.
  release: luaUnlock.release,
};
