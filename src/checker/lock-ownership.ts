/**
 * What the servers say about lock keys. From the key-state facts of every node and the
 * failover events, it rebuilds who held each key on the node that was primary at each
 * instant (the authoritative view; with Redlock's independent masters, whoever holds it on
 * a quorum of them), then judges:
 * - lock lost: a critical section during which the key stopped being its request's
 *   (expired, deleted by someone else, or missing on a newly promoted primary);
 * - foreign unlock: a delete by a request that did not hold the key;
 * - stuck time: the key held by a request that can never release it (its process died,
 *   or it has no TTL and its holder has left the critical section).
 */
import type { KeyStateOp } from '../history/operation.js';
import type { CriticalSection, HistoryIndex } from './history-index.js';
import type { Violation } from './violations.js';

/** A stretch of time during which one request held a lock key (none: nobody held it). */
export interface Segment {
  startUs: number;
  endUs: number;
  holder: string;
  hasTtl: boolean;
  /** The node the hold is on (the primary then); none for a Redlock quorum's hold. */
  node?: string;
}

export interface OwnershipStats {
  lockLost: number;
  foreignUnlocks: number;
  stuckUs: number;
  violations: Violation[];
}

interface NodeKeyState {
  holder: string | null;
  expiresAtUs: number | null;
}

/** Piecewise-constant authoritative holder per lock key. */
export function authoritativeSegments(index: HistoryIndex): Map<string, Segment[]> {
  return index.quorum > 1 ? quorumSegments(index) : primarySegments(index);
}

/**
 * Redlock: the lock belongs to whoever holds the key, unexpired, on at least `quorum`
 * masters; it lasts until the quorum-th latest of those deadlines or the next change. (A
 * copy that had already expired cannot make a quorum: the quorum-th latest deadline would
 * then be past, and segments that end before they start are dropped with the empty ones.)
 */
function quorumSegments(index: HistoryIndex): Map<string, Segment[]> {
  const states = new Map<string, Map<string, NodeKeyState>>(); // key -> node -> state
  const segments = new Map<string, Segment[]>();
  for (const op of index.keyEvents) {
    if (op.f !== 'key-state' || !index.lockNodes.includes(op.node)) continue;
    const perNode = states.get(op.key) ?? new Map<string, NodeKeyState>();
    states.set(op.key, perNode);
    perNode.set(op.node, { holder: op.holder, expiresAtUs: op.expiresAtUs });
    const list = segments.get(op.key) ?? [];
    segments.set(op.key, list);
    const last = list[list.length - 1];
    if (last && last.endUs > op.timeUs) last.endUs = op.timeUs;
    const t = op.timeUs;
    const deadlines = new Map<string, number[]>();
    for (const s of perNode.values()) {
      if (s.holder === null) continue;
      const list2 = deadlines.get(s.holder) ?? [];
      list2.push(s.expiresAtUs ?? Infinity);
      deadlines.set(s.holder, list2);
    }
    for (const [holder, ends] of deadlines) {
      if (ends.length < index.quorum) continue;
      ends.sort((a, b) => b - a);
      const endUs = ends[index.quorum - 1];
      list.push({ startUs: t, endUs, holder, hasTtl: endUs !== Infinity });
    }
  }
  return finish(segments, index.endUs);
}

/** Holds without a TTL last until the run's end; empty (or already expired) ones are dropped. */
function finish(segments: Map<string, Segment[]>, runEndUs: number): Map<string, Segment[]> {
  for (const list of segments.values()) for (const s of list) if (s.endUs === Infinity) s.endUs = runEndUs;
  for (const [key, list] of segments) segments.set(key, list.filter((s) => s.endUs > s.startUs));
  return segments;
}

function primarySegments(index: HistoryIndex): Map<string, Segment[]> {
  const states = new Map<string, Map<string, NodeKeyState>>(); // node -> key -> state
  const keys = new Set<string>();
  const segments = new Map<string, Segment[]>();
  let primary = index.initialPrimary;

  const emit = (key: string, t: number): void => {
    const s = states.get(primary)?.get(key);
    const list = segments.get(key) ?? [];
    segments.set(key, list);
    if (s === undefined || s.holder === null) return;
    list.push({ startUs: t, endUs: s.expiresAtUs ?? Infinity, holder: s.holder, hasTtl: s.expiresAtUs !== null, node: primary });
  };
  const closeOpen = (key: string, t: number): void => {
    const list = segments.get(key);
    const last = list?.[list.length - 1];
    if (last && last.endUs > t) last.endUs = t;
  };

  for (const op of index.keyEvents) {
    if (op.f === 'key-state') {
      let perKey = states.get(op.node);
      if (!perKey) states.set(op.node, (perKey = new Map()));
      perKey.set(op.key, { holder: op.holder, expiresAtUs: op.expiresAtUs });
      keys.add(op.key);
      if (op.node === primary) {
        closeOpen(op.key, op.timeUs);
        emit(op.key, op.timeUs);
      }
    } else if (op.f === 'fault' && op.fault === 'failover') {
      primary = op.target;
      for (const key of keys) {
        closeOpen(key, op.timeUs);
        emit(key, op.timeUs);
      }
    }
  }
  return finish(segments, index.endUs);
}

