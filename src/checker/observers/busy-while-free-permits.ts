/**
 * busy-while-free (busy-while-free.ts) for a semaphore of N permits: a refusal is explained
 * when, at some instant of it, as many holds as permits were there at once, so the holds
 * that met it are kept as spans and swept (mostAtOnce). Decided as the run goes: when the
 * holds known explain it, or once every lock work of its key that began before its answer
 * has ended; finished holds are kept only while a refusal still to come or to decide could
 * meet them.
 */
import type { CriticalSection, LockWork, RequestFacts } from '../observer.js';
import type { Refusal, UnexplainedRefusals } from './unexplained-refusals.js';

interface Span {
  fromUs: number;
  toUs: number;
}

/** A lock work not ended yet: acquiring, or holding (its section open or closed). */
interface OpenWork {
  fromUs: number;
  held: boolean;
  sectionOpen: boolean;
}

interface KeyState {
  works: Map<string, OpenWork>;
  /** Holds whose work ended, while a refusal could still meet them. */
  ended: Span[];
  /** Refusals a work still open may yet explain. */
  pending: Refusal[];
}

/** Pruning the ended holds: at most once per this many new ones, per key. */
const PRUNE_EVERY = 64;

export class PermitsBusyWhileFree {
  private readonly keys = new Map<string, KeyState>();

  /** `limit`: how many may hold a key at once; `unexplained`: where the refusals no holder explains go. */
  constructor(
    private readonly limit: number,
    private readonly unexplained: UnexplainedRefusals,
  ) {}

  workStarted(w: LockWork): void {
    this.stateOf(w.key).works.set(w.request, { fromUs: w.fromUs, held: false, sectionOpen: false });
  }

  sectionOpened(s: CriticalSection): void {
    const work = this.keys.get(s.key)?.works.get(s.request);
    if (work) {
      work.held = true;
      work.sectionOpen = true;
    }
  }

  sectionClosed(s: CriticalSection): void {
    const work = this.keys.get(s.key)?.works.get(s.request);
    if (work) work.sectionOpen = false;
  }

  /** Request `r` ended at `endUs` (null: unknown); `refused`: answered "lock busy". */
  requestEnded(r: RequestFacts, endUs: number | null, refused: boolean, nowUs: number): void {
    const lockWork = r.work;
    if (lockWork === null) return;
    const state = this.keys.get(lockWork.key);
    const work = state?.works.get(r.id);
    if (!state || !work) return;
    state.works.delete(r.id);
    if (work.held) {
      state.ended.push({ fromUs: work.fromUs, toUs: Number.isFinite(lockWork.toUs) ? lockWork.toUs : (endUs ?? Infinity) });
      if (state.ended.length % PRUNE_EVERY === 0) this.prune(state, nowUs);
    } else if (refused && endUs !== null) {
      const refusal: Refusal = { fromUs: work.fromUs, toUs: endUs, request: r.id, invokeUs: r.invokeUs, text: r.firstError };
      if (!this.decide(state, refusal, false)) state.pending.push(refusal);
    }
    if (state.pending.length > 0) state.pending = state.pending.filter((p) => !this.decide(state, p, false));
  }

  /** Every work ended: the refusals still pending are decided. */
  finish(): void {
    for (const state of this.keys.values()) {
      for (const p of state.pending) this.decide(state, p, true);
      state.pending = [];
    }
  }

  private stateOf(key: string): KeyState {
    let state = this.keys.get(key);
    if (state === undefined) this.keys.set(key, (state = { works: new Map(), ended: [], pending: [] }));
    return state;
  }

  /**
   * Whether `r` is decided (and, if unexplained, counted): explained by holds known, or no open
   * work that began before its answer is left to explain it (`final`: none will be).
   */
  private decide(state: KeyState, r: Refusal, final: boolean): boolean {
    const explained = explainedByMany(state, r, this.limit);
    if (explained === true) return true;
    if (explained === 'undecided' && !final) return false;
    this.unexplained.add(r);
    return true;
  }

  /** Drops the ended holds no refusal can meet: ended before every open work and pending refusal began, and before now. */
  private prune(state: KeyState, nowUs: number): void {
    let floorUs = nowUs;
    for (const w of state.works.values()) floorUs = Math.min(floorUs, w.fromUs);
    for (const p of state.pending) floorUs = Math.min(floorUs, p.fromUs);
    state.ended = state.ended.filter((h) => h.toUs >= floorUs);
  }
}

/** A semaphore of `limit` permits: as many holds at one instant of the refusal explain it. */
function explainedByMany(state: KeyState, r: Refusal, limit: number): boolean | 'undecided' {
  let undecided = false;
  const meeting = state.ended.filter((h) => h.fromUs <= r.toUs && h.toUs >= r.fromUs);
  for (const w of state.works.values()) {
    if (w.fromUs > r.toUs) continue;
    if (w.held && w.sectionOpen) meeting.push({ fromUs: w.fromUs, toUs: Infinity });
    else undecided = true;
  }
  if (mostAtOnce(meeting, r) >= limit) return true;
  return undecided ? 'undecided' : false;
}

/** The most of `spans` (each meeting `within`) that overlap at one instant inside `within`. */
function mostAtOnce(spans: readonly Span[], within: Span): number {
  if (spans.length <= 1) return spans.length;
  // Starts before ends at the same instant: spans that touch overlap (closed spans).
  const events = spans.flatMap((s) => [
    { atUs: Math.max(s.fromUs, within.fromUs), delta: 1 },
    { atUs: Math.min(s.toUs, within.toUs), delta: -1 },
  ]);
  events.sort((a, b) => a.atUs - b.atUs || b.delta - a.delta);
  let count = 0;
  let most = 0;
  for (const e of events) {
    count += e.delta;
    most = Math.max(most, count);
  }
  return most;
}
