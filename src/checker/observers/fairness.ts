/**
 * A fair lock's promise (setup's `fair`: Redisson's RFairLock): the lock goes to its waiters
 * in the order they asked, and a waiter is not left waiting while the lock is free or goes to
 * others. Judged from the clients' side, per lock key, as the holders observer does:
 * - a waiter is an acquire from its invocation (its arrival) to its answer;
 * - an overtake is a grant (an acquire that succeeded) while a waiter that arrived more than
 *   FIFO_SLACK_US earlier still waited on the same key (the slack: two requests invoked within
 *   a network round trip may reach the server in either order);
 * - a starved waiter is one that never got the lock (its wait ran out, or it still waited when
 *   the run ended) although, while it waited, the lock went to a later arrival, or sat free for
 *   STARVED_FREE_US or more in all. The lock is free from a release that succeeded, with no
 *   critical section open on the key, until the next grant; a holder that died or whose release
 *   failed leaves it held (its server-side lease decides when it is free, which the clients do
 *   not see), so such stretches never count as free.
 *
 * What it cannot see from the clients' side: the order in which the acquires reached the
 * server's queue (a client paused before its first command arrives late; FIFO_SLACK_US covers
 * network delays only).
 */
import { formatMicros } from '../../engine/time.js';
import type { Operation, SetupOp } from '../../history/operation.js';
import type { CriticalSection, Observer } from '../observer.js';
import type { Violation } from '../violations.js';

/** Two acquires invoked this close may reach the server in either order: neither overtakes the other. */
export const FIFO_SLACK_US = 10_000;
/** A waiter that saw its lock free this long in all while it waited, and never got it, is starved. */
const STARVED_FREE_US = 1_000_000;

/** The fairness figures of RunMetrics: present for a fair lock's run only (setup's `fair`). */
export interface FairnessFigures {
  /** Grants given while a waiter that arrived earlier still waited on the same key. */
  fifoOvertakes?: number;
  /** Waiters that never got the lock though it went to later arrivals or sat free while they waited. */
  starvedWaiters?: number;
  /** The starved waiters' waits (from arrival to their answer or the end of the run), summed. */
  starvedWaitUs?: number;
}

interface Waiter {
  request: string;
  thread: string;
  client: string;
  key: string;
  invokeUs: number;
  /** Free time seen so far (up to the start of the key's current free stretch, if any). */
  freeUs: number;
  /** The first later arrival granted the lock while it waited, and when. */
  overtakenBy: string | null;
  overtakenUs: number;
  grantsToLater: number;
}

interface FairKey {
  waiters: Map<string, Waiter>;
  open: number;
  /** The start of the current free stretch (-1: held, or not known to be free). */
  freeSinceUs: number;
}

export class FairnessObserver implements Observer {
  readonly reads = ['acquire', 'release', 'fault'] as const;
  private fair = false;
  private readonly keys = new Map<string, FairKey>();
  /** Which key each waiting request waits on. */
  private readonly waitingOn = new Map<string, string>();
  private overtakes = 0;
  private starved = 0;
  private starvedUs = 0;
  private firstOvertake: Violation | null = null;
  private firstStarved: Violation | null = null;

  setup(op: SetupOp): void {
    this.fair = op.fair === true;
  }

  appliesTo(op: SetupOp): boolean {
    return op.fair === true;
  }

  observe(op: Operation): void {
    if (!this.fair) return;
    switch (op.f) {
      case 'acquire': {
        if (op.type === 'invoke') {
          const k = this.keyOf(op.key);
          k.waiters.set(op.request, { request: op.request, thread: op.process, client: op.process.split('/')[0], key: op.key, invokeUs: op.timeUs, freeUs: 0, overtakenBy: null, overtakenUs: -1, grantsToLater: 0 });
          this.waitingOn.set(op.request, op.key);
          return;
        }
        const w = this.take(op.request, op.timeUs);
        if (w === null) return;
        if (op.type === 'ok') this.granted(w, op.timeUs);
        else this.gaveUp(w, op.timeUs);
        return;
      }
      case 'release': {
        if (op.type !== 'ok') return;
        const k = this.keys.get(op.key);
        if (k !== undefined && k.open === 0 && k.freeSinceUs < 0) k.freeSinceUs = op.timeUs;
        return;
      }
      case 'fault': {
        if (op.fault !== 'crash' || op.phase !== 'start') return;
        // A waiter whose process died neither got the lock nor was let down by it.
        for (const [request, key] of [...this.waitingOn]) {
          const w = this.keys.get(key)?.waiters.get(request);
          if (w !== undefined && w.client === op.target) this.take(request, op.timeUs);
        }
        return;
      }
      default:
        return;
    }
  }

