/**
 * What the servers say about lock keys: from the key-state facts of every node and the
 * failover events, who held each key on the node that was primary at each instant (the
 * authoritative view; with Redlock's independent masters, whoever holds it unexpired on a
 * quorum of them), as segments emitted while the facts arrive. A segment is final once a
 * later one follows it or it has ended (only the last one of a key can still be cut short);
 * final segments go to `judge` at once, the others at the end of the run. Holds without a TTL
 * last until the run's end. The lists keep only what open critical sections can still ask
 * about (`prune`).
 */
import type { FaultOp, KeyStateOp } from '../history/operation.js';

/** A stretch of time during which one request held a lock key (none: nobody held it). */
export interface Segment {
  startUs: number;
  endUs: number;
  holder: string;
  hasTtl: boolean;
  /** The node the hold is on (the primary then); none for a Redlock quorum's hold. */
  node?: string;
}

export interface KeySegments {
  key: string;
  /** Order in which the key's list came into being (the tie-break between keys' first violations). */
  rank: number;
  segments: Segment[];
  /** Segments before this index are no longer looked at. */
  head: number;
  /** Whether the last segment has been judged (it has once a later one follows it). */
  lastJudged: boolean;
}

interface SegmentHooks {
  /** A segment is final (its end will not move). */
  judge(k: KeySegments, seg: Segment): void;
  /** A key's list came into being. */
  created(k: KeySegments): void;
  /** A server state names this request as holder (pin), or no longer does (unpin). */
  pin(holder: string): void;
  unpin(holder: string): void;
  /** The earliest instant open critical sections of this key can ask about. */
  horizonUs(key: string): number;
}

interface NodeKeyState {
  holder: string | null;
  expiresAtUs: number | null;
}

/** Lists longer than this are pruned of segments nobody can ask about any more. */
const PRUNE_ABOVE = 32;

export class SegmentStream {
  readonly lists = new Map<string, KeySegments>();
  /** Primary: node -> key -> state; quorum: key -> node -> state. */
  private readonly states = new Map<string, Map<string, NodeKeyState>>();
  private readonly keys = new Set<string>();
  private primary: string;

  constructor(
    initialPrimary: string,
    private readonly lockNodes: readonly string[],
    private readonly quorum: number,
    private readonly hooks: SegmentHooks,
  ) {
    this.primary = initialPrimary;
  }

  keyState(op: KeyStateOp): void {
    if (this.quorum > 1) this.quorumKeyState(op);
    else this.primaryKeyState(op);
  }

  failover(op: FaultOp): void {
    if (this.quorum > 1) return;
    this.primary = op.target;
    for (const key of this.keys) {
      this.cut(key, op.timeUs);
      this.emit(key, op.timeUs);
    }
  }

  /** The end of the run: holds without a TTL last until `runEndUs`; the last segments are judged. */
  finish(runEndUs: number): void {
    for (const k of this.lists.values()) {
      const last = k.segments[k.segments.length - 1];
      if (!last) continue;
      if (last.endUs === Infinity) last.endUs = runEndUs;
      if (!k.lastJudged) this.judgeLast(k);
    }
  }

  /** A node's state of a key, updated in place (nothing else keeps these objects); null when it is the node's first state of the key. */
  private setState(perKey: Map<string, NodeKeyState>, name: string, op: KeyStateOp): NodeKeyState | null {
    const before = perKey.get(name);
    if (op.holder !== null) this.hooks.pin(op.holder);
    if (before === undefined) {
      perKey.set(name, { holder: op.holder, expiresAtUs: op.expiresAtUs });
      return null;
    }
    if (before.holder !== null) this.hooks.unpin(before.holder);
    before.holder = op.holder;
    before.expiresAtUs = op.expiresAtUs;
    return before;
  }

