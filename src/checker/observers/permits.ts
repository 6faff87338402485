/**
 * Semaphore permits that leak: taken, never given back and never expired. A semaphore's
 * server names no holder (its key counts free permits, so a history of one has no key-state
 * records of it: runner/run.ts), so this observer judges from the clients' side, as the
 * holders observer does: a permit is taken by an acquire that succeeded, and given back by
 * its release that succeeded. One whose holder stopped working under it without giving it
 * back (its process died, its release failed or got no answer, its request ended without
 * one) is
 * - expired when its lease (the acquire's `leaseMs`) ran out before the run ended: the
 *   server gives it back (RPermitExpirableSemaphore's next acquire reclaims it);
 * - leaked otherwise: it has no lease (an RSemaphore permit is a decrement with no owner and
 *   no TTL), or one longer than what is left of the run; a leaked permit is gone for good.
 * A permit whose holder is still at work when the run ends is neither.
 *
 * What it cannot see from the clients' side: a release that got no answer but ran (counted as
 * not given back), an acquire that got no answer but took a permit (not counted).
 */
import { formatMicros } from '../../engine/time.js';
import type { Operation, SetupOp } from '../../history/operation.js';
import type { Observer, RequestFacts } from '../observer.js';
import type { Violation } from '../violations.js';

/** The permit figures of RunMetrics: present for a semaphore's run only (setup's `permits`). */
export interface PermitFigures {
  /** Permits taken and never given back nor expired, by holders no longer working under them. */
  permitsLeaked?: number;
  /** From each leaked permit's holder leaving it to the end of the run, summed. */
  leakedPermitUs?: number;
  /** Permits whose holder left them that came back only when their lease ran out. */
  permitsExpired?: number;
}

interface HeldPermit {
  request: string;
  thread: string;
  client: string;
  key: string;
  /** When its lease runs out (Infinity: none). */
  expiresUs: number;
  leaseMs: number | null;
  /** When its holder stopped working under it (-1: still at it), and how. */
  leftUs: number;
  how: string;
}

export class PermitsObserver implements Observer {
  readonly reads = ['acquire', 'release', 'fault'] as const;
  private permits: number | null = null;
  /** The permits held now, by the request that took each. */
  private readonly held = new Map<string, HeldPermit>();
  private leaked = 0;
  private leakedUs = 0;
  private expired = 0;
  private first: Violation | null = null;

  setup(op: SetupOp): void {
    this.permits = op.permits ?? null;
  }

  appliesTo(op: SetupOp): boolean {
    return op.permits !== undefined;
  }

  observe(op: Operation): void {
    if (this.permits === null) return;
    switch (op.f) {
      case 'acquire':
        if (op.type !== 'ok') return;
        this.held.set(op.request, {
          request: op.request,
          thread: op.process,
          client: op.process.split('/')[0],
          key: op.key,
          expiresUs: op.leaseMs == null ? Number.POSITIVE_INFINITY : op.timeUs + op.leaseMs * 1000,
          leaseMs: op.leaseMs ?? null,
          leftUs: -1,
          how: '',
        });
        return;
      case 'release': {
        const h = this.held.get(op.request);
        if (h === undefined || op.type === 'invoke') return;
        if (op.type === 'ok') this.held.delete(op.request);
        else this.left(h, op.timeUs, op.type === 'info' ? 'its release got no answer' : `its release failed (${op.detail ?? 'refused'})`);
        return;
      }
      case 'fault':
        if (op.fault !== 'crash' || op.phase !== 'start') return;
        for (const h of this.held.values()) if (h.client === op.target) this.left(h, op.timeUs, 'its process died');
        return;
      default:
        return;
    }
  }

  requestEnded(r: RequestFacts, endUs: number | null): void {
    const h = this.held.get(r.id);
    // An unknown end (endUs null) is a crash, told by its fault, or a request still at work.
    if (h !== undefined && endUs !== null) this.left(h, endUs, 'its request ended without giving it back');
  }

  runEnded(endUs: number): void {
    const gone = new Map<string, number>();
    for (const h of this.held.values()) {
      if (h.leftUs < 0) continue;
      if (h.expiresUs <= endUs) {
        this.expired++;
        continue;
      }
      this.leaked++;
      this.leakedUs += endUs - h.leftUs;
      gone.set(h.key, (gone.get(h.key) ?? 0) + 1);
    }
    for (const h of this.held.values()) {
      if (h.leftUs < 0 || h.expiresUs <= endUs) continue;
      if (this.first !== null && (this.first.timeUs < h.leftUs || (this.first.timeUs === h.leftUs && this.first.requests[0] <= h.request))) continue;
      const why = h.leaseMs === null ? 'the permit has no lease' : `its ${formatMicros(h.leaseMs * 1000)} lease runs past the end of the run`;
      this.first = {
        kind: 'permit-leak',
        timeUs: h.leftUs,
        subject: h.key,
        requests: [h.request],
        summary: `a permit of ${h.key} taken by ${h.thread} (${h.request}) was never given back: ${h.how} at ${formatMicros(h.leftUs)}, and ${why} (${gone.get(h.key)} of its ${this.permits} permits gone by the end)`,
      };
    }
  }

  result(): PermitFigures {
    if (this.permits === null) return {};
    return { permitsLeaked: this.leaked, leakedPermitUs: this.leakedUs, permitsExpired: this.expired };
  }

  violations(): Violation[] {
    return this.first ? [this.first] : [];
  }

  private left(h: HeldPermit, atUs: number, how: string): void {
    if (h.leftUs >= 0) return;
    h.leftUs = atUs;
    h.how = how;
  }
}
