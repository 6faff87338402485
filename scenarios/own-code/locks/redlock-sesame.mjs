// npm @sesamecare-oss/redlock 1.4.0 (the maintained line of node-redlock v5), unmodified:
// acquire([resource], duration) decides as soon as a quorum of masters voted, retried
// retryCount times; release(). An ExecutionError (no quorum) is "not acquired" / "not released".
import { Redlock, ExecutionError } from '@sesamecare-oss/redlock';

export default function redlockSesame(clients, { leaseMs }) {
  const redlock = new Redlock(clients, { retryCount: 10, retryDelay: 200, retryJitter: 100 });
  redlock.on('error', () => {});
  return {
    async acquire(key) {
      try {
        return await redlock.acquire([key], leaseMs ?? 10000);
      } catch (err) {
        if (err instanceof ExecutionError) return null;
        throw err;
      }
    },
    async release(lock) {
      if (lock === null) return false;
      try {
        await lock.release();
        return true;
      } catch (err) {
        if (err instanceof ExecutionError) return false;
        throw err;
      }
    },
  };
}
