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
 * A request "works under" a key from the invocation of its acquire until its acquire failed,
 * or until its release completed (ok, refused or unknown), its request ended, or its process
 * crashed. The owner is the request for token locks and the thread for locks the server
 * knows by thread (Redisson): then any request of that thread on the key counts.
 */
import { formatMicros } from '../engine/time.js';
import type { History } from '../history/operation.js';
import { clientOfThread, type HistoryIndex } from './history-index.js';
import type { Segment } from './lock-ownership.js';
import type { Violation } from './violations.js';

export interface OrphanStats {
  /** Total time keys were held by an owner with no request working under them. */
  orphanUs: number;
  /** The first orphaned hold, if any. */
  first: Violation | null;
}

interface Attendance {
  fromUs: number;
  toUs: number;
  request: string;
}

/** How a request stopped working under its lock, for the story. */
interface Departure {
  kind: 'acquiring' | 'kept' | 'acquire-unknown' | 'acquire-failed' | 'released' | 'release-unknown' | 'release-failed' | 'died';
  atUs: number;
  detail?: string;
}

export function findOrphans(index: HistoryIndex, segments: ReadonlyMap<string, readonly Segment[]>): OrphanStats {
  const threadOf = new Map<string, string>();
  const windows = attendance(index.ops, index.endUs, threadOf);
  const departures = departuresOf(index.ops);
  const promotions = new Map<number, string>();
  for (const op of index.ops) if (op.f === 'fault' && op.fault === 'failover') promotions.set(op.timeUs, op.target);
  const ownerOf = (request: string): string =>
    index.lockOwner === 'thread' ? threadOf.get(request) ?? request : request;

  /** Why the holder no longer worked under its lock at `atUs`, in words. */
  const describe = (holder: string, atUs: number): string => departureText(departures.get(holder), promotions.get(atUs));
  const stats: OrphanStats = { orphanUs: 0, first: null };
  for (const [key, list] of segments) {
    for (const seg of list) {
      const covered = windows.get(windowKey(ownerOf(seg.holder), key)) ?? [];
      let t = seg.startUs; // the hold is judged up to t
      for (const w of covered) {
        if (w.fromUs >= seg.endUs) break;
        if (w.fromUs > t) noteOrphan(stats, key, seg, t, w.fromUs, describe(seg.holder, t));
        t = Math.max(t, w.toUs);
      }
      if (t < seg.endUs) noteOrphan(stats, key, seg, t, seg.endUs, describe(seg.holder, t));
    }
  }
  return stats;
}

function noteOrphan(
  stats: OrphanStats,
  key: string,
  seg: Segment,
  fromUs: number,
  toUs: number,
  why: string,
): void {
  stats.orphanUs += toUs - fromUs;
  if (stats.first !== null && stats.first.timeUs <= fromUs) return;
  const holder = seg.holder;
  const until = seg.hasTtl ? 'until its TTL ran out or someone deleted it' : 'and it has no TTL';
  stats.first = {
    kind: 'orphaned-lock',
    timeUs: fromUs,
    subject: key,
    requests: [holder],
    summary: `${key} stayed held by ${holder} with no request of its owner working under it (${why}), ${until}`,
  };
}

const windowKey = (owner: string, key: string): string => `${owner}\u0000${key}`;

/**
 * Per (owner, key): the stretches when some request of the owner worked under the key, in
 * time order. Requests of one owner never overlap (a thread serves one request at a time).
 */
function attendance(ops: History, endUs: number, threadOf: Map<string, string>): Map<string, Attendance[]> {
  const open = new Map<string, { key: string; fromUs: number; thread: string }>();
  const windows = new Map<string, Attendance[]>();
  const close = (request: string, atUs: number): void => {
    const o = open.get(request);
    if (!o) return;
    open.delete(request);
    // Thread-owned locks are matched by thread, token locks by request (see findOrphans).
    for (const owner of new Set([request, o.thread])) {
      const k = windowKey(owner, o.key);
      const list = windows.get(k) ?? [];
      list.push({ fromUs: o.fromUs, toUs: atUs, request });
      windows.set(k, list);
    }
  };
  for (const op of ops) {
    switch (op.f) {
      case 'acquire':
        if (op.type === 'invoke') {
          threadOf.set(op.request, op.process);
          open.set(op.request, { key: op.key, fromUs: op.timeUs, thread: op.process });
        } else if (op.type !== 'ok') close(op.request, op.timeUs);
        break;
      case 'release':
      case 'request':
        if (op.type !== 'invoke') close(op.request, op.timeUs);
        break;
      case 'fault':
        if (op.fault === 'crash' && op.phase === 'start') {
          for (const [request, o] of [...open]) if (clientOfThread(o.thread) === op.target) close(request, op.timeUs);
        }
        break;
      default:
        break;
    }
  }
  for (const request of [...open.keys()]) close(request, endUs);
  return windows;
}

/** The last thing each request did with its lock. */
function departuresOf(ops: History): Map<string, Departure> {
  const out = new Map<string, Departure>();
  for (const op of ops) {
    if (op.f === 'acquire') {
      const kind = op.type === 'invoke' ? 'acquiring' : op.type === 'ok' ? 'kept' : op.type === 'info' ? 'acquire-unknown' : 'acquire-failed';
      out.set(op.request, { kind, atUs: op.timeUs, detail: op.detail });
    } else if (op.f === 'release' && op.type !== 'invoke') {
      out.set(op.request, { kind: op.type === 'ok' ? 'released' : op.type === 'info' ? 'release-unknown' : 'release-failed', atUs: op.timeUs, detail: op.detail });
    } else if (op.f === 'request' && op.type === 'info') {
      // Lost with its process while holding the lock or waiting for it (a SET that executed).
      const kind = out.get(op.request)?.kind;
      if (kind === 'kept' || kind === 'acquiring') out.set(op.request, { kind: 'died', atUs: op.timeUs });
    }
  }
  return out;
}

/** Why a holder no longer works under its lock, in words; `promoted`: the node promoted at that instant. */
function departureText(d: Departure | undefined, promoted: string | undefined): string {
  const copy = promoted === undefined ? '' : `; ${promoted} was promoted with a copy of the lock`;
  if (d === undefined) return `it never asked for it${copy}`;
  const at = ` at ${formatMicros(d.atUs)}`;
  switch (d.kind) {
    case 'acquiring':
      return `its acquire${at} never got a reply${copy}`;
    case 'kept':
      return `it never released it${copy}`;
    case 'acquire-unknown':
      return `its acquire got no reply${at} but took the lock${copy}`;
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
