/**
 * Tells a violation as a short story built from its causal chain, one line each, in time
 * order: the earlier holder's acquisition (on every node that took its key), the faults on
 * the hosts involved, the event that took its key away (expiry, a clock jump, a failover, a
 * restart, a foreign DEL), and the later holder's acquisition. Other requests' churn on the
 * same key is summarised in one line, so it cannot push the cause out of the story.
 *
 * Input contract: the history up to (at least) the violation, as a read-only array; nothing
 * after the violation's instant is told, so a caller may pass only the prefix.
 */
import { formatMicros } from '../engine/time.js';
import type { FaultOp, KeyStateOp, Operation } from '../history/operation.js';
import type { Violation } from './violations.js';

interface Story {
  headline: string;
  lines: StoryLine[];
}

interface StoryLine {
  timeUs: number;
  who: string;
  what: string;
}

/**
 * Lines of context (the involved requests' reads, writes, renewals) told at most; the causal
 * lines (acquisitions, the key's removal, faults) are always told.
 */
const MAX_CONTEXT_LINES = 10;
/** A fault event (a failover step, a clock jump) this long before the story begins still explains it. */
const FAULT_LOOKBACK_US = 60_000_000;

interface Candidate extends StoryLine {
  index: number;
  causal: boolean;
}

export function tellStory(violation: Violation, ops: readonly Operation[]): Story {
  const involved = new Set(violation.requests);
  const [earlier, later] = violation.requests;
  const toUs = violation.timeUs;
  const fromUs = Math.min(
    toUs,
    ...ops.filter((o) => o.timeUs <= toUs && 'request' in o && involved.has(o.request) && o.f !== 'request').map((o) => o.timeUs),
  );
  const key = lockKeyOf(violation, ops);
  // A semaphore's history tells permits taken and given back (setup's `permits`).
  const setup = ops[0];
  const permits = setup !== undefined && setup.f === 'setup' ? setup.permits : undefined;
  // A fair lock's history tells each involved request's arrival: the order it was owed.
  const fair = setup !== undefined && setup.f === 'setup' && setup.fair === true;
  const clients = new Set<string>();
  const nodes = new Set<string>();
  for (const op of ops) {
    if (op.timeUs > toUs) break;
    // Redlock: every master counts towards the quorum, so a fault on any of them may be the cause.
    if (op.f === 'setup') op.lockNodes.forEach((n) => nodes.add(n));
    if ('request' in op && involved.has(op.request) && op.process.startsWith('client-')) clients.add(op.process.split('/')[0]);
    if (op.f === 'key-state' && op.key === key && (involved.has(op.holder ?? '') || involved.has(op.previousHolder ?? ''))) nodes.add(op.node);
  }

  const candidates: Candidate[] = [];
  const add = (op: Operation, what: string, causal: boolean): void => {
    candidates.push({ index: op.index, timeUs: op.timeUs, who: op.process, what, causal });
  };
  const faultEnds = endsOfFaults(ops, toUs);
  const lastHeld = lastHoldPerNode(ops, key, involved, toUs);
  const lastTry = lastAttempts(ops, involved, toUs);
  const firstHeld = new Set<string>();
  const churn = { requests: new Set<string>(), retries: new Set<string>(), nodes: new Set<string>(), changes: 0, firstUs: -1, firstIndex: -1 };

  for (const op of ops) {
    if (op.timeUs > toUs) break;
    if (op.f === 'fault') {
      if (faultMatters(op, fromUs, faultEnds, clients, nodes)) add(op, `${op.fault} ${op.phase}: ${op.detail}`, true);
      continue;
    }
    if (op.f === 'key-state') {
      if (op.key !== key || op.timeUs < fromUs) continue;
      // An involved request's earlier attempts (a Redlock try that missed its quorum) are churn too.
      const current = (r: string | null): boolean => r !== null && involved.has(r) && op.timeUs >= (lastTry.get(r) ?? 0);
      if (op.holder !== null && current(op.holder)) {
        // Per node, the first write of the holder's key and the last (its expiry then), not every
        // renewal; a write and its PEXPIRE at one instant are told once.
        const slot = `${op.node} ${op.holder}`;
        const last = lastHeld.get(slot);
        if (last !== undefined && last.index !== op.index && (firstHeld.has(slot) || last.timeUs === op.timeUs)) continue;
        firstHeld.add(slot);
        add(op, `${op.key} held by ${op.holder} (${op.cause}${op.expiresAtUs === null ? ', no TTL' : `, expires ${formatMicros(op.expiresAtUs)}`})`, true);
      } else if (current(op.previousHolder)) {
        add(op, removal(op), true);
      } else {
        churn.changes++;
        for (const r of [op.holder, op.previousHolder]) if (r !== null && !involved.has(r)) churn.requests.add(r);
        for (const r of [op.holder, op.previousHolder]) if (r !== null && involved.has(r)) churn.retries.add(r);
        churn.nodes.add(op.node);
        if (churn.firstIndex < 0) [churn.firstUs, churn.firstIndex] = [op.timeUs, op.index];
      }
      continue;
    }
    if (!('request' in op) || !involved.has(op.request)) continue;
    const arrival = fair && op.f === 'acquire' && op.type === 'invoke';
    const causal = (op.f === 'acquire' && op.type === 'ok' && (op.request === earlier || op.request === later)) || arrival;
    const text = arrival ? `${op.request} asks for ${op.key} and joins its waiters` : permits === undefined ? describe(op) : describePermit(op, permits) ?? describe(op);
    if (text !== null) add(op, text, causal);
  }

  if (churn.changes > 0) {
    const names = [...churn.requests];
    const shown = names.length > 4 ? `${names.slice(0, 4).join(', ')}, ...` : names.join(', ');
    const others = names.length === 0 ? '' : `${names.length} other request${names.length === 1 ? '' : 's'} (${shown})`;
    const retries = churn.retries.size === 0 ? '' : `${[...churn.retries].join(' and ')}'s earlier attempts`;
    candidates.push({
      index: churn.firstIndex,
      timeUs: churn.firstUs,
      who: 'others',
      what: `meanwhile ${[others, retries].filter((x) => x !== '').join(' and ')} took and freed ${key} ${churn.changes} time${churn.changes === 1 ? '' : 's'} on ${[...churn.nodes].sort().join(', ')}`,
      causal: true,
    });
  }
  candidates.sort((a, b) => a.timeUs - b.timeUs || a.index - b.index);
  // Context lines nearest the violation are kept; causal lines always are.
  const context = candidates.filter((c) => !c.causal);
  const dropped = new Set(context.slice(0, Math.max(0, context.length - MAX_CONTEXT_LINES)));
  const lines = candidates.filter((c) => !dropped.has(c)).map(({ timeUs, who, what }) => ({ timeUs, who, what }));
  return { headline: `${formatMicros(violation.timeUs)}  ${violation.summary}`, lines };
}

