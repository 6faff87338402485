/**
 * A shard's tally file, read back for `merge`. The file may have been edited by hand or
 * cut short, so it is checked like a scenario: a zod schema for the shape (integers where
 * the tally counts, no unknown fields), then the counts against each other and against the
 * seeds the shard must have run. Every problem names the file and the field.
 */
import { z } from 'zod';
import type { CompareResult } from './compare-variants.js';
import { MAX_NAME_LENGTH } from '../scenario/schema.js';
import { HISTOGRAM_BUCKETS } from './compare-tally.js';
import { gridIndices, MAX_SWEEP_CELLS, type SweepResult } from './sweep-grid.js';
import { LIVENESS_CLASSES, VERDICTS } from '../checker/verdict.js';

/** /2 added the identity merge checks (tally-identity.ts): the version, the module code, the seed list's hash. */
export const SHARD_FORMAT = 'lock-sim-compare-tally/2';
export const SWEEP_SHARD_FORMAT = 'lock-sim-sweep-tally/2';
/** Formats of older versions, which merge names instead of calling them "not a tally". */
const OLDER_FORMATS = ['lock-sim-compare-tally/1', 'lock-sim-sweep-tally/1'];

/** Names as a scenario may give them: a longer one was edited in (and would slow the table). */
const name = z.string().min(1).max(MAX_NAME_LENGTH);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const signed = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const sums = z.strictObject({ sum: signed, squares: count });

const variantTally = z.strictObject({
  variant: name,
  runs: count,
  oversellRuns: count,
  oversoldSum: count,
  doubleHolderRuns: count,
  doubleHoldersSum: count,
  stuckUsSum: count,
  orphanUsSum: count,
  throughputCentsSum: count,
  p99UsSum: count,
  oversoldHistogram: z.array(count).length(HISTOGRAM_BUCKETS),
  worst: z.strictObject({ seed: count, oversold: count, doubleHolders: count, doubleHolderUs: count }).nullable(),
  soldOutRuns: count,
  soldOutUsSum: count,
  arrivalsCentsSum: count,
  busyBasisPointsSum: count,
  p99OrderedUsSum: count,
  p99RefusedUsSum: count,
  p99ErrorUsSum: count,
  verdictRuns: z.array(count).length(VERDICTS.length),
  livenessRuns: z.array(count).length(LIVENESS_CLASSES.length),
  lostUpdateRuns: count,
  lostUpdatesSum: count,
  lostUnitsSum: count,
  failedBasisPointsSum: count,
  longestStallUsSum: count,
});

const pairedTally = z.strictObject({
  variant: name,
  baseline: name,
  runs: count,
  oversold: sums,
  oversell: sums,
  throughputCents: sums,
});