  sectionOpened(s: CriticalSection): void {
    if (!this.fair) return;
    const k = this.keyOf(s.key);
    this.endFree(k, s.startUs);
    k.open++;
  }

  sectionClosed(s: CriticalSection): void {
    if (!this.fair) return;
    const k = this.keyOf(s.key);
    k.open = Math.max(0, k.open - 1);
  }

  runEnded(endUs: number): void {
    if (!this.fair) return;
    for (const [request] of [...this.waitingOn]) {
      const w = this.take(request, endUs);
      if (w !== null) this.gaveUp(w, endUs, true);
    }
  }

  result(): FairnessFigures {
    if (!this.fair) return {};
    return { fifoOvertakes: this.overtakes, starvedWaiters: this.starved, starvedWaitUs: this.starvedUs };
  }

  violations(): Violation[] {
    return [this.firstOvertake, this.firstStarved].filter((v): v is Violation => v !== null);
  }

  private keyOf(key: string): FairKey {
    let k = this.keys.get(key);
    if (k === undefined) {
      k = { waiters: new Map(), open: 0, freeSinceUs: -1 };
      this.keys.set(key, k);
    }
    return k;
  }

  /** A free stretch ends at `atUs`: each waiter adds the part of it it waited through. */
  private endFree(k: FairKey, atUs: number): void {
    if (k.freeSinceUs < 0) return;
    for (const w of k.waiters.values()) w.freeUs += Math.max(0, atUs - Math.max(k.freeSinceUs, w.invokeUs));
    k.freeSinceUs = -1;
  }

  /** The waiter `request` stops waiting at `atUs` (its free time counted up to then); null if it was not waiting. */
  private take(request: string, atUs: number): Waiter | null {
    const key = this.waitingOn.get(request);
    if (key === undefined) return null;
    this.waitingOn.delete(request);
    const k = this.keys.get(key)!;
    const w = k.waiters.get(request)!;
    k.waiters.delete(request);
    if (k.freeSinceUs >= 0) w.freeUs += Math.max(0, atUs - Math.max(k.freeSinceUs, w.invokeUs));
    return w;
  }

  /** `w` got the lock at `atUs`: every waiter that arrived before it (by more than the slack) is overtaken. */
  private granted(w: Waiter, atUs: number): void {
    const k = this.keys.get(w.key)!;
    let earlier: Waiter | null = null;
    for (const other of k.waiters.values()) {
      if (other.invokeUs + FIFO_SLACK_US >= w.invokeUs) continue;
      other.grantsToLater++;
      if (other.overtakenBy === null) [other.overtakenBy, other.overtakenUs] = [w.request, atUs];
      if (earlier === null || other.invokeUs < earlier.invokeUs) earlier = other;
    }
    if (earlier === null) return;
    this.overtakes++;
    if (this.firstOvertake === null) {
      this.firstOvertake = {
        kind: 'fifo-overtaken',
        timeUs: atUs,
        subject: w.key,
        requests: [earlier.request, w.request],
        summary: `${w.key} went to ${w.request} (asked at ${formatMicros(w.invokeUs)}) while ${earlier.request} of ${earlier.thread}, which asked at ${formatMicros(earlier.invokeUs)}, still waited: a fair lock out of arrival order`,
      };
    }
  }

  /** `w` stopped waiting without the lock at `atUs` (its wait ran out, or the run ended). */
  private gaveUp(w: Waiter, atUs: number, stillWaiting = false): void {
    if (w.overtakenBy === null && w.freeUs < STARVED_FREE_US) return;
    this.starved++;
    this.starvedUs += atUs - w.invokeUs;
    // Told at the first grant to a later arrival (the story ends there), else when it stopped waiting.
    const timeUs = w.overtakenBy === null ? atUs : w.overtakenUs;
    if (this.firstStarved !== null && this.firstStarved.timeUs <= timeUs) return;
    const how = stillWaiting ? `still waited when the run ended at ${formatMicros(atUs)}` : `gave up at ${formatMicros(atUs)}`;
    const why = [
      w.grantsToLater > 0 ? `the lock went to ${w.grantsToLater} later arrival${w.grantsToLater === 1 ? '' : 's'} (the first ${w.overtakenBy} at ${formatMicros(w.overtakenUs)})` : '',
      w.freeUs >= STARVED_FREE_US ? `it sat free for ${formatMicros(w.freeUs)}` : '',
    ].filter((x) => x !== '').join(' and ');
    this.firstStarved = {
      kind: 'waiter-starved',
      timeUs,
      subject: w.key,
      requests: w.overtakenBy === null ? [w.request] : [w.request, w.overtakenBy],
      summary: `${w.request} of ${w.thread} asked for ${w.key} at ${formatMicros(w.invokeUs)} and never got it (${how}), while ${why}`,
    };
  }
}
