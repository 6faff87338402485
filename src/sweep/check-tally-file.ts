/**
 * The tally a shard of `check` writes (`check --shard-index i --shard-count n --tally f`),
 * and how `merge` adds the shards up. Each scenario's expectation tallies (expectation-tally.ts)
 * are counts, sums and the best seeds to replay, so the merged tallies are exactly those of
 * the whole run, and merge judges them as check would have: the same report, the same exit
 * code. A file is checked on its own (shape, counts against the seeds its shard must have
 * run), then against the first file, scenario by scenario (tally-identity.ts: version,
 * content, module code, seed list, shard count), and the set must hold shards 1..n once each.
 */
import { z } from 'zod';
import type { Scenario } from '../spec/scenario.js';
import { metricByName } from '../checker/metric-names.js';
import { MAX_NAME_LENGTH } from '../scenario/schema.js';
import { mergeExpectationTally, type ExpectationTally } from './expectation-tally.js';
import type { CheckedExpectation, ScenarioTally } from './check-scenario.js';
import { coverageProblem, identityProblems, LOCK_SIM_VERSION, scenarioIdentity, type ScenarioIdentity, type SeedsIdentity, type TallyHeader } from './tally-identity.js';
import { at, shardRuns } from './tally-file.js';

const CHECK_TALLY_FORMAT = 'lock-sim-check-tally/1';

interface ScenarioEntry {
  scenario: ScenarioIdentity;
  seeds: SeedsIdentity;
  /** The variants that ran (those some expectation is about). */
  variants: string[];
  written: number;
  passWithNoExpectations: boolean;
  tallies: ExpectationTally[];
  /** explore: expectations, judged whole by the shard that ran them (shard 1; the others carry none). */
  explored: CheckedExpectation[];
}

export interface CheckTally {
  version: string;
  shard: { k: number; n: number };
  scenarios: ScenarioEntry[];
}

/** The file's JSON for the tallies of one shard (the Scenario objects give the identities). */
export function checkTallyJson(tallies: readonly ScenarioTally[], scenarios: readonly Scenario[], shard: { k: number; n: number }): string {
  const entries = tallies.map((t, i): ScenarioEntry => ({
    scenario: scenarioIdentity(scenarios[i]),
    seeds: t.seeds,
    variants: [...new Set(t.tallies.map((x) => x.expectation.variant))],
    written: t.written,
    passWithNoExpectations: t.passWithNoExpectations,
    tallies: t.tallies,
    explored: t.explored,
  }));
  return `${JSON.stringify({ format: CHECK_TALLY_FORMAT, version: LOCK_SIM_VERSION, shard, scenarios: entries })}\n`;
}

const name = z.string().min(1).max(MAX_NAME_LENGTH);
const text = z.string().max(10_000);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const finite = z.number().finite();
const comparator = z.enum(['==', '!=', '<', '<=', '>', '>=']);
const seedValue = z.strictObject({ seed: count, value: finite }).nullable();
const expectation = z.strictObject({
  variant: name,
  // explore-violations: how check-scenario.ts shows an explore: expectation.
  metric: z.string().refine((m) => metricByName.has(m) || m === 'explore-violations', 'no such metric'),
  statistic: z.enum(['run', 'p', 'mean', 'max', 'min']),
  condition: z.strictObject({ comparator, value: finite }).nullable(),
  comparator,
  value: finite,
  text,
  written: z.union([text, finite]),
  key: text,
  location: text,
});
const tally = z.strictObject({
  expectation,
  variantIndex: z.number().int().min(-1).max(10_000),
  runs: count,
  matches: count,
  scaledSum: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  first: seedValue,
  firstMatch: seedValue,
  firstMiss: seedValue,
  max: seedValue,
  min: seedValue,
});
const explored = z.strictObject({
  expectation,
  passed: z.boolean(),
  measured: finite,
  runs: count,
  failedRuns: count,
  replaySeed: count.nullable(),
  replay: text.nullable(),
  implicit: z.boolean(),
  detail: text.optional(),
});
const hash = z.string().regex(/^[0-9a-f]{1,128}$/);
const entry = z.strictObject({
  scenario: z.strictObject({ name, file: text, fingerprint: hash, code: hash.nullable() }),
  seeds: z.strictObject({ label: text, count: z.number().int().min(0).max(10_000_000), sha256: hash }),
  variants: z.array(name).max(1_000),
  written: count,
  passWithNoExpectations: z.boolean(),
  tallies: z.array(tally).max(100_000),
  explored: z.array(explored).max(10_000),
});
const fileSchema = z.strictObject({
  format: z.literal(CHECK_TALLY_FORMAT),
  version: z.string().max(100),
  shard: z.strictObject({ k: z.number().int().min(1).max(10_000), n: z.number().int().min(1).max(10_000) }),
  scenarios: z.array(entry).min(1).max(100_000),
});