export function checkOwnership(index: HistoryIndex, segments: ReadonlyMap<string, readonly Segment[]> = authoritativeSegments(index)): OwnershipStats {
  const stats: OwnershipStats = { lockLost: 0, foreignUnlocks: 0, stuckUs: 0, violations: [] };
  let firstLost: Violation | null = null;
  let firstForeign: Violation | null = null;
  let firstStuck: Violation | null = null;

  // Lock lost inside the critical section.
  for (const cs of index.sections) {
    const list = segments.get(cs.key);
    if (!list) continue; // no server ever held this key: no lock in use (variant `none`)
    const lostAt = firstMomentNotHeld(cs, list);
    if (lostAt === null) continue;
    stats.lockLost++;
    if (firstLost === null || lostAt < firstLost.timeUs) {
      firstLost = lockLostViolation(cs, lostAt);
    }
  }

  // Deletes by a request that did not hold the key.
  for (const op of index.keyEvents) {
    if (op.f !== 'key-state' || op.cause !== 'delete') continue;
    if (!isForeignDelete(op)) continue;
    stats.foreignUnlocks++;
    if (firstForeign === null) {
      firstForeign = foreignUnlockViolation(op);
    }
  }

  // Stuck locks.
  const csByRequest = new Map(index.sections.map((s) => [s.request, s]));
  for (const [key, list] of segments) {
    for (const seg of list) {
      const from = stuckFrom(index, csByRequest.get(seg.holder), seg);
      const start = Math.max(seg.startUs, from);
      if (start >= seg.endUs) continue;
      stats.stuckUs += seg.endUs - start;
      if (firstStuck === null || start < firstStuck.timeUs) {
        firstStuck = stuckViolation(key, seg, start);
      }
    }
  }
  for (const v of [firstLost, firstForeign, firstStuck]) if (v) stats.violations.push(v);
  return stats;
}

export function lockLostViolation(cs: Pick<CriticalSection, 'thread' | 'request' | 'key'>, lostAt: number): Violation {
  return {
    kind: 'lock-lost',
    timeUs: lostAt,
    subject: cs.key,
    requests: [cs.request],
    summary: `${cs.thread} (${cs.request}) was inside its critical section but ${cs.key} on the primary was no longer its lock`,
  };
}

export function foreignUnlockViolation(op: KeyStateOp): Violation {
  return {
    kind: 'foreign-unlock',
    timeUs: op.timeUs,
    subject: op.key,
    requests: [op.previousHolder as string, op.by],
    summary: `${op.by}'s unlock deleted ${op.key} on ${op.node}, which belonged to ${op.previousHolder}`,
  };
}

export function stuckViolation(key: string, seg: Segment, start: number): Violation {
  return {
    kind: 'stuck-lock',
    timeUs: start,
    subject: key,
    requests: [seg.holder],
    summary: `${key} stayed held by ${seg.holder}, which could never release it${seg.hasTtl ? ' (until its TTL ran out)' : ' (no TTL)'}`,
  };
}

export function isForeignDelete(op: KeyStateOp): boolean {
  return op.previousHolder !== null && op.by !== '' && op.by !== op.previousHolder;
}

/** Segments are in time order and do not overlap; those before `from` are not looked at. */
export function firstMomentNotHeld(cs: Pick<CriticalSection, 'startUs' | 'endUs' | 'request'>, list: readonly Segment[], from = 0): number | null {
  let t = cs.startUs; // the request held the key from the section's start until t
  for (let i = from; i < list.length; i++) {
    const seg = list[i];
    if (t >= cs.endUs) return null;
    if (seg.endUs <= t) continue;
    if (seg.startUs > t || seg.holder !== cs.request) return t; // a gap, or someone else's
    t = seg.endUs;
  }
  return t < cs.endUs ? t : null;
}

/** From when a holder can no longer release its lock. */
function stuckFrom(index: HistoryIndex, cs: CriticalSection | undefined, seg: Segment): number {
  const request = index.requests.get(seg.holder);
  let from = Infinity;
  // Its process died while the key was held, before its request had finished (a request the
  // crash cut short ends there: the workload records it as lost, type info, at the crash).
  const since = request?.invokeUs ?? seg.startUs;
  const crash = index.crashes.get(cs?.client ?? request?.client ?? '')?.find((t) => t >= since);
  const finishedBefore = (t: number): boolean => request?.end != null && request.end.timeUs < t;
  if (crash !== undefined && !finishedBefore(crash)) from = crash;
  // No TTL and the holder has left its critical section (or never entered it).
  if (!seg.hasTtl) {
    const left = cs ? cs.endUs : request?.end ? request.end.timeUs : Infinity;
    from = Math.min(from, left);
  }
  return from;
}
