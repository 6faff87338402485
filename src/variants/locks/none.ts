/** No lock at all: the baseline every other variant is compared with. */
import type { LockProtocol } from '../lock-protocol.js';
import { ACQUIRED, RELEASED } from './lock-results.js';

export const noLock: LockProtocol = {
  name: 'none',
  summary: 'no lock: every request goes straight to the database',
  noop: true,
  *acquire(lock) {
    lock.leaseMs = null;
    return ACQUIRED;
  },
  *release() {
    return RELEASED;
  },
};
