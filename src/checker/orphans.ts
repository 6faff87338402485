/**
 * Orphaned holds: a lock key owned on the authoritative server while none of its owner's
 * requests is working under it. Nothing unsafe happens (nobody is inside the critical
 * section), but every other request for that key is turned away for nothing until the key
 * expires, and without a TTL for ever. It is how a lock protocol fails availability:
 * - an acquire that timed out but executed (the client gave up, the server kept the lock);
 * - an unlock that was lost (a timeout, a dead primary whose replica got the lock);
 * - Redisson's reentrancy: a thread re-enters a hold its earlier request left behind (after a
 *   failover, or a retried acquire that executed twice), unlocks once, and the count stays
 *   above zero;
 * - a holder whose process died.
 *
 * A hold on a node that is down (killed by primary-crash or redis-restart, until it is back)
 * is no orphan time: it keeps nobody out, every request to that node fails for the node, not
 * for the lock. Counting it made the figure depend on how soon the holder's client gave up on
 * the dead node (a Jedis unlock fails at once and left the key "orphaned" until the promotion,
 * a Redisson unlock waits its timeout and did not), and the real backend's key watch reads no
 * key of a killed server. A key that comes back with its node (AOF) counts again from then.
 *
 * A request "works under" a key from the invocation of its acquire until its acquire failed,
 * or until its release completed (ok, refused or unknown), its request ended, or its process
 * crashed. The owner is the request for token locks and the thread for locks the server
 * knows by thread (Redisson): then any request of that thread on the key counts.
 */
import { formatMicros } from '../engine/time.js';
import type { HistoryIndex, LockWork } from './history-index.js';
import type { Segment } from './lock-ownership.js';
import type { Violation } from './violations.js';

export interface OrphanStats {
  /** Total time keys were held by an owner with no request working under them. */
  orphanUs: number;
  /** The first orphaned hold, if any. */
  first: Violation | null;
}

/** The stretches of [fromUs, toUs) outside `down` (ascending, possibly still open: toUs Infinity). */
export function outsideDown(fromUs: number, toUs: number, down: readonly { fromUs: number; toUs: number }[] | undefined): Array<[number, number]> {
  if (down === undefined || down.length === 0) return [[fromUs, toUs]];
  const pieces: Array<[number, number]> = [];
  let t = fromUs;
  for (const d of down) {
    if (d.toUs <= t) continue;
    if (d.fromUs >= toUs) break;
    if (d.fromUs > t) pieces.push([t, d.fromUs]);
    t = Math.max(t, d.toUs);
    if (t >= toUs) break;
  }
  if (t < toUs) pieces.push([t, toUs]);
  return pieces;
}

export function findOrphans(index: HistoryIndex, segments: ReadonlyMap<string, readonly Segment[]>): OrphanStats {
  const byThread = index.lockOwner === 'thread';
  // owner -> key -> the owner's work under the key, in time order. Requests of one owner never
  // overlap (a thread serves one request at a time).
  const windows = new Map<string, Map<string, LockWork[]>>();
  for (const w of index.lockWork.values()) {
    const owner = byThread ? w.thread : w.request;
    let perKey = windows.get(owner);
    if (!perKey) windows.set(owner, (perKey = new Map()));
    const list = perKey.get(w.key);
    if (list) list.push(w);
    else perKey.set(w.key, [w]);
  }
  const ownerOf = (request: string): string => (byThread ? index.lockWork.get(request)?.thread ?? request : request);

  const stats: OrphanStats = { orphanUs: 0, first: null };
  const note = (key: string, seg: Segment, fromUs: number, toUs: number): void => {
    const down = seg.node === undefined ? undefined : index.nodeDown.get(seg.node);
    for (const [from, to] of outsideDown(fromUs, toUs, down)) {
      stats.orphanUs += to - from;
      if (stats.first === null || from < stats.first.timeUs) stats.first = orphanViolation(index, key, seg, from);
    }
  };
  // Where each owner's list is judged from: segments of a key come in time order, and work that
  // ended before a segment began changes nothing for it or later ones (a thread's list grows
  // with every request it served; rescanning it from the start made this quadratic).
  const cursors = new Map<LockWork[], number>();
  for (const [key, list] of segments) {
    for (const seg of list) {
      const covered = windows.get(ownerOf(seg.holder))?.get(key) ?? [];
      let from = cursors.get(covered) ?? 0;
      while (from < covered.length && covered[from].toUs <= seg.startUs) from++;
      cursors.set(covered, from);
      let t = seg.startUs; // the hold is judged up to t
      for (let i = from; i < covered.length; i++) {
        const w = covered[i];
        if (w.fromUs >= seg.endUs) break;
        if (w.fromUs > t) note(key, seg, t, w.fromUs);
        t = Math.max(t, w.toUs);
      }
      if (t < seg.endUs) note(key, seg, t, seg.endUs);
    }
  }
  return stats;
}

/** The first orphan's violation, told only when it is the earliest so far. */
function orphanViolation(index: HistoryIndex, key: string, seg: Segment, fromUs: number): Violation {
  return orphanViolationOf(key, seg, fromUs, index.lockWork.get(seg.holder), index.promotions.get(fromUs));
}

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
