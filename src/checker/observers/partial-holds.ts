/**
 * Multi-locks that hold some of their locks while they wait for the rest (RedissonMultiLock:
 * variants/locks/redisson-multi.ts). A multi-lock's acquire names its cart's keys when it
 * starts (history/multi-lock.ts); the servers' key-state records say which of them it holds.
 * A partial hold is an instant of its acquire at which it holds at least one of its keys and
 * not all: every acquisition of two or more locks passes through one (for a round trip, when
 * nobody is in the way), and one that waits keeps others out of what it holds while it does.
 * A partial hold is given back when it ends without the lock: its acquire failed, or it let
 * go of everything it held and went on waiting (RedissonMultiLock's unlockInner before it
 * starts again) — the locks were held for nothing, and two carts that take the same SKUs in
 * opposite orders do it to each other (redisson/redisson#1160). Given-back holds make a run
 * DEGRADED, as an orphaned lock does.
 *
 * What it cannot see: which lock the multi-lock is waiting for (the story names the first key
 * of its cart it does not hold, and who holds that one).
 */
import { formatMicros } from '../../engine/time.js';
import { multiLockKeys } from '../../history/multi-lock.js';
import type { KeyStateOp, LockOp, Operation, SetupOp } from '../../history/operation.js';
import type { Observer } from '../observer.js';
import type { Violation } from '../violations.js';

/** The partial-hold figures of RunMetrics: present when a run's requests took multi-locks. */
export interface PartialHoldFigures {
  /** Episodes of a multi-lock's acquire holding some, not all, of its locks. */
  partialHolds?: number;
  /** Their time, summed. */
  partialHoldUs?: number;
  /** Of them, those that ended without the lock, giving back what they held. */
  partialHoldsGivenBack?: number;
  /** The time of those, summed. */
  givenBackHoldUs?: number;
  /** The most locks one multi-lock held while it waited for the rest. */
  maxLocksHeldWhileWaiting?: number;
}

interface Acquiring {
  request: string;
  thread: string;
  keys: string[];
  /** Keys of the cart held now -> the nodes naming this request as their holder. */
  held: Map<string, Set<string>>;
  /** When the current partial hold began (-1: none), and the most keys it held. */
  sinceUs: number;
  most: number;
  /** The story of the current partial hold, told when it began. */
  story: string;
}

export class PartialHoldsObserver implements Observer {
  readonly reads = ['acquire', 'key-state'] as const;
  private seen = false;
  /** Multi-locks acquiring now, by request. */
  private readonly acquiring = new Map<string, Acquiring>();
  /** key -> node -> holder, for the keys of carts (who is in a waiter's way). */
  private readonly holders = new Map<string, Map<string, string>>();
  private holds = 0;
  private holdUs = 0;
  private givenBack = 0;
  private givenBackUs = 0;
  private most = 0;
  private first: Violation | null = null;

  setup(_op: SetupOp): void {}

  appliesTo(op: SetupOp): boolean {
    return op.multiLock === true;
  }

  observe(op: Operation): void {
    if (op.f === 'acquire') this.acquire(op);
    else if (op.f === 'key-state') this.keyState(op);
  }

  private acquire(op: LockOp): void {
    if (op.type === 'invoke') {
      const keys = multiLockKeys(op.detail);
      if (keys === null) return;
      this.seen = true;
      const a: Acquiring = { request: op.request, thread: op.process, keys, held: new Map(), sinceUs: -1, most: 0, story: '' };
      // Keys it already holds (a re-entry, a lock left behind by its thread's earlier request are not its own).
      for (const key of keys) for (const [node, holder] of this.holders.get(key) ?? []) if (holder === op.request) this.hold(a, key, node);
      this.acquiring.set(op.request, a);
      this.update(a, op.timeUs);
      return;
    }
    const a = this.acquiring.get(op.request);
    if (a === undefined) return;
    this.acquiring.delete(op.request);
    if (a.sinceUs >= 0) this.end(a, op.timeUs, op.type !== 'ok');
  }

