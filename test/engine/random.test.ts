/** Seeded streams: the in-place Alea step draws exactly what seedrandom's alea draws. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { RandomStream, RandomStreams } from '../../src/engine/random.js';

describe('RandomStream', () => {
  it("draws bit for bit the numbers of seedrandom's alea for the same seed", () => {
    for (const seed of ['6/link/client-1<->redis-0', '1/database', 'x']) {
      const ours = new RandomStream('s', seed);
      const theirs = seedrandom.alea(seed);
      for (let i = 0; i < 10_000; i++) expect(ours.next()).toBe(theirs());
    }
  });

  it("a later stream of the same seed (its seeded state remembered) draws alea's numbers from the start, whatever the first drew", () => {
    const first = new RandomStream('s', '9/remembered');
    for (let i = 0; i < 100; i++) first.next();
    const again = new RandomStream('s', '9/remembered');
    const theirs = seedrandom.alea('9/remembered');
    for (let i = 0; i < 1000; i++) expect(again.next()).toBe(theirs());
  });

  it('draws other numbers for another seed', () => {
    const a = new RandomStream('a', '1/a');
    const b = new RandomStream('b', '1/b');
    const drawsA = Array.from({ length: 5 }, () => a.next());
    const drawsB = Array.from({ length: 5 }, () => b.next());
    expect(drawsA).not.toEqual(drawsB);
  });

  it('forks one stream object per name', () => {
    const streams = new RandomStreams(3);
    expect(streams.fork('n')).toBe(streams.fork('n'));
    expect(streams.fork('n')).not.toBe(streams.fork('m'));
  });
});
