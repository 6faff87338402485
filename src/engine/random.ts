/**
 * Seeded random streams. One run seed is forked by name into independent streams
 * (`client-3/arrivals`, `link/client-1->redis-0`, `faults`), the habit TigerBeetle's VOPR
 * follows with per-component sub-seeds: adding a draw in one component never shifts the
 * numbers another component sees, so every variant of a comparison meets the same
 * arrivals, latencies and faults (common random numbers).
 */
import seedrandom from 'seedrandom';

export class RandomStream {
  private readonly prng: seedrandom.PRNG;

  constructor(readonly name: string, seed: string) {
    // Alea: fast, good statistical quality, and byte-for-byte reproducible in JS.
    this.prng = seedrandom.alea(seed);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.prng();
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