/** The lock key the violation is about: its subject, or (for a stock violation) the key its first request locked. */
function lockKeyOf(violation: Violation, ops: readonly Operation[]): string {
  const first = violation.requests[0];
  for (const op of ops) {
    if (op.timeUs > violation.timeUs) break;
    if ((op.f === 'key-state' || op.f === 'acquire') && op.key === violation.subject) return violation.subject;
  }
  for (const op of ops) {
    if (op.timeUs > violation.timeUs) break;
    if (op.f === 'acquire' && op.request === first) return op.key;
  }
  return violation.subject;
}

/** Per node and holder, the last write of an involved request's key. */
function lastHoldPerNode(ops: readonly Operation[], key: string, involved: Set<string>, toUs: number): Map<string, KeyStateOp> {
  const last = new Map<string, KeyStateOp>();
  for (const op of ops) {
    if (op.timeUs > toUs) break;
    if (op.f === 'key-state' && op.key === key && op.holder !== null && involved.has(op.holder)) last.set(`${op.node} ${op.holder}`, op);
  }
  return last;
}

/**
 * Per involved request, when its last attempt began: after the last time it deleted its own
 * key before it acquired (a Redlock try that missed its quorum, then released what it got).
 */
function lastAttempts(ops: readonly Operation[], involved: Set<string>, toUs: number): Map<string, number> {
  const selfDeleted = new Map<string, number>();
  const last = new Map<string, number>();
  for (const op of ops) {
    if (op.timeUs > toUs) break;
    if (op.f === 'key-state' && op.holder === null && op.previousHolder !== null && op.by === op.previousHolder && involved.has(op.by)) {
      selfDeleted.set(op.by, op.timeUs);
    }
    if (op.f === 'acquire' && op.type === 'ok' && involved.has(op.request) && !last.has(op.request)) {
      const at = selfDeleted.get(op.request);
      if (at !== undefined) last.set(op.request, at + 1);
    }
  }
  return last;
}