export const isCheckTally = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && typeof (data as { format?: unknown }).format === 'string' && (data as { format: string }).format.startsWith('lock-sim-check-tally/');

/** One file on its own: its shape, and its counts against the seeds its shard runs. */
export function validateCheckTally(data: unknown): { ok: true; result: CheckTally } | { ok: false; problems: string[] } {
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.slice(0, 20).map((i) => `${at(i.path)}: ${i.message}`) };
  const { format: _format, ...result } = parsed.data;
  const problems: string[] = [];
  const { k, n } = result.shard;
  if (k > n) problems.push(`shard: ${k}/${n} is not one of 1/${n}..${n}/${n}`);
  result.scenarios.forEach((s, i) => {
    const runs = shardRuns(s.seeds.count, k, n);
    if (s.written > s.tallies.length) problems.push(`scenarios[${i}].written: ${s.written} written expectations, but ${s.tallies.length} tallies`);
    if (k !== 1 && s.explored.length > 0) problems.push(`scenarios[${i}].explored: shard ${k}/${n} carries explore results; only shard 1/${n} runs them`);
    s.tallies.forEach((t, j) => {
      const p = `scenarios[${i}].tallies[${j}]`;
      if (t.runs !== runs) problems.push(`${p}.runs: ${t.runs} runs, but shard ${k}/${n} of ${s.seeds.count} seeds runs ${runs}`);
      if (t.matches > t.runs) problems.push(`${p}.matches: ${t.matches} is more than its ${t.runs} runs`);
      if (!s.variants.includes(t.expectation.variant)) problems.push(`${p}.expectation.variant: ${t.expectation.variant} is not among the variants that ran (${s.variants.join(', ')})`);
      if (t.variantIndex !== s.variants.indexOf(t.expectation.variant)) problems.push(`${p}.variantIndex: ${t.variantIndex}, but ${t.expectation.variant} is variant ${s.variants.indexOf(t.expectation.variant)}`);
    });
  });
  return problems.length > 0 ? { ok: false, problems: problems.slice(0, 20) } : { ok: true, result: result as CheckTally };
}

const headerOf = (t: CheckTally, s: ScenarioEntry): TallyHeader => ({ version: t.version, scenario: s.scenario, seeds: s.seeds, shard: t.shard, variants: s.variants });
const expectationsOf = (s: ScenarioEntry): string => s.tallies.map((t) => `${t.expectation.variant}\u0000${t.expectation.text}`).join('\u0001');

/** The shards added up, scenario by scenario; an Error whose lines name each file and field that does not fit. */
export function mergeCheckTallies(parts: readonly CheckTally[], files: readonly string[]): ScenarioTally[] {
  if (parts.length === 0) throw new Error('nothing to merge');
  const [first] = parts;
  const problems: string[] = [];
  parts.forEach((p, i) => {
    if (i === 0) return;
    if (p.scenarios.length !== first.scenarios.length) {
      problems.push(`${files[i]}: scenarios: ${p.scenarios.length} scenarios (${p.scenarios.map((s) => s.scenario.file).join(', ')}), ${files[0]} ${first.scenarios.length}: shards of one check run the same files`);
      return;
    }
    p.scenarios.forEach((s, j) => {
      const f = first.scenarios[j];
      const lines = identityProblems([files[0], files[i]], [headerOf(first, f), headerOf(p, s)], 'check');
      problems.push(...lines.map((l) => l.replace(`${files[i]}: `, `${files[i]}: scenarios[${j}] (${s.scenario.file}): `)));
      if (lines.length === 0 && (expectationsOf(s) !== expectationsOf(f) || s.written !== f.written)) problems.push(`${files[i]}: scenarios[${j}] (${s.scenario.file}): expectations: not those of ${files[0]}`);
      if (s.passWithNoExpectations !== f.passWithNoExpectations) problems.push(`${files[i]}: scenarios[${j}]: passWithNoExpectations: ${s.passWithNoExpectations}, ${files[0]} ${f.passWithNoExpectations}: run every shard with the same flags`);
    });
  });
  const coverage = problems.length === 0 ? coverageProblem(files, parts.map((p) => headerOf(p, p.scenarios[0]))) : null;
  if (problems.length > 0 || coverage !== null) throw new Error([...problems, ...(coverage === null ? [] : [coverage])].join('\n'));
  // explore: expectations ran whole in shard 1 (check-scenario.ts tallyScenario): its results are the run's.
  const shardOne = parts.find((p) => p.shard.k === 1)!;
  return first.scenarios.map((s, j) => {
    const tallies = s.tallies.map((t) => ({ ...t }));
    for (const p of parts.slice(1)) p.scenarios[j].tallies.forEach((t, x) => mergeExpectationTally(tallies[x], t));
    return { scenario: { name: s.scenario.name, file: s.scenario.file }, seeds: s.seeds, written: s.written, tallies, explored: shardOne.scenarios[j].explored, passWithNoExpectations: s.passWithNoExpectations };
  });
}