const hex = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`), `expected ${length} hexadecimal digits`);
const header = {
  version: z.string().min(1).max(64),
  scenario: z.strictObject({ name, file: z.string().max(4096), fingerprint: hex(16), code: hex(64).nullable() }),
  seeds: z.strictObject({ label: z.string().max(200), count: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), sha256: hex(64) }),
  shard: z.strictObject({ k: z.number().int().min(1), n: z.number().int().min(1) }).nullable(),
};

const tallyFileSchema = z.strictObject({
  format: z.literal(SHARD_FORMAT),
  ...header,
  variants: z.array(name).min(1),
  baseline: name.nullable(),
  tally: z.strictObject({ variants: z.array(variantTally), paired: z.array(pairedTally) }),
});

/** Why `data` is not a tally of this version (`format` names the expected one), or null. */
export function formatProblem(data: unknown, format: string): string | null {
  const given = typeof data === 'object' && data !== null ? (data as { format?: unknown }).format : undefined;
  if (given === format) return null;
  if (typeof given === 'string' && OLDER_FORMATS.includes(given)) {
    return `written by an older lock-sim (format ${given}), which did not record the seed list, the module code or its version: run the shard again`;
  }
  return `not a ${format.includes('sweep') ? 'sweep' : 'compare'} tally (expected format "${format}")`;
}

/** Seeds that shard k of n runs out of `count`: every n-th, starting with the k-th. */
export function shardRuns(count: number, k: number, n: number): number {
  return k > count ? 0 : Math.floor((count - k) / n) + 1;
}

/** A field's path in a tally file, as a problem line names it ("tally.variants[0].runs"). */
export const at = (path: ReadonlyArray<PropertyKey>): string =>
  path.length === 0 ? '(top level)' : path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');

/** The tally in `data`, or the list of what is wrong with it (each "field: problem"). */
export function validateTally(data: unknown): { ok: true; result: CompareResult } | { ok: false; problems: string[] } {
  const parsed = tallyFileSchema.safeParse(data);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${at(i.path)}: ${i.message}`) };
  const { format: _format, ...result } = parsed.data;
  const problems: string[] = [];
  const shard = result.shard ?? { k: 1, n: 1 };
  if (shard.k > shard.n) problems.push(`shard: ${shard.k}/${shard.n} is not one of 1/${shard.n}..${shard.n}/${shard.n}`);
  const runs = shardRuns(result.seeds.count, shard.k, shard.n);
  const names = result.tally.variants.map((t) => t.variant);
  if (names.join('\u0000') !== result.variants.join('\u0000')) problems.push(`tally.variants: the tallies are of ${names.join(', ') || 'nothing'}, the file says variants ${result.variants.join(', ')}`);
  result.tally.variants.forEach((t, i) => {
    const p = `tally.variants[${i}]`;
    if (t.runs !== runs) problems.push(`${p}.runs: ${t.runs} runs, but shard ${shard.k}/${shard.n} of ${result.seeds.count} seeds runs ${runs}`);
    if (t.oversellRuns > t.runs) problems.push(`${p}.oversellRuns: ${t.oversellRuns} is more than its ${t.runs} runs`);
    if (t.doubleHolderRuns > t.runs) problems.push(`${p}.doubleHolderRuns: ${t.doubleHolderRuns} is more than its ${t.runs} runs`);
    if (t.oversoldSum < t.oversellRuns) problems.push(`${p}.oversoldSum: ${t.oversoldSum} units cannot come from ${t.oversellRuns} runs that oversold`);
    const histogram = t.oversoldHistogram.reduce((a, b) => a + b, 0);
    if (histogram !== t.runs) problems.push(`${p}.oversoldHistogram: counts ${histogram} runs, not ${t.runs}`);
    if (t.runs - t.oversoldHistogram[0] !== t.oversellRuns) problems.push(`${p}.oversoldHistogram: ${t.runs - t.oversoldHistogram[0]} runs oversold by it, ${t.oversellRuns} by oversellRuns`);
    if (t.soldOutRuns > t.runs) problems.push(`${p}.soldOutRuns: ${t.soldOutRuns} is more than its ${t.runs} runs`);
    if (t.busyBasisPointsSum > t.runs * 10_000) problems.push(`${p}.busyBasisPointsSum: ${t.busyBasisPointsSum} is more than 100% in each of its ${t.runs} runs`);
    if ((t.worst === null) !== (t.runs === 0)) problems.push(`${p}.worst: ${t.worst === null ? 'missing' : 'given for no runs'}`);
    for (const key of ['verdictRuns', 'livenessRuns'] as const) {
      const n = t[key].reduce((a, b) => a + b, 0);
      if (n !== t.runs) problems.push(`${p}.${key}: counts ${n} runs, not ${t.runs}`);
    }
    if (t.lostUpdateRuns > t.runs) problems.push(`${p}.lostUpdateRuns: ${t.lostUpdateRuns} is more than its ${t.runs} runs`);
    if (t.lostUpdatesSum < t.lostUpdateRuns) problems.push(`${p}.lostUpdatesSum: ${t.lostUpdatesSum} lost updates cannot come from ${t.lostUpdateRuns} runs that lost one`);
    if (t.failedBasisPointsSum > t.runs * 10_000) problems.push(`${p}.failedBasisPointsSum: ${t.failedBasisPointsSum} is more than 100% in each of its ${t.runs} runs`);
  });
  const expectedPaired = result.baseline === null ? [] : result.variants.filter((v) => v !== result.baseline);
  if (result.baseline !== null && !result.variants.includes(result.baseline)) problems.push(`baseline: ${result.baseline} is not among the variants`);
  if (result.tally.paired.map((p) => p.variant).join('\u0000') !== expectedPaired.join('\u0000')) problems.push(`tally.paired: expected the differences of ${expectedPaired.join(', ') || 'no variant'} against the baseline`);
  result.tally.paired.forEach((p, i) => {
    if (p.baseline !== result.baseline) problems.push(`tally.paired[${i}].baseline: ${p.baseline}, the file's baseline is ${result.baseline}`);
    if (p.runs !== runs) problems.push(`tally.paired[${i}].runs: ${p.runs} runs, but shard ${shard.k}/${shard.n} of ${result.seeds.count} seeds runs ${runs}`);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, result };
}