  private primaryKeyState(op: KeyStateOp): void {
    let perKey = this.states.get(op.node);
    if (!perKey) this.states.set(op.node, (perKey = new Map()));
    const key = op.key;
    const before = this.setState(perKey, key, op);
    // A key is new to `keys` only where it is new to the node (the set's order: first seen).
    if (before === null) this.keys.add(key);
    if (op.node === this.primary) {
      // cut() then emit(), from the state just set and with one lookup of the key's list.
      const t = op.timeUs;
      let k = this.lists.get(key);
      if (k === undefined) k = this.listOf(key);
      else this.cutList(k, t);
      if (op.holder !== null) this.push(k, { startUs: t, endUs: op.expiresAtUs ?? Infinity, holder: op.holder, hasTtl: op.expiresAtUs !== null, node: op.node });
    }
  }

  private emit(key: string, t: number): void {
    const s = this.states.get(this.primary)?.get(key);
    const k = this.listOf(key);
    if (s === undefined || s.holder === null) return;
    this.push(k, { startUs: t, endUs: s.expiresAtUs ?? Infinity, holder: s.holder, hasTtl: s.expiresAtUs !== null, node: this.primary });
  }

  /**
   * Redlock: the lock belongs to whoever holds the key, unexpired, on at least `quorum`
   * masters; it lasts until the quorum-th latest of those deadlines or the next change. (A
   * copy that had already expired cannot make a quorum: the quorum-th latest deadline would
   * then be past, and a segment that ends before it starts is judged empty.)
   */
  private quorumKeyState(op: KeyStateOp): void {
    if (!this.lockNodes.includes(op.node)) return;
    let perNode = this.states.get(op.key);
    if (!perNode) this.states.set(op.key, (perNode = new Map()));
    this.setState(perNode, op.node, op);
    const k = this.listOf(op.key);
    this.cut(op.key, op.timeUs);
    const deadlines = new Map<string, number[]>();
    for (const s of perNode.values()) {
      if (s.holder === null) continue;
      const list = deadlines.get(s.holder);
      if (list) list.push(s.expiresAtUs ?? Infinity);
      else deadlines.set(s.holder, [s.expiresAtUs ?? Infinity]);
    }
    for (const [holder, ends] of deadlines) {
      if (ends.length < this.quorum) continue;
      ends.sort((a, b) => b - a);
      const endUs = ends[this.quorum - 1];
      this.push(k, { startUs: op.timeUs, endUs, holder, hasTtl: endUs !== Infinity });
    }
  }

  private listOf(key: string): KeySegments {
    let k = this.lists.get(key);
    if (!k) {
      k = { key, rank: this.lists.size, segments: [], head: 0, lastJudged: true };
      this.lists.set(key, k);
      this.hooks.created(k);
    }
    return k;
  }

  /**
   * The last segment of `key` ends at `t` at the latest. One that has ended by now is final
   * (later facts come at `t` or after): it is judged at once, so that its holder's facts need
   * not wait for the key's next holder.
   */
  private cut(key: string, t: number): void {
    const k = this.lists.get(key);
    if (k) this.cutList(k, t);
  }

  private cutList(k: KeySegments, t: number): void {
    const last = k.segments[k.segments.length - 1];
    if (!last) return;
    if (last.endUs > t) last.endUs = t;
    if (!k.lastJudged && last.endUs <= t) this.judgeLast(k);
  }

  private push(k: KeySegments, seg: Segment): void {
    if (!k.lastJudged) this.judgeLast(k);
    this.hooks.pin(seg.holder);
    k.segments.push(seg);
    k.lastJudged = false;
    if (k.segments.length - k.head > PRUNE_ABOVE) this.prune(k);
  }

  private judgeLast(k: KeySegments): void {
    const seg = k.segments[k.segments.length - 1];
    k.lastJudged = true;
    this.hooks.judge(k, seg);
    this.hooks.unpin(seg.holder);
  }

  /** Drops judged segments that end before anything open critical sections may ask about. */
  private prune(k: KeySegments): void {
    const horizon = this.hooks.horizonUs(k.key);
    const last = k.segments.length - 1;
    while (k.head < last && k.segments[k.head].endUs <= horizon) k.head++;
    if (k.head > k.segments.length / 2) {
      k.segments = k.segments.slice(k.head);
      k.head = 0;
    }
  }
}
