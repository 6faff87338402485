/**
 * XXH3-64 (the hash of Redis 8.4's DIGEST) against the reference: redis.io's DIGEST example,
 * and xxhsum -H3 (xxHash 0.8.1, Debian's xxhash package) on inputs of every length class the
 * algorithm treats apart (0, 1-3, 4-8, 9-16, 17-128, 129-240, and the striped path beyond 240,
 * one block of 1024 bytes and past it). Input n: byte i is (31 i + 7) mod 256.
 */
import { describe, expect, it } from 'vitest';
import { xxh3 } from '../../../src/world/redis/xxh3.js';

const input = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
const hex = (h: bigint): string => h.toString(16).padStart(16, '0');

/** xxhsum -H3 of input(n), read off the tool. */
const XXHSUM: ReadonlyArray<readonly [number, string]> = [
  [0, '2d06800538d394c2'],
  [3, '15f7093b173d005c'],
  [8, 'dec6a9a43575982e'],
  [16, '7e484c18d74895d0'],
  [17, '208bde5ee2bed407'],
  [128, 'f92b70eaa21a6288'],
  [129, 'f8f76713f2bb60fa'],
  [240, 'ccc7375172c41f03'],
  [241, '0b3b630948ce4a00'],
  [1024, '23bc880ebf0d29c6'],
  [2049, '5045460f5d85c275'],
];

describe('xxh3 (XXH3_64bits, seed 0, default secret)', () => {
  it('hashes "Hello world" to redis.io DIGEST\'s example b6acb9d84a38ff74', () => {
    expect(hex(xxh3(Buffer.from('Hello world')))).toBe('b6acb9d84a38ff74');
  });

  it('equals xxhsum -H3 on every length class', () => {
    for (const [n, want] of XXHSUM) expect([n, hex(xxh3(input(n)))]).toEqual([n, want]);
  });

  it('tells inputs one byte apart (not a constant)', () => {
    const a = input(300);
    const b = Uint8Array.from(a);
    b[299] ^= 1;
    expect(xxh3(a)).not.toBe(xxh3(b));
  });
});
