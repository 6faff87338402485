/**
 * Orphaned holds, told: a lock key owned on the authoritative server while none of its
 * owner's requests is working under it. Nothing unsafe happens (nobody is inside the critical
 * section), but every other request for that key is turned away for nothing until the key
 * expires, and without a TTL for ever. It is how a lock protocol fails availability:
 * - an acquire that timed out but executed (the client gave up, the server kept the lock);
 * - an unlock that was lost (a timeout, a dead primary whose replica got the lock);
 * - Redisson's reentrancy: a thread re-enters a hold its earlier request left behind (after a
 *   failover, or a retried acquire that executed twice), unlocks once, and the count stays
 *   above zero;
 * - a holder whose process died.
 * The ownership observer (ownership.ts) finds them; this file says why each happened.
 */
import { formatMicros } from '../../engine/time.js';
import type { LockWork } from '../observer.js';
import type { Segment } from '../segments.js';
import type { Violation } from '../violations.js';

/** The orphan's violation from its holder's last lock work and the node promoted at `fromUs`, if any. */
export function orphanViolationOf(key: string, seg: Segment, fromUs: number, work: LockWork | undefined, promoted: string | undefined): Violation {
  const holder = seg.holder;
  const why = departureText(work, promoted);
  const until = seg.hasTtl ? 'until its TTL ran out or someone deleted it' : 'and it has no TTL';
  return {
    kind: 'orphaned-lock',
    timeUs: fromUs,
    subject: key,
    requests: [holder],
    summary: `${key} stayed held by ${holder} with no request of its owner working under it (${why}), ${until}`,
  };
}

/** Why a holder no longer works under its lock, in words; `promoted`: the node promoted at that instant. */
function departureText(d: LockWork | undefined, promoted: string | undefined): string {
  const copy = promoted === undefined ? '' : `; ${promoted} was promoted with a copy of the lock`;
  if (d === undefined) return `it never asked for it${copy}`;
  const at = ` at ${formatMicros(d.departureUs)}`;
  switch (d.departure) {
    case 'acquiring':
      return `its acquire${at} never got a reply${copy}`;
    case 'kept':
      return `it never released it${copy}`;
    case 'acquire-unknown':
      // A timeout, or a client that could not tell (Redisson's unsynced lock left behind).
      return d.detail && d.detail !== 'command timed out'
        ? `its acquire ended${at} without the lock as far as it knew (${d.detail}) but took it${copy}`
        : `its acquire got no reply${at} but took the lock${copy}`;
    case 'acquire-failed':
      return `its acquire failed${at} (${d.detail || 'refused'}) but left the lock${copy}`;
    case 'released':
      return promoted === undefined
        ? `its unlock${at} left the lock held (a reentrant count above zero)`
        : `it released the lock${at} on the old primary, but ${promoted} was promoted with a copy from before`;
    case 'release-unknown':
      return `its unlock got no reply${at}${copy}`;
    case 'release-failed':
      return `its unlock failed${at} (${d.detail || 'refused'})${copy}`;
    case 'died':
      return `its process died${at}${copy}`;
  }
}