const axisSchema = z.strictObject({
  path: z.string().min(1).max(1_000),
  kind: z.enum(['list', 'linear', 'log']),
  labels: z.array(z.string().max(1_000)).min(1).max(MAX_SWEEP_CELLS),
  numeric: z.array(z.number().nullable()).max(MAX_SWEEP_CELLS),
  raw: z.array(z.union([z.string().max(1_000), z.number()])).max(MAX_SWEEP_CELLS),
});

const sweepFileSchema = z.strictObject({
  format: z.literal(SWEEP_SHARD_FORMAT),
  ...header,
  axes: z.array(axisSchema).min(1).max(2),
  variants: z.array(name).min(1),
  cells: z.array(z.strictObject({ at: z.array(z.number().int().min(0)).max(2), result: z.record(z.string(), z.unknown()) })).min(1).max(MAX_SWEEP_CELLS),
});

/**
 * A sweep's tally file: its header and axes by the schema, then each cell as a compare tally
 * of the sweep's seeds, shard and variants, the cells in grid order.
 */
export function validateSweepTally(data: unknown): { ok: true; result: SweepResult } | { ok: false; problems: string[] } {
  const parsed = sweepFileSchema.safeParse(data);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${at(i.path)}: ${i.message}`) };
  const { format: _format, cells, ...head } = parsed.data;
  const problems: string[] = [];
  head.axes.forEach((a, i) => {
    if (a.numeric.length !== a.labels.length || a.raw.length !== a.labels.length) problems.push(`axes[${i}]: ${a.labels.length} labels, ${a.numeric.length} numbers and ${a.raw.length} values: one of each per value`);
  });
  const expected = gridIndices(head.axes.map((a) => a.labels.length));
  if (cells.length !== expected.length) problems.push(`cells: ${cells.length} cells, but the axes make ${expected.length}`);
  const checked: SweepResult['cells'] = [];
  cells.forEach((c, i) => {
    const p = `cells[${i}]`;
    if (expected[i] !== undefined && c.at.join(',') !== expected[i].join(',')) problems.push(`${p}.at: [${c.at.join(', ')}], expected [${expected[i].join(', ')}] (the cells in grid order)`);
    const r = validateTally({ format: SHARD_FORMAT, ...c.result });
    if (!r.ok) {
      problems.push(...r.problems.map((q) => `${p}.result.${q}`));
      return;
    }
    const cell = r.result;
    if (cell.version !== head.version) problems.push(`${p}.result.version: ${cell.version}, the sweep's is ${head.version}`);
    if (cell.seeds.sha256 !== head.seeds.sha256 || cell.seeds.count !== head.seeds.count) problems.push(`${p}.result.seeds: not the sweep's seeds`);
    if ((cell.shard?.k ?? 1) !== (head.shard?.k ?? 1) || (cell.shard?.n ?? 1) !== (head.shard?.n ?? 1)) problems.push(`${p}.result.shard: not the sweep's shard`);
    if (cell.variants.join('\u0000') !== head.variants.join('\u0000')) problems.push(`${p}.result.variants: not the sweep's variants`);
    checked.push({ at: c.at, result: cell });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, result: { ...head, cells: checked } };
}
