/**
 * Tells a violation as a short story: the operations of the requests involved, what the
 * servers did with the lock key, and the faults around it, one line each, in time order.
 */
import { formatMicros } from '../engine/time.js';
import type { History, Operation } from '../history/operation.js';
import type { Violation } from './violations.js';

export interface Story {
  headline: string;
  lines: Array<{ timeUs: number; who: string; what: string }>;
}

const MAX_LINES = 14;

export function tellStory(violation: Violation, ops: History): Story {
  const involved = new Set(violation.requests);
  const firstInvolvedUs = Math.min(
    violation.timeUs,
    ...ops.filter((o) => 'request' in o && involved.has(o.request) && o.f !== 'request').map((o) => o.timeUs),
  );
  const fromUs = firstInvolvedUs;
  const toUs = violation.timeUs;
  const lines: Story['lines'] = [];
  for (const op of ops) {
    if (op.timeUs > toUs) break;
    const text = describe(op, involved, violation.subject, fromUs);
    if (text !== null) lines.push({ timeUs: op.timeUs, who: op.process, what: text });
  }
  // Keep the first line (how it began) and the lines nearest to the violation.
  const kept = lines.length <= MAX_LINES ? lines : [lines[0], ...lines.slice(lines.length - (MAX_LINES - 1))];
  return { headline: `${formatMicros(violation.timeUs)}  ${violation.summary}`, lines: kept };
}

function describe(op: Operation, involved: Set<string>, subject: string, fromUs: number): string | null {
  switch (op.f) {
    case 'fault':
      // Faults shortly before the story starts explain it; older ones rarely do.
      return op.timeUs >= fromUs - 60_000_000 ? `${op.fault} ${op.phase}: ${op.detail}` : null;
    case 'key-state':
      if (op.key !== subject || op.timeUs < fromUs) return null;
      if (op.holder === null) return `${op.key} gone: ${op.previousHolder === null ? 'its' : `${op.previousHolder}'s`} lock ${op.cause === 'expire' ? 'expired' : op.cause === 'delete' ? `deleted by ${op.by}` : `dropped (${op.cause})`}`;
      return `${op.key} held by ${op.holder} (${op.cause}${op.expiresAtUs === null ? ', no TTL' : `, expires ${formatMicros(op.expiresAtUs)}`})`;
    case 'acquire':
      if (!involved.has(op.request) || op.type === 'invoke') return null;
      return op.type === 'ok'
        ? `${op.request} acquired ${op.key}${op.leaseMs != null ? ` (lease ${formatMicros(op.leaseMs * 1000)})` : ''}`
        : `${op.request} did not get ${op.key}: ${op.detail ?? op.type}`;
    case 'release':
      if (!involved.has(op.request)) return null;
      return op.type === 'invoke' ? `${op.request} leaves its critical section and releases ${op.key}` : `${op.request} release ${op.type}${op.detail ? `: ${op.detail}` : ''}`;
    case 'read-stock':
      return involved.has(op.request) && op.type === 'ok' ? `${op.request} reads available = ${op.available}` : null;
    case 'write-stock':
      if (!involved.has(op.request) || op.type !== 'ok') return null;
      return op.mode === 'set'
        ? `${op.request} writes available = ${op.value}`
        : `${op.request} deducts ${op.qty} (rows affected: ${op.affected})`;
    case 'order':
      return involved.has(op.request) && op.type === 'ok' ? `${op.request} commits an order for ${op.qty}` : null;
    case 'txn':
      if (!involved.has(op.request)) return null;
      return op.outcome === 'commit'
        ? `${op.request} commits transaction ${op.txn}`
        : `${op.request}'s transaction ${op.txn} rolls back${op.cause === 'disconnect' ? ' (its connection dropped)' : ''}`;
    case 'renew':
      return involved.has(op.request) ? `watchdog of ${op.request}: ${op.detail}` : null;
    default:
      return null;
  }
}
