/**
 * Seed lists for sweeps: "1..1000" (a range, inclusive), "500" or 500 (that many seeds,
 * 1..500), "3,7,42" (a list). Used by the scenario's `seeds:` field and by --seeds.
 */
import { quote } from '../spec/errors.js';
import type { Parsed } from './value-parsers.js';

const MAX_SEED = 2 ** 32 - 1;
/** More runs than this is almost surely a typo, and would take days. */
const MAX_SWEEP_SEEDS = 1_000_000;

export function parseSeedSpec(input: unknown): Parsed<number[]> {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : null;
  const expected = 'expected seeds as "1..1000" (a range), "500" (that many, from 1) or "3,7,42" (a list)';
  if (text === null || text === '') return { ok: false, message: `${expected}, found ${JSON.stringify(input) ?? 'nothing'}` };
  const range = /^(\d+)\s*\.\.\s*(\d+)$/.exec(text);
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (to < from) return { ok: false, message: `a seed range runs upwards, found ${quote(text)}` };
    if (to > MAX_SEED) return { ok: false, message: `seeds go up to ${MAX_SEED}, found ${quote(text)}` };
    if (to - from + 1 > MAX_SWEEP_SEEDS) return { ok: false, message: `${quote(text)} is ${to - from + 1} seeds, over the limit of ${MAX_SWEEP_SEEDS}` };
    return { ok: true, value: Array.from({ length: to - from + 1 }, (_, i) => from + i) };
  }
  if (/^\d+$/.test(text)) {
    const count = Number(text);
    if (count < 1 || count > MAX_SWEEP_SEEDS) return { ok: false, message: `a sweep has 1 to ${MAX_SWEEP_SEEDS} seeds, found ${text}` };
    return { ok: true, value: Array.from({ length: count }, (_, i) => i + 1) };
  }
  if (/^\d+(\s*,\s*\d+)+$/.test(text)) {
    const seeds = text.split(',').map((s) => Number(s.trim()));
    if (seeds.some((s) => s > MAX_SEED)) return { ok: false, message: `seeds go up to ${MAX_SEED}, found ${quote(text)}` };
    if (new Set(seeds).size !== seeds.length) return { ok: false, message: `a seed appears twice in ${quote(text)}` };
    return { ok: true, value: seeds };
  }
  return { ok: false, message: `${expected}, found ${quote(text)}` };
}

/** Shard k of n takes every n-th seed of the list, starting with the k-th. */
export function shardSeeds(seeds: readonly number[], shard: { k: number; n: number } | null): number[] {
  if (shard === null) return [...seeds];
  return seeds.filter((_, i) => i % shard.n === shard.k - 1);
}

export function parseShard(input: string): Parsed<{ k: number; n: number }> {
  const m = /^(\d+)\/(\d+)$/.exec(input.trim());
  if (!m) return { ok: false, message: `expected a shard as k/n, e.g. 2/4, found ${quote(input)}` };
  const k = Number(m[1]);
  const n = Number(m[2]);
  if (n < 1 || n > 10_000 || k < 1 || k > n) return { ok: false, message: `a shard k/n needs 1 <= k <= n <= 10000, found ${quote(input)}` };
  return { ok: true, value: { k, n } };
}
