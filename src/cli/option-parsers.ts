/** Parsers for command-line values; a bad value is an InvalidArgumentError (exit 2). */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { availableParallelism } from 'node:os';
import { InvalidArgumentError } from 'commander';
import { DEFAULT_MAX_REQUESTS, type Budget } from '../scenario/cost.js';
import { parseSeedSpec } from '../scenario/seeds.js';
import { closest } from '../scenario/suggest.js';
import { outputCollision, writeAtomically } from './output-files.js';

/** A mistake in how lock-sim was called (not in a scenario file): exit 2, message only. */
export class UsageError extends Error {
  /** `raw`: the message is already complete (e.g. several files' errors), print it as is. */
  constructor(message: string, readonly raw = false) {
    super(message);
  }
}

export function parseSeed(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) {
    throw new InvalidArgumentError('expected a whole number from 0 to 4294967295');
  }
  return Number(value);
}

export function parseSeeds(value: string): number[] {
  const r = parseSeedSpec(value);
  if (!r.ok) throw new InvalidArgumentError(r.message);
  return r.value;
}

const MAX_JOBS = 256;

export function parseJobs(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_JOBS) {
    throw new InvalidArgumentError(`expected a number of worker threads from 1 to ${MAX_JOBS}`);
  }
  return Number(value);
}

export const defaultJobs = (): number => Math.max(1, availableParallelism());

export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** "a,b,c" -> names (repeatable flags add up). */
export const collectList = (value: string, previous: string[]): string[] => [
  ...previous,
  ...value.split(',').map((s) => s.trim()).filter((s) => s !== ''),
];

/**
 * Writes an output file (through a temporary file renamed into place: output-files.ts); a
 * path that cannot be written is the caller's mistake (exit 2).
 */
export function writeOutput(file: string, text: string): void {
  const problem = writeAtomically(file, text);
  if (problem !== null) throw new UsageError(problem);
}

/** Refuses, before anything runs, an output that is an input or another output (output-files.ts). */
export function checkOutputs(outputs: ReadonlyArray<readonly [flag: string, file: string | undefined]>, inputs: readonly string[]): void {
  const problem = outputCollision(outputs, inputs);
  if (problem !== null) throw new UsageError(problem);
}

/** --max-requests: the budget of requests per run (scenario/cost.ts). */
export function parseMaxRequests(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('expected a whole number of requests, at least 1');
  }
  return Number(value);
}

export const MAX_REQUESTS_HELP = `refuse a run expected to make more requests than this (default ${DEFAULT_MAX_REQUESTS}; memory grows about 9 KB per request)`;

export const budgetOf = (maxRequests: number | undefined, runsHeld?: Budget['runsHeld'], repeats?: number): Budget => ({ maxRequests: maxRequests ?? DEFAULT_MAX_REQUESTS, runsHeld, repeats });

/**
 * An output file named by `flag`, checked before anything runs: a run of minutes should not
 * end in "cannot write". The file is not created here.
 */
export function checkWritable(flag: string, file: string | undefined): void {
  if (file === undefined) return;
  if (file.trim() === '') throw new UsageError(`${flag} needs a file name`);
  let target = file;
  try {
    if (statSync(file).isDirectory()) throw new UsageError(`cannot write ${flag} ${file}: it is a folder`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    target = dirname(file);
  }
  try {
    accessSync(target, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot write ${flag} ${file}: ${code === 'ENOENT' ? `no folder ${target}` : code ?? String(err)}`);
  }
}

/** Names given twice (`--variants a,a`) would run twice: refused. */
export function checkNoDuplicates(flag: string, names: readonly string[]): void {
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) throw new UsageError(`${flag} names ${[...new Set(twice)].map((n) => `"${n}"`).join(', ')} more than once`);
}

/** What `run` and `compare` print: the text report, Markdown (PR comments, CI summaries) or JSON. */
const FORMATS = ['text', 'markdown', 'json'] as const;
export type Format = (typeof FORMATS)[number];

export function parseFormat(value: string): Format {
  if ((FORMATS as readonly string[]).includes(value)) return value as Format;
  const near = closest(value, FORMATS);
  throw new InvalidArgumentError(`expected one of ${FORMATS.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}`);
}

/** --format wins; --json is the older spelling of --format json. */
export function formatOf(options: { format?: Format; json?: boolean }): Format {
  if (options.format !== undefined && options.json && options.format !== 'json') throw new UsageError(`--json and --format ${options.format} disagree; give one`);
  return options.format ?? (options.json ? 'json' : 'text');
}

/** For a command whose output is text or JSON only (sweep, list): the format, markdown refused with the reason. */
export function textOrJson(options: { format?: Format; json?: boolean }, command: string): 'text' | 'json' {
  const format = formatOf(options);
  if (format === 'markdown') throw new UsageError(`--format markdown: ${command} prints as text or json`);
  return format;
}
