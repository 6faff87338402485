/**
 * Which request a command of user code belongs to when the code that sent it runs outside any
 * request: an event handler (a pub/sub wake-up: simple-redis-mutex 3.0.0 dist/index.js runs
 * every waiter's `attempt` from its subscriber's message listener), or a timer or a
 * continuation a handler set off. Such code carries the process's own store, not a request's
 * (client-store.ts: Node's AsyncLocalStorage does not follow an EventEmitter's listeners
 * either), so its commands would be the process's, and the lock-key metrics would read the
 * key as held by no request: a false lock lost, foreign unlock, orphan time.
 *
 * The lock's identity tells instead: the Redis keys the command names, read as request keys
 * (key-attribution.ts, the variant's `keys` patterns), and the requests of this process in
 * flight on that key (acquiring, holding, releasing). One such request: it is the command's.
 * Several (two threads of one process waiting on one key): the one whose own commands carried
 * one of this command's values (a token the library drew in acquire and sends again), if just
 * one did; else a holder (its refresh), else the earliest waiter, and the write is noted so that
 * the request whose acquire then returns the lock takes it over (`settled`): a request still
 * waiting holds no lock; else the one releasing.
 */
import { commandKeys, isKeyArgument } from './key-attribution.js';

type Phase = 'acquiring' | 'holding' | 'releasing';

interface InFlight {
  tag: string;
  /** The request's lock key. */
  key: string;
  phase: Phase;
  /** Values its own commands sent on the key (tokens), bounded. */
  values: Set<string>;
  order: number;
}

/** A write attributed by guess: the Redis key, the request it went to, who else was waiting. */
interface GuessedWrite {
  redisKey: string;
  guessedTag: string;
  candidates: ReadonlySet<string>;
}

/** At most this many values per request are kept to tell tokens (a polling lock sends the same few). */
const MAX_VALUES = 16;
/** An option word or a plain number (NX, PX, 30000): not a value that names a request. */
const PLAIN = /^[A-Za-z]{1,8}$|^-?\d+$/;

export class RequestIdentity {
  private readonly byTag = new Map<string, InFlight>();
  private readonly byKey = new Map<string, InFlight[]>();
  private readonly guesses = new Map<string, GuessedWrite>();
  private order = 0;

  constructor(
    /** The process's own tag: what code outside any request carries. */
    private readonly processTag: string,
    /** The request key a Redis key stands for (key-attribution.ts), or null. */
    private readonly lockKeyOf: (redisKey: string) => string | null,
  ) {}

  /** A call into user code for request `tag` on `key`. */
  begin(tag: string, key: string, op: 'acquire' | 'release'): void {
    let r = this.byTag.get(tag);
    if (r === undefined) {
      r = { tag, key, phase: 'acquiring', values: new Set(), order: this.order++ };
      this.byTag.set(tag, r);
      const list = this.byKey.get(key);
      if (list) list.push(r);
      else this.byKey.set(key, [r]);
    }
    r.phase = op === 'acquire' ? 'acquiring' : 'releasing';
  }

  /**
   * A call settled: an acquire that returned the lock holds it; anything else ends the
   * request's part. Returns the guessed writes the acquiring request takes over.
   */
  settled(tag: string, op: 'acquire' | 'release', acquired: boolean): GuessedWrite[] {
    const r = this.byTag.get(tag);
    if (r === undefined) return [];
    if (op === 'acquire' && acquired) {
      r.phase = 'holding';
      return this.takeOver(r);
    }
    this.end(r);
    return [];
  }

  /** The tag a command goes out with: `tag` itself unless it is the process's, then the request the lock's identity names. */
  tagOf(tag: string, args: readonly string[]): string {
    if (this.byTag.size === 0) return tag;
    if (tag !== this.processTag) {
      this.noteValues(tag, args);
      return tag;
    }
    for (const redisKey of commandKeys(args)) {
      const key = this.lockKeyOf(redisKey);
      if (key === null) continue;
      const candidates = this.byKey.get(key);
      if (candidates === undefined || candidates.length === 0) continue;
      if (candidates.length === 1) return candidates[0].tag;
      const byValue = candidates.filter((c) => args.some((a, i) => i > 0 && c.values.has(a)));
      if (byValue.length === 1) return byValue[0].tag;
      const pool = byValue.length > 1 ? byValue : candidates;
      // A holder (its refresh) outranks a waiter, a waiter one that is releasing (its
      // release's publish is what woke the waiters); among equals the earliest.
      const holding = pool.filter((c) => c.phase === 'holding');
      const waiting = pool.filter((c) => c.phase === 'acquiring');
      const ranked = holding.length > 0 ? holding : waiting.length > 0 ? waiting : pool;
      const chosen = ranked.reduce((a, b) => (a.order <= b.order ? a : b));
      if (ranked === waiting && waiting.length > 1) this.guesses.set(redisKey, { redisKey, guessedTag: chosen.tag, candidates: new Set(waiting.map((c) => c.tag)) });
      return chosen.tag;
    }
    return tag;
  }

  /** Every request ended: a crashed process's, or the run's end. */
  clear(): void {
    this.byTag.clear();
    this.byKey.clear();
    this.guesses.clear();
  }

  private noteValues(tag: string, args: readonly string[]): void {
    const r = this.byTag.get(tag);
    if (r === undefined || r.values.size >= MAX_VALUES) return;
    // Nothing that could be new (a polling lock sends its key and its token with every try): the
    // loop below would add nothing, so its keys need not be read.
    let candidate = false;
    for (let i = 1; i < args.length && !candidate; i++) {
      const a = args[i];
      candidate = !(a.length < 6 || r.values.has(a) || isKeyArgument(args, i) || PLAIN.test(a));
    }
    if (!candidate) return;
    const keys = commandKeys(args);
    if (!keys.some((k) => this.lockKeyOf(k) === r.key)) return;
    // Values other than the command's name and keys and plain numbers and options (NX, PX, 30000).
    for (let i = 1; i < args.length && r.values.size < MAX_VALUES; i++) {
      const a = args[i];
      // Kept already (a polling lock sends its token with every try): nothing to test.
      if (a.length < 6 || r.values.has(a) || keys.includes(a) || PLAIN.test(a)) continue;
      r.values.add(a);
    }
  }

  private takeOver(r: InFlight): GuessedWrite[] {
    const out: GuessedWrite[] = [];
    for (const [redisKey, g] of this.guesses) {
      if (!g.candidates.has(r.tag) || this.lockKeyOf(redisKey) !== r.key) continue;
      this.guesses.delete(redisKey);
      if (g.guessedTag !== r.tag) out.push(g);
    }
    return out;
  }

  private end(r: InFlight): void {
    this.byTag.delete(r.tag);
    const list = this.byKey.get(r.key);
    if (list) {
      const at = list.indexOf(r);
      if (at !== -1) list.splice(at, 1);
      if (list.length === 0) this.byKey.delete(r.key);
    }
    for (const [redisKey, g] of this.guesses) {
      if (g.guessedTag === r.tag || [...g.candidates].every((t) => !this.byTag.has(t))) this.guesses.delete(redisKey);
    }
  }
}