/** For each fault start, when it healed (absent: not before the violation). */
function endsOfFaults(ops: readonly Operation[], toUs: number): Map<number, number> {
  const open = new Map<string, FaultOp[]>();
  const ends = new Map<number, number>();
  for (const op of ops) {
    if (op.timeUs > toUs) break;
    if (op.f !== 'fault') continue;
    const slot = `${op.fault} ${op.target}`;
    if (op.phase === 'start') open.set(slot, [...(open.get(slot) ?? []), op]);
    if (op.phase === 'end') {
      const started = open.get(slot)?.shift();
      if (started) ends.set(started.index, op.timeUs);
    }
  }
  return ends;
}

/**
 * A fault belongs in the story when it touched a host involved (the requests' clients, the
 * nodes that held their key; targets that are no host, such as a dependency, always count)
 * and either happened while the story runs, was still in force when it began, or (an event
 * such as a failover step) happened in the minute before.
 */
function faultMatters(op: FaultOp, fromUs: number, ends: Map<number, number>, clients: Set<string>, nodes: Set<string>): boolean {
  const hosts = op.target.split(',').map((h) => h.trim()).filter((h) => h !== '');
  const isHost = (h: string): boolean => /^(client|redis)-\d+$/.test(h);
  const touches = hosts.length === 0 || hosts.some((h) => !isHost(h) || clients.has(h) || nodes.has(h));
  if (!touches) return false;
  if (op.timeUs >= fromUs) return true;
  if (op.phase === 'start') return (ends.get(op.index) ?? Number.POSITIVE_INFINITY) > fromUs;
  return op.phase === 'event' && op.timeUs >= fromUs - FAULT_LOOKBACK_US;
}

function removal(op: KeyStateOp): string {
  const whose = op.previousHolder === null ? 'its' : `${op.previousHolder}'s`;
  const how = op.cause === 'expire' ? 'expired' : op.cause === 'delete' ? `deleted by ${op.by}` : `dropped (${op.cause})`;
  return op.holder === null ? `${op.key} gone: ${whose} lock ${how}` : `${op.key} taken from ${op.previousHolder} by ${op.holder} (${op.cause})`;
}

/** A semaphore's acquire and release, told as a permit taken and given back. */
function describePermit(op: Operation, permits: number): string | null {
  if (op.f === 'acquire' && op.type === 'ok') {
    return `${op.request} took one of the ${permits} permits of ${op.key}${op.leaseMs != null ? ` (lease ${formatMicros(op.leaseMs * 1000)})` : ' (no lease)'}`;
  }
  if (op.f === 'release' && op.type === 'invoke') return `${op.request} leaves its critical section and gives back its permit of ${op.key}`;
  return null;
}

function describe(op: Operation): string | null {
  switch (op.f) {
    case 'acquire':
      if (op.type === 'invoke') return null;
      // A read-write lock's reader says so (a writer's records carry no mode).
      return op.type === 'ok'
        ? `${op.request} acquired ${op.mode === 'read' ? `the read lock of ${op.key}` : op.key}${op.leaseMs != null ? ` (lease ${formatMicros(op.leaseMs * 1000)})` : ''}`
        : `${op.request} did not get ${op.mode === 'read' ? `the read lock of ${op.key}` : op.key}: ${op.detail ?? op.type}`;
    case 'release':
      if (op.type === 'invoke') return `${op.request} leaves its critical section and releases ${op.mode === 'read' ? `its read lock of ${op.key}` : op.key}`;
      return `${op.request} release ${op.type}${op.detail ? `: ${op.detail}` : ''}`;
    case 'read-stock':
      return op.type === 'ok' ? `${op.request} reads available = ${op.available}` : null;
    case 'write-stock':
      if (op.type !== 'ok') return null;
      return op.mode === 'set' ? `${op.request} writes available = ${op.value}` : `${op.request} deducts ${op.qty} (rows affected: ${op.affected})`;
    case 'order':
      return op.type === 'ok' ? `${op.request} commits an order for ${op.qty}` : null;
    case 'txn':
      return op.outcome === 'commit'
        ? `${op.request} commits transaction ${op.txn}`
        : `${op.request}'s transaction ${op.txn} rolls back${op.cause === 'disconnect' ? ' (its connection dropped)' : ''}`;
    case 'renew':
      return `watchdog of ${op.request}: ${op.detail}`;
    default:
      return null;
  }
}
