/**
 * Seeded random streams. One run seed is forked by name into independent streams
 * (`client-3/arrivals`, `link/client-1->redis-0`, `faults`), the habit TigerBeetle's VOPR
 * follows with per-component sub-seeds: adding a draw in one component never shifts the
 * numbers another component sees, so every variant of a comparison meets the same
 * arrivals, latencies and faults (common random numbers).
 */
import seedrandom from 'seedrandom';

interface AleaState {
  c: number;
  s0: number;
  s1: number;
  s2: number;
}

/** Alea's multiplier and 2^-32 (seedrandom 3.0.5 lib/alea.js, after Johannes Baagøe's Alea). */
const ALEA_A = 2091639;
const TWO_POW_MINUS_32 = 2.3283064365386963e-10;

/**
 * Alea's first state for a seed string, [s0, s1, s2, c], remembered: every variant of a seed
 * forks the same names (a world has about 130 streams: links, sentinels, clients), and
 * seeding (Alea's Mash over the string) again per variant was 0.2% of a compare's self time
 * (CPU profile of compare failover.yaml over 20 seeds, one thread, on the shared 2-core
 * development machine, Node 20; 0.0% once remembered). A pure
 * function of the string, so the draws are the same; at most SEEDED_MAX entries are kept.
 */
const SEEDED = new Map<string, readonly number[]>();
const SEEDED_MAX = 4096;

function seededState(seed: string): readonly number[] {
  let state = SEEDED.get(seed);
  if (state === undefined) {
    // Alea: fast, good statistical quality, and byte-for-byte reproducible in JS.
    const s = (seedrandom.alea(seed, { state: true }) as unknown as { state(): AleaState }).state();
    state = [s.s0, s.s1, s.s2, s.c];
    if (SEEDED.size >= SEEDED_MAX) SEEDED.clear();
    SEEDED.set(seed, state);
  }
  return state;
}

export class RandomStream {
  /**
   * Alea's state [s0, s1, s2, c]: seeded by seedrandom's alea (its Mash of the seed), then
   * stepped here with the same arithmetic as its `next` (seedrandom 3.0.5 lib/alea.js), so
   * every draw is bit-for-bit the same. In a Float64Array the state changes in place: the
   * library's object fields held `c` (an int32 beyond the small-integer range) as a fresh
   * heap number on most draws, and draws happen on every message and statement.
   */
  private readonly state = new Float64Array(4);

  constructor(readonly name: string, seed: string) {
    const seeded = seededState(seed);
    this.state[0] = seeded[0];
    this.state[1] = seeded[1];
    this.state[2] = seeded[2];
    this.state[3] = seeded[3];
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.prng();
  }

  /** One Alea step (seedrandom 3.0.5 lib/alea.js `me.next`). */
  private prng(): number {
    const st = this.state;
    const t = ALEA_A * st[0] + st[3] * TWO_POW_MINUS_32;
    st[0] = st[1];
    st[1] = st[2];
    const c = t | 0;
    st[3] = c;
    return (st[2] = t - c);
  }

  /** Integer uniform in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.prng() * (hi - lo + 1));
  }

  /** Exponential with the given mean, as a float. */
  exponential(mean: number): number {
    return -Math.log(1 - this.prng()) * mean;
  }

  /** Standard normal by Box-Muller (one value per call keeps the stream position simple). */
  normal(): number {
    const u1 = 1 - this.prng();
    const u2 = this.prng();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  bernoulli(p: number): boolean {
    return this.prng() < p;
  }

  /** A 128-bit-looking hex id, for tokens and UUIDs that must be reproducible. */
  hexId(): string {
    let s = '';
    for (let i = 0; i < 4; i++) s += Math.floor(this.prng() * 0x1_0000_0000).toString(16).padStart(8, '0');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
  }
}

export class RandomStreams {
  private readonly streams = new Map<string, RandomStream>();

  constructor(readonly seed: number | string) {}

  /** The stream for `name`; the same name always returns the same stream object. */
  fork(name: string): RandomStream {
    let stream = this.streams.get(name);
    if (!stream) {
      stream = new RandomStream(name, `${this.seed}/${name}`);
      this.streams.set(name, stream);
    }
    return stream;
  }
}
