/**
 * What a tally says it is a tally of, so that `merge` adds up only shards of one run: the
 * scenario's content (its fingerprint), the code of its own-code variants (a hash of the
 * module files: the fingerprint names a module by path, not by what is in it), the exact
 * seed list (its SHA-256: `--seeds 1,3,5,7` and `--seeds 2,4,6,8` are both labelled "4
 * seeds"), and the lock-sim version that ran it (another version may simulate otherwise).
 * Merge compares each with the first file's and names the file and the field that differ.
 */
import { createHash } from 'node:crypto';
import type { Scenario } from '../spec/scenario.js';
import { moduleCodeHash } from '../scenario/module-files.js';
import { VERSION } from '../version.js';

export interface ScenarioIdentity {
  name: string;
  /** As the command line gave it: replay commands use it. */
  file: string;
  /** The scenario's resolved content (where the file lies does not count). */
  fingerprint: string;
  /** The own-code modules' files (module-files.ts), or null: no own-code variant. */
  code: string | null;
}

export interface SeedsIdentity {
  label: string;
  count: number;
  /** SHA-256 of the seeds in order, joined by commas. */
  sha256: string;
}

/** The header every tally (compare's, and each sweep's) carries besides its counts. */
export interface TallyHeader {
  version: string;
  scenario: ScenarioIdentity;
  seeds: SeedsIdentity;
  shard: { k: number; n: number } | null;
  variants: string[];
  baseline?: string | null;
}

/**
 * Identifies a scenario's content, so shards of different scenarios are not merged; where
 * the file lies (its path, the positions of its expectations and workload, a module's
 * absolute path) does not count: the module's code counts through `code`.
 */
function fingerprint(scenario: Scenario): string {
  const { file: _file, workloadLocation: _workload, expectations, variants, ...content } = scenario;
  const placeless = expectations.map(({ location: _location, ...e }) => e);
  const modulesByName = variants.map((v) => (v.lockModule ? { ...v, lockModule: { ...v.lockModule, file: v.lockModule.module } } : v));
  return createHash('sha256').update(JSON.stringify({ ...content, variants: modulesByName, expectations: placeless })).digest('hex').slice(0, 16);
}

function codeIdentity(scenario: Scenario): string | null {
  const files = scenario.variants.flatMap((v) => (v.lockModule ? [v.lockModule.file] : []));
  return moduleCodeHash([...new Set(files)], scenario.file);
}

export function scenarioIdentity(scenario: Scenario): ScenarioIdentity {
  return { name: scenario.name, file: scenario.file, fingerprint: fingerprint(scenario), code: codeIdentity(scenario) };
}

export function seedsLabel(seeds: readonly number[]): string {
  if (seeds.length === 0) return 'no seeds';
  const contiguous = seeds.every((s, i) => i === 0 || s === seeds[i - 1] + 1);
  if (contiguous) return seeds.length === 1 ? String(seeds[0]) : `${seeds[0]}..${seeds[seeds.length - 1]}`;
  return `${seeds.length} seeds`;
}

export function seedsIdentity(seeds: readonly number[]): SeedsIdentity {
  const hash = createHash('sha256');
  // In slices: a million seeds joined at once would be one 8 MB string.
  for (let i = 0; i < seeds.length; i += 10_000) hash.update(`${i > 0 ? ',' : ''}${seeds.slice(i, i + 10_000).join(',')}`);
  return { label: seedsLabel(seeds), count: seeds.length, sha256: hash.digest('hex') };
}

export const LOCK_SIM_VERSION = VERSION;

const short = (hash: string | null): string => (hash === null ? 'none' : hash.slice(0, 12));

/**
 * What differs between each header and the first one's, as "file: field: problem" lines
 * (empty: they are shards of one run). `what` names the run ("compare", "sweep").
 */
export function identityProblems(files: readonly string[], headers: readonly TallyHeader[], what: string): string[] {
  const problems: string[] = [];
  const [first, ...rest] = headers;
  rest.forEach((h, i) => {
    const file = files[i + 1];
    const firstFile = files[0];
    const say = (field: string, message: string): void => {
      problems.push(`${file}: ${field}: ${message}`);
    };
    if (h.version !== first.version) say('version', `written by lock-sim ${h.version}, ${firstFile} by lock-sim ${first.version}: another version may simulate otherwise; run every shard with one version`);
    if (h.scenario.fingerprint !== first.scenario.fingerprint) {
      say('scenario.fingerprint', `a tally of another scenario (${h.scenario.name}, content ${h.scenario.fingerprint}) than ${firstFile} (${first.scenario.name}, content ${first.scenario.fingerprint}): shards of one ${what} run the same file`);
    }
    if (h.scenario.code !== first.scenario.code) {
      say('scenario.code', `the own-code modules differ (code ${short(h.scenario.code)}, ${firstFile} ${short(first.scenario.code)}): a module or a file it imports changed between the shards`);
    }
    if (h.seeds.sha256 !== first.seeds.sha256 || h.seeds.count !== first.seeds.count) {
      say('seeds', `ran ${h.seeds.count} seeds (${h.seeds.label}, list ${short(h.seeds.sha256)}), ${firstFile} ${first.seeds.count} seeds (${first.seeds.label}, list ${short(first.seeds.sha256)}): shards of one ${what} run the same --seeds`);
    }
    if (h.variants.join('\u0000') !== first.variants.join('\u0000')) say('variants', `${h.variants.join(', ')}, ${firstFile} ${first.variants.join(', ')}`);
    if ((h.baseline ?? null) !== (first.baseline ?? null)) say('baseline', `${h.baseline ?? 'none'}, ${firstFile} ${first.baseline ?? 'none'}`);
    if ((h.shard?.n ?? 1) !== (first.shard?.n ?? 1)) say('shard', `one of ${h.shard?.n ?? 1} shards, ${firstFile} one of ${first.shard?.n ?? 1}`);
  });
  return problems;
}

/** Shard numbers given: every one of 1..n once, or what is missing and what is given twice (with its files). */
export function coverageProblem(files: readonly string[], headers: readonly TallyHeader[]): string | null {
  const n = headers[0].shard?.n ?? 1;
  const byShard = new Map<number, string[]>();
  headers.forEach((h, i) => byShard.set(h.shard?.k ?? 1, [...(byShard.get(h.shard?.k ?? 1) ?? []), files[i]]));
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !byShard.has(k));
  const twice = [...byShard].filter(([, f]) => f.length > 1).sort((a, b) => a[0] - b[0]);
  if (missing.length === 0 && twice.length === 0) return null;
  return `shards must be 1..${n} once each${missing.length ? `; missing ${missing.map((k) => `${k}/${n}`).join(', ')}` : ''}${
    twice.length ? `; given twice ${twice.map(([k, f]) => `${k}/${n} (${f.join(', ')})`).join(', ')}` : ''
  }`;
}