  private keyState(op: KeyStateOp): void {
    // Nothing to follow before the first multi-lock (a run of another lock pays nothing more).
    if (!this.seen) return;
    let nodes = this.holders.get(op.key);
    if (op.holder === null) nodes?.delete(op.node);
    else {
      if (!nodes) this.holders.set(op.key, (nodes = new Map()));
      nodes.set(op.node, op.holder);
    }
    if (op.previousHolder !== null && op.previousHolder !== op.holder) {
      const prev = this.acquiring.get(op.previousHolder);
      if (prev !== undefined && prev.held.has(op.key)) {
        const on = prev.held.get(op.key) as Set<string>;
        on.delete(op.node);
        if (on.size === 0) prev.held.delete(op.key);
        this.update(prev, op.timeUs);
      }
    }
    if (op.holder !== null) {
      const a = this.acquiring.get(op.holder);
      if (a !== undefined && a.keys.includes(op.key)) {
        this.hold(a, op.key, op.node);
        this.update(a, op.timeUs);
      }
    }
    // Who is in the way changed: the stories of those waiting for this key are told anew.
    if (op.holder !== null) for (const w of this.acquiring.values()) if (w.sinceUs >= 0 && w.keys.includes(op.key)) w.story = this.storyOf(w);
  }

  private hold(a: Acquiring, key: string, node: string): void {
    const on = a.held.get(key);
    if (on) on.add(node);
    else a.held.set(key, new Set([node]));
  }

  /** After its holdings changed: a partial hold begins, goes on, or ends. */
  private update(a: Acquiring, nowUs: number): void {
    const n = a.held.size;
    const partial = n > 0 && n < a.keys.length;
    if (partial) {
      if (a.sinceUs < 0) {
        a.sinceUs = nowUs;
        a.most = 0;
      }
      if (n > a.most) {
        a.most = n;
        a.story = this.storyOf(a);
      }
      return;
    }
    // Nothing held any more while still acquiring: given back; everything held: the lock.
    if (a.sinceUs >= 0) this.end(a, nowUs, n === 0);
  }

  private end(a: Acquiring, nowUs: number, givenBack: boolean): void {
    const us = nowUs - a.sinceUs;
    this.holds++;
    this.holdUs += us;
    this.most = Math.max(this.most, a.most);
    if (givenBack) {
      this.givenBack++;
      this.givenBackUs += us;
      if (this.first === null) {
        this.first = {
          kind: 'partial-hold',
          timeUs: a.sinceUs,
          subject: a.keys[0],
          requests: [a.request],
          summary: `${a.request} (${a.thread}) held ${a.story} from ${formatMicros(a.sinceUs)} and gave it back at ${formatMicros(nowUs)} without the lock: ${formatMicros(us)} held for nothing`,
        };
      }
    }
    a.sinceUs = -1;
    a.most = 0;
  }

  /** "lock:stock:1 of its 2 locks, waiting for lock:stock:2 (held by r2, which waits for lock:stock:1)". */
  private storyOf(a: Acquiring): string {
    const held = a.keys.filter((k) => a.held.has(k));
    const missing = a.keys.find((k) => !a.held.has(k)) as string;
    let by: string | undefined;
    for (const holder of this.holders.get(missing)?.values() ?? []) if (holder !== a.request) by = holder;
    let who = '';
    if (by !== undefined) {
      const other = this.acquiring.get(by);
      const theirs = other?.keys.find((k) => !other.held.has(k));
      who = ` (held by ${by}${theirs !== undefined && a.held.has(theirs) ? `, which waits for ${theirs}: each waits for the other` : ''})`;
    }
    return `${held.join(', ')} of its ${a.keys.length} locks, waiting for ${missing}${who},`;
  }

  runEnded(endUs: number): void {
    for (const a of this.acquiring.values()) if (a.sinceUs >= 0) this.end(a, endUs, false);
    this.acquiring.clear();
  }

  result(): PartialHoldFigures {
    if (!this.seen) return {};
    return { partialHolds: this.holds, partialHoldUs: this.holdUs, partialHoldsGivenBack: this.givenBack, givenBackHoldUs: this.givenBackUs, maxLocksHeldWhileWaiting: this.most };
  }

  violations(): Violation[] {
    return this.first === null ? [] : [this.first];
  }
}
