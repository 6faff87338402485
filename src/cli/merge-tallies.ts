/**
 * `lock-sim merge`: reads tally files (each a regular file of at most MAX_TALLY_FILE_BYTES of
 * JSON), checks each on its own (tally-file.ts), then that they are shards of one compare or
 * of one sweep (tally-identity.ts: scenario, module code, seed list, version, variants,
 * shards), and adds them up. Every problem is a line naming the file and the field.
 */
import { readInputFile } from '../scenario/input-file.js';
import { mergeCompareResults, type CompareResult } from '../sweep/compare-variants.js';
import { mergeSweepResults, type SweepResult } from '../sweep/sweep-grid.js';
import { formatProblem, SHARD_FORMAT, SWEEP_SHARD_FORMAT, validateSweepTally, validateTally } from '../sweep/tally-file.js';
import { UsageError } from './option-parsers.js';
import type { ScenarioTally } from '../sweep/check-scenario.js';
import { isCheckTally, mergeCheckTallies, validateCheckTally, type CheckTally } from '../sweep/check-tally-file.js';

/**
 * A tally file's size: a sweep of 2,500 cells and 10 variants writes about 13 MB (about 500
 * bytes a variant a cell); this leaves room for 200 variants at the most cells.
 */
const MAX_TALLY_FILE_BYTES = 256 * 1024 * 1024;

type MergedTallies = { kind: 'compare'; result: CompareResult } | { kind: 'sweep'; result: SweepResult } | { kind: 'check'; result: ScenarioTally[] };

const isSweepFormat = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && typeof (data as { format?: unknown }).format === 'string' && (data as { format: string }).format.startsWith('lock-sim-sweep-tally/');

function readJson(file: string): unknown {
  const read = readInputFile(file, 'a tally file', MAX_TALLY_FILE_BYTES);
  if (!read.ok) throw new UsageError(`${file}: ${read.message}`);
  try {
    return JSON.parse(read.text);
  } catch (err) {
    throw new UsageError(`${file}: cannot read a tally (${err instanceof Error ? err.message : String(err)})`);
  }
}

export function mergeTallyFiles(files: readonly string[]): MergedTallies {
  const data = files.map(readJson);
  if (isCheckTally(data[0])) return mergeCheckFiles(files, data);
  const sweep = isSweepFormat(data[0]);
  const problems: string[] = [];
  const parts: Array<CompareResult | SweepResult> = [];
  data.forEach((d, i) => {
    if (isCheckTally(d)) {
      problems.push(`${files[i]}: format: a check tally, ${files[0]} a ${sweep ? 'sweep' : 'compare'} tally: merge the shards of one run`);
      return;
    }
    if (isSweepFormat(d) !== sweep) {
      problems.push(`${files[i]}: format: a ${sweep ? 'compare' : 'sweep'} tally, ${files[0]} a ${sweep ? 'sweep' : 'compare'} tally: merge the shards of one run`);
      return;
    }
    const format = formatProblem(d, sweep ? SWEEP_SHARD_FORMAT : SHARD_FORMAT);
    if (format !== null) {
      problems.push(`${files[i]}: ${format}`);
      return;
    }
    const checked = sweep ? validateSweepTally(d) : validateTally(d);
    if (checked.ok) parts.push(checked.result);
    else problems.push(...checked.problems.map((p) => `${files[i]}: ${p}`));
  });
  if (problems.length > 0) throw new UsageError(problems.join('\n'), true);
  try {
    return sweep ? { kind: 'sweep', result: mergeSweepResults(parts as SweepResult[], files) } : { kind: 'compare', result: mergeCompareResults(parts as CompareResult[], files) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // Lines that name their file print as they are; the shard count is about all of them.
    throw new UsageError(message, files.some((f) => message.startsWith(`${f}:`)));
  }
}

/** Shards of one `check`: each file checked, then against the first, then added up (check-tally-file.ts). */
function mergeCheckFiles(files: readonly string[], data: readonly unknown[]): MergedTallies {
  const problems: string[] = [];
  const parts: CheckTally[] = [];
  data.forEach((d, i) => {
    if (!isCheckTally(d)) {
      problems.push(`${files[i]}: format: not a check tally, ${files[0]} is one: merge the shards of one run`);
      return;
    }
    const checked = validateCheckTally(d);
    if (checked.ok) parts.push(checked.result);
    else problems.push(...checked.problems.map((p) => `${files[i]}: ${p}`));
  });
  if (problems.length > 0) throw new UsageError(problems.join('\n'), true);
  try {
    return { kind: 'check', result: mergeCheckTallies(parts, files) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new UsageError(message, files.some((f) => message.startsWith(`${f}:`)));
  }
}
