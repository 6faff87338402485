/**
 * What went wrong, by what it said: the requests that failed (an error outcome: a lock or
 * database error, a client that was down) or whose outcome is unknown (lost with their
 * process, or still running when the run ended), grouped by their first error text; and the
 * client processes' diagnostics (history/operation.ts DiagnosticOp: an exception from a timer
 * or a handler, an unhandled rejection, a call the sandbox refused, a watchdog that stopped),
 * grouped by kind and text. A request's first error text is the detail of the first of its
 * lock or database operations that failed or timed out (a user module's failed request
 * carries its error and first frame there, own-code); one that has none is described by how
 * it ended. No invariant: the liveness observer names the most frequent text as a stall's or
 * an outage's cause, and the reports list them.
 */
import type { DiagnosticOp, Operation, SetupOp } from '../../history/operation.js';
import type { LedgerView, Observer, Outcome, RequestFacts } from '../observer.js';
import { failed } from './flash-sale.js';

export interface FailureGroup {
  /** How the requests ended: an error outcome, or unknown. */
  outcome: Outcome;
  /** Their first error text (or how they ended, when none said anything). */
  text: string;
  count: number;
  /** The first request of the group to end, and when it ended (or the run ended, for one still running). */
  firstRequest: string;
  firstUs: number;
}

interface DiagnosticGroup {
  kind: DiagnosticOp['kind'];
  text: string;
  /** The first frame of user code, when known (`locks/x.mjs:12:5`). */
  frame: string | null;
  count: number;
  /** The process that reported it first, and when. */
  process: string;
  firstUs: number;
}

export interface Failures {
  /** Requests that failed or whose outcome is unknown, and those refused "lock busy" while nobody held the lock. */
  failed: number;
  /** Of them, those refused "lock busy" while nobody held the lock. */
  refusedWhileFree: number;
  /** Their groups, the largest first (ties: the earlier first), at most MAX_GROUPS. */
  requests: FailureGroup[];
  /** Requests whose text came after MAX_GROUPS others (a text that names each request, say). */
  otherRequests: number;
  diagnostics: DiagnosticGroup[];
  otherDiagnostics: number;
}

/** Distinct groups kept of each list: texts beyond them are counted, not kept (a text per request must not grow with the run). */
export const MAX_GROUPS = 32;
/** Characters of a text kept (an error's first line; a stack pasted into a message must not be). */
const MAX_TEXT = 240;

/** Texts for requests that failed without an error text of their own. */
export const NO_TEXT = {
  unavailable: 'its client process was down when it arrived',
  lost: 'lost with its client process (killed)',
  running: 'still running when the run ended',
  silent: 'no error text',
} as const;

export class DiagnosticsObserver implements Observer {
  readonly reads = ['diagnostic'] as const;
  readonly readsFailed = ['acquire', 'release', 'read-stock', 'write-stock', 'order'] as const;
  private ledger: LedgerView | null = null;
  private readonly requestGroups = new Map<string, FailureGroup>();
  private readonly diagnosticGroups = new Map<string, DiagnosticGroup>();
  private failed = 0;
  private otherRequests = 0;
  private otherDiagnostics = 0;
  private endUs = 0;

  setup(_op: SetupOp, ledger: LedgerView): void {
    this.ledger = ledger;
  }

  observe(op: Operation): void {
    if (op.f === 'diagnostic') return this.diagnostic(op);
    if (op.type !== 'fail' && op.type !== 'info') return;
    const detail = 'detail' in op ? op.detail : undefined;
    if (detail === undefined || detail === '' || !('request' in op)) return;
    // On the request's facts until it ends (a request the ledger does not hold has ended).
    const r = (this.ledger as LedgerView).peek(op.request);
    if (r !== undefined && r.firstError === undefined) r.firstError = detail; // clipped if it is ever counted

  }

  requestEnded(r: RequestFacts, _endUs: number | null, outcome: Outcome): void {
    if (!failed(outcome)) return;
    const text = r.firstError === undefined ? undefined : clip(r.firstError);
    this.failed++;
    // An unknown outcome: lost at its end (r.endUs), or still running when the run ended (-1).
    const atUs = r.endUs >= 0 ? r.endUs : this.endUs;
    const said = text ?? describeEnd(outcome, r.endUs >= 0);
    const key = `${outcome}\u0000${said}`;
    const g = this.requestGroups.get(key);
    if (g !== undefined) g.count++;
    else if (this.requestGroups.size < MAX_GROUPS) this.requestGroups.set(key, { outcome, text: said, count: 1, firstRequest: r.id, firstUs: atUs });
    else this.otherRequests++;
  }

  runEnded(endUs: number): void {
    this.endUs = endUs;
  }

  private diagnostic(op: DiagnosticOp): void {
    const text = clip(op.detail);
    const frame = op.frame ?? null;
    const key = `${op.kind}\u0000${text}\u0000${frame ?? ''}`;
    const g = this.diagnosticGroups.get(key);
    if (g !== undefined) g.count++;
    else if (this.diagnosticGroups.size < MAX_GROUPS) this.diagnosticGroups.set(key, { kind: op.kind, text, frame, count: 1, process: op.process, firstUs: op.timeUs });
    else this.otherDiagnostics++;
  }

  /**
   * `refusedWhileFree`: the "lock busy" answers no holder explains (busy-while-free.ts), which
   * liveness counts with the failures: listed with them, by what the lock said.
   */
  result(refusedWhileFree: { groups: readonly FailureGroup[]; others: number } = { groups: [], others: 0 }): Failures {
    const groups = [...this.requestGroups.values()];
    let others = this.otherRequests + refusedWhileFree.others;
    let refused = refusedWhileFree.others;
    for (const g of refusedWhileFree.groups) {
      refused += g.count;
      if (groups.length < MAX_GROUPS) groups.push({ ...g });
      else others += g.count;
    }
    return {
      failed: this.failed + refused,
      refusedWhileFree: refused,
      requests: groups.sort(largestFirst),
      otherRequests: others,
      diagnostics: [...this.diagnosticGroups.values()].sort(largestFirst),
      otherDiagnostics: this.otherDiagnostics,
    };
  }
}

/** A request that failed with nothing said: how it ended. */
function describeEnd(outcome: Outcome, ended: boolean): string {
  if (outcome === 'unavailable') return NO_TEXT.unavailable;
  if (outcome === 'unknown') return ended ? NO_TEXT.lost : NO_TEXT.running;
  return NO_TEXT.silent;
}

function largestFirst(a: { count: number; firstUs: number; text: string }, b: { count: number; firstUs: number; text: string }): number {
  return b.count - a.count || a.firstUs - b.firstUs || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
}

/** The first line, at most MAX_TEXT characters. */
export function clip(text: string): string {
  const nl = text.indexOf('\n');
  const line = nl < 0 ? text : text.slice(0, nl);
  return line.length <= MAX_TEXT ? line : `${line.slice(0, MAX_TEXT - 3)}...`;
}
