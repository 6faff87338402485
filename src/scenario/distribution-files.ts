/**
 * Distributions read from files, `empirical(latency.csv)` and `histogram(latency.prom)`: the
 * schema keeps the file name, and the loader reads each file here, relative to the scenario
 * file, so a run (and every worker thread) holds the samples and never reads a file itself.
 * Each problem (no file, an empty one, a line that is not a sample, buckets that decrease)
 * is an issue at the field that names the file, with the file's own line.
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Distribution } from '../engine/distribution.js';
import { cut, quote, type ScenarioIssue } from '../spec/errors.js';
import { readInputFile } from './input-file.js';
import { histogramOf, parseDuration } from './value-parsers.js';

/** Samples in one file: a million lines is a week of requests at 2/s, more than any run draws from. */
const MAX_EMPIRICAL_SAMPLES = 1_000_000;
/**
 * A sample or bucket file's size: a million samples of "1234.567ms" take 11 MB, a service's
 * whole /metrics page a few MB. A 200 MB file was read and split into lines (1.8 GiB) before
 * the sample limit refused it; now the size is checked on the open file before reading.
 */
export const MAX_SAMPLE_FILE_BYTES = 32 * 1024 * 1024;
/** Lines of one such file, comments and blank lines included. */
export const MAX_SAMPLE_FILE_LINES = 2_000_000;

type Issue = (path: ScenarioIssue['path'], message: string) => void;

export function fullPath(scenarioFile: string, file: string): string {
  return isAbsolute(file) ? file : join(dirname(scenarioFile), file);
}

function read(scenarioFile: string, file: string, path: ScenarioIssue['path'], issue: Issue): string | null {
  const full = fullPath(scenarioFile, file);
  const r = readInputFile(full, 'a sample file', MAX_SAMPLE_FILE_BYTES);
  if (r.ok) return r.text;
  issue(path, `${file}: ${r.message === 'no such file' ? `no such file (read relative to the scenario file, at ${full})` : r.message}`);
  return null;
}

/**
 * Each line of `text` (LF, CRLF or CR ends) with its number, walked without splitting the
 * text into an array; stops with a message past MAX_SAMPLE_FILE_LINES.
 */
function* linesOf(text: string, file: string): Generator<{ line: string; number: number } | { message: string }> {
  let start = 0;
  for (let number = 1; start <= text.length; number++) {
    if (number > MAX_SAMPLE_FILE_LINES) {
      yield { message: `${file}: more than ${MAX_SAMPLE_FILE_LINES.toLocaleString('en-US')} lines, the limit of a sample file` };
      return;
    }
    let end = start;
    while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
    yield { line: text.slice(start, end), number };
    if (end >= text.length) return;
    start = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
  }
}

/** One sample per line: a duration with a unit, or a bare number in `unitUs`; blank lines and # comments skipped. */
function parseSamples(text: string, file: string, unitUs: number | null): { samplesUs: number[] } | { message: string } {
  const samplesUs: number[] = [];
  for (const entry of linesOf(text, file)) {
    if ('message' in entry) return entry;
    const i = entry.number - 1;
    const line = entry.line.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (/^\d+(\.\d+)?$/.test(line)) {
      if (unitUs === null) return { message: `${file}:${i + 1}: ${quote(line)} has no unit: write 200ms, or name the unit of bare numbers, empirical(${file}, ms)` };
      samplesUs.push(Math.round(Number(line) * unitUs));
    } else {
      const d = parseDuration(line);
      if (!d.ok) return { message: `${file}:${i + 1}: ${d.message}` };
      samplesUs.push(d.value);
    }
    if (samplesUs.length > MAX_EMPIRICAL_SAMPLES) return { message: `${file}: more than ${MAX_EMPIRICAL_SAMPLES} samples` };
  }
  if (samplesUs.length === 0) return { message: `${file}: no samples (one duration per line, e.g. 200ms)` };
  return { samplesUs };
}

/**
 * Prometheus text exposition lines of one histogram's buckets, `<name>_bucket{le="0.25"} 90`
 * (https://prometheus.io/docs/instrumenting/exposition_formats/): `le` in seconds (the base
 * unit Prometheus names use), cumulative counts. Other lines (# HELP, _sum, _count) are skipped.
 */
