/**
 * Distributions read from files, `empirical(latency.csv)` and `histogram(latency.prom)`: the
 * schema keeps the file name, and the loader reads each file here, relative to the scenario
 * file, so a run (and every worker thread) holds the samples and never reads a file itself.
 * Each problem (no file, an empty one, a line that is not a sample, buckets that decrease)
 * is an issue at the field that names the file, with the file's own line.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Distribution } from '../engine/distribution.js';
import type { ScenarioIssue } from './errors.js';
import { histogramOf, parseDuration } from './values.js';

/** Samples in one file: a million lines is a week of requests at 2/s, more than any run draws from. */
export const MAX_EMPIRICAL_SAMPLES = 1_000_000;

type Issue = (path: ScenarioIssue['path'], message: string) => void;

function read(scenarioFile: string, file: string, path: ScenarioIssue['path'], issue: Issue): string | null {
  const full = isAbsolute(file) ? file : join(dirname(scenarioFile), file);
  try {
    return readFileSync(full, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    issue(path, `${file}: ${code === 'ENOENT' ? `no such file (read relative to the scenario file, at ${full})` : `cannot read (${code ?? String(err)})`}`);
    return null;
  }
}

/** One sample per line: a duration with a unit, or a bare number in `unitUs`; blank lines and # comments skipped. */
export function parseSamples(text: string, file: string, unitUs: number | null): { samplesUs: number[] } | { message: string } {
  const samplesUs: number[] = [];
  const lines = text.split(/\r?\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    if (/^\d+(\.\d+)?$/.test(line)) {
      if (unitUs === null) return { message: `${file}:${i + 1}: "${line}" has no unit: write 200ms, or name the unit of bare numbers, empirical(${file}, ms)` };
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
export function parseBucketLines(text: string, file: string): { buckets: Array<{ le: number; count: number }> } | { message: string } {
  const buckets: Array<{ le: number; count: number }> = [];
  const names = new Set<string>();
  const lines = text.split(/\r?\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#') || !/_bucket\s*\{/.test(line)) continue;
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)_bucket\s*\{(.*)\}\s+(\S+)(\s+\S+)?$/.exec(line);
    const le = m ? /(?:^|,)\s*le\s*=\s*"([^"]*)"/.exec(m[2]) : null;
    if (!m || !le) return { message: `${file}:${i + 1}: expected a bucket line like name_bucket{le="0.25"} 90` };
    names.add(m[1]);
    const bound = le[1] === '+Inf' ? Infinity : Number(le[1]);
    const count = Number(m[3]);
    if (!(bound === Infinity || Number.isFinite(bound))) return { message: `${file}:${i + 1}: le="${le[1]}" is not a number of seconds` };
    if (!Number.isInteger(count) || count < 0) return { message: `${file}:${i + 1}: the count ${m[3]} is not a whole number of observations` };
    buckets.push({ le: bound === Infinity ? Infinity : Math.round(bound * 1e6), count });
  }
  if (names.size > 1) return { message: `${file}: buckets of ${names.size} histograms (${[...names].join(', ')}); keep one` };
  if (buckets.length === 0) return { message: `${file}: no bucket lines (name_bucket{le="0.25"} 90)` };
  return { buckets };
}

/** Fills one distribution's file contents in place (a mixture's parts too). */
function fill(d: Distribution, scenarioFile: string, path: ScenarioIssue['path'], issue: Issue): void {
  if (d.kind === 'mixture') {
    for (const p of d.parts) fill(p.distribution, scenarioFile, path, issue);
    return;
  }
  if (d.kind === 'empirical') {
    const text = read(scenarioFile, d.file, path, issue);
    if (text === null) return;
    const r = parseSamples(text, d.file, d.unitUs);
    if ('message' in r) issue(path, r.message);
    else d.samplesUs = r.samplesUs;
    return;
  }
  if (d.kind === 'histogram' && d.file !== null) {
    const file = d.file;
    const text = read(scenarioFile, file, path, issue);
    if (text === null) return;
    const r = parseBucketLines(text, file);
    if ('message' in r) return issue(path, r.message);
    const h = histogramOf(r.buckets, file);
    if (!h.ok) return issue(path, `${file}: ${h.message}`);
    Object.assign(d, h.value);
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
