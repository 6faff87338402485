/**
 * Fencing tokens as the clients received them: a token handed out for a key must be higher
 * than every token handed out before for that key. A token that repeats or goes backwards
 * (the counter lost increments in a failover: Redisson's RFencedLock keeps it on the
 * asynchronously replicated primary, RedissonFencedLock.java, redisson-3.19.0) means the
 * storage can no longer tell the stale holder from the current one.
 */
import type { Operation, SetupOp } from '../../history/operation.js';
import type { Observer } from '../observer.js';
import type { Violation } from '../violations.js';

interface FencingStats {
  staleTokens: number;
  violations: Violation[];
}

/** The fencing check one operation at a time: the highest token per key so far. */
export class FencingObserver implements Observer {
  readonly reads = ['acquire'] as const;
  readonly stats: FencingStats = { staleTokens: 0, violations: [] };
  private readonly highest = new Map<string, { fence: number; request: string }>();

  setup(_op: SetupOp): void {}

  observe(op: Operation): void {
    if (op.f !== 'acquire' || op.type !== 'ok' || op.fence === undefined) return;
    const { stats } = this;
    const before = this.highest.get(op.key);
    if (before !== undefined && op.fence <= before.fence) {
      stats.staleTokens++;
      if (stats.violations.length === 0) {
        stats.violations.push({
          kind: 'stale-token',
          timeUs: op.timeUs,
          subject: op.key,
          requests: [before.request, op.request],
          summary: `${op.request} got fencing token ${op.fence} for ${op.key}, but ${before.request} had already got ${before.fence}: the counter went backwards`,
        });
      }
      return;
    }
    this.highest.set(op.key, { fence: op.fence, request: op.request });
  }
}