function parseBucketLines(text: string, file: string): { buckets: Array<{ le: number; count: number }> } | { message: string } {
  const buckets: Array<{ le: number; count: number }> = [];
  const names = new Set<string>();
  for (const entry of linesOf(text, file)) {
    if ('message' in entry) return entry;
    const i = entry.number - 1;
    const line = entry.line.trim();
    if (line === '' || line.startsWith('#') || !/_bucket\s*\{/.test(line)) continue;
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)_bucket\s*\{(.*)\}\s+(\S+)(\s+\S+)?$/.exec(line);
    const le = m ? /(?:^|,)\s*le\s*=\s*"([^"]*)"/.exec(m[2]) : null;
    if (!m || !le) return { message: `${file}:${i + 1}: expected a bucket line like name_bucket{le="0.25"} 90` };
    names.add(m[1]);
    const bound = le[1] === '+Inf' ? Infinity : Number(le[1]);
    const count = Number(m[3]);
    if (!(bound === Infinity || Number.isFinite(bound))) return { message: `${file}:${i + 1}: le=${quote(le[1])} is not a number of seconds` };
    if (!Number.isInteger(count) || count < 0) return { message: `${file}:${i + 1}: the count ${cut(m[3], 120)} is not a whole number of observations` };
    buckets.push({ le: bound === Infinity ? Infinity : Math.round(bound * 1e6), count });
  }
  if (names.size > 1) return { message: `${file}: buckets of ${names.size} histograms (${[...names].join(', ')}); keep one` };
  if (buckets.length === 0) return { message: `${file}: no bucket lines (name_bucket{le="0.25"} 90)` };
  return { buckets };
}

/**
 * Files read and parsed in this process, by path, the way they were written and unit, with
 * what identifies the file's content on disk (device, inode, size, modification time). A
 * sweep loads its scenario once per cell: its 2,500 cells share one array of samples
 * instead of reading the file 2,500 times and holding 2,500 copies (the arrays are only read).
 */
const parsed = new Map<string, { stamp: string; value: Partial<Distribution> }>();
const PARSED_KEPT = 16;

function stampOf(full: string): string | null {
  try {
    const s = statSync(full);
    return s.isFile() ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}` : null;
  } catch {
    return null;
  }
}

/** A file's parsed content: from the cache when the file is unchanged, else read and parsed (null: an issue was reported). */
function parsedFile(scenarioFile: string, file: string, key: string, path: ScenarioIssue['path'], issue: Issue, parse: (text: string) => Partial<Distribution> | { message: string }): Partial<Distribution> | null {
  const full = fullPath(scenarioFile, file);
  const cacheKey = `${key}\u0000${file}\u0000${full}`;
  const stamp = stampOf(full);
  const known = parsed.get(cacheKey);
  if (stamp !== null && known?.stamp === stamp) return known.value;
  const text = read(scenarioFile, file, path, issue);
  if (text === null) return null;
  const r = parse(text);
  if ('message' in r) {
    issue(path, r.message);
    return null;
  }
  if (stamp !== null) {
    parsed.set(cacheKey, { stamp, value: r });
    if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value as string);
  }
  return r;
}

/** Fills one distribution's file contents in place (a mixture's parts too). */
function fill(d: Distribution, scenarioFile: string, path: ScenarioIssue['path'], issue: Issue): void {
  if (d.kind === 'mixture') {
    for (const p of d.parts) fill(p.distribution, scenarioFile, path, issue);
    return;
  }
  if (d.kind === 'empirical') {
    const unitUs = d.unitUs;
    const r = parsedFile(scenarioFile, d.file, `empirical ${unitUs}`, path, issue, (text) => {
      const samples = parseSamples(text, d.file, unitUs);
      return 'message' in samples ? samples : { samplesUs: samples.samplesUs };
    });
    if (r !== null) Object.assign(d, r);
    return;
  }
  if (d.kind === 'histogram' && d.file !== null) {
    const file = d.file;
    const r = parsedFile(scenarioFile, file, 'histogram', path, issue, (text) => {
      const lines = parseBucketLines(text, file);
      if ('message' in lines) return lines;
      const h = histogramOf(lines.buckets, file);
      return h.ok ? h.value : { message: `${file}: ${h.message}` };
    });
    if (r !== null) Object.assign(d, r);
  }
}

const isDistribution = (v: unknown): v is Distribution =>
  typeof v === 'object' && v !== null && typeof (v as { kind?: unknown }).kind === 'string' &&
  ['mixture', 'empirical', 'histogram'].includes((v as { kind: string }).kind) && ('parts' in v || 'samplesUs' in v || 'buckets' in v);

/** Walks the validated scenario data and reads every distribution file it names. */
export function readDistributionFiles(data: unknown, scenarioFile: string, issue: Issue, path: ScenarioIssue['path'] = []): void {
  if (isDistribution(data)) return fill(data, scenarioFile, path, issue);
  if (Array.isArray(data)) data.forEach((v, i) => readDistributionFiles(v, scenarioFile, issue, [...path, i]));
  else if (typeof data === 'object' && data !== null) for (const [k, v] of Object.entries(data)) readDistributionFiles(v, scenarioFile, issue, [...path, k]);
}
