/**
 * The `expect:` block -> Expectations. A key is a metric (judged on every run: `oversold: 0`)
 * or a statistic over the runs of a sweep (judged on the seeds of `check` and `compare`):
 * `p(oversold > 0): "<= 0.01"`, `mean(oversold)`, `max(stuck-time)`, `min(sold)`.
 * The value is a number or a comparison, or a list of them for a range.
 */
import { quote, type ScenarioIssue } from '../spec/errors.js';
import { metricByName, METRIC_NAMES, type MetricDefinition } from '../checker/metric-names.js';
import type { RawScenario } from './schema.js';
import { didYouMean } from './suggest.js';
import type { Expectation, ExploreDefaults, ExploreExpectation, MetricCondition, Statistic } from '../spec/expectations.js';
import { parseComparison, type Parsed } from './value-parsers.js';

const SWEEP_KEY = /^\s*(p|mean|max|min)\s*\(\s*([a-z0-9-]+)\s*(?:(==|!=|<=|>=|<|>)\s*(.+?))?\s*\)\s*$/;

type Key = { statistic: Statistic; def: MetricDefinition; condition: Expectation['condition'] } | { error: string };

function parseKey(key: string): Key {
  const sweep = SWEEP_KEY.exec(key);
  const metricName = sweep ? sweep[2] : key;
  const def = metricByName.get(metricName);
  if (!def) return { error: `unknown metric ${quote(metricName)}${didYouMean(metricName, METRIC_NAMES)}; metrics are ${METRIC_NAMES.join(', ')}` };
  if (!sweep) {
    if (/[()]/.test(key)) return { error: `expected p(metric <op> value), mean(metric), max(metric) or min(metric), found ${quote(key)}` };
    return { statistic: 'run', def, condition: null };
  }
  const statistic = sweep[1] as Statistic;
  if (statistic !== 'p') {
    if (sweep[3]) return { error: `${statistic}(...) takes a metric only, found ${quote(key)}` };
    return { statistic, def, condition: null };
  }
  if (!sweep[3]) return { error: `p(...) needs a condition, e.g. p(${metricName} > 0)` };
  const c = parseComparison(`${sweep[3]} ${sweep[4]}`, def.isTime);
  if (!c.ok) return { error: `in ${quote(key)}: ${c.message}` };
  return { statistic, def, condition: c.value };
}

export function resolveExpectations(
  raw: RawScenario['expect'],
  variantNames: readonly string[],
  issue: (path: ScenarioIssue['path'], message: string) => void,
): Expectation[] {
  const expectations: Expectation[] = [];
  for (const [variant, checks] of Object.entries(raw ?? {})) {
    if (!variantNames.includes(variant)) {
      issue(['expect', variant], `no variant named ${quote(variant)}${didYouMean(variant, variantNames)}; variants are ${variantNames.join(', ')}`);
      continue;
    }
    for (const [key, written] of Object.entries(checks)) {
      if (key === 'explore') continue; // resolveExploreExpectations
      if (typeof written === 'object' && !Array.isArray(written)) {
        issue(['expect', variant, key], `a mapping is only for explore: { violations: ... }; ${key} takes a number, a comparison or a list of them`);
        continue;
      }
      const parsed = parseKey(key);
      if ('error' in parsed) {
        issue(['expect', variant, key], parsed.error);
        continue;
      }
      const list = Array.isArray(written) ? written : [written];
      list.forEach((one, i) => {
        // A probability is a plain number; mean/max/min and single runs are in the metric's unit.
        const c = parseComparison(one, parsed.statistic !== 'p' && parsed.def.isTime);
        if (!c.ok) {
          issue(Array.isArray(written) ? ['expect', variant, key, i] : ['expect', variant, key], c.message);
          return;
        }
        if (parsed.statistic === 'p' && (c.value.value < 0 || c.value.value > 1)) {
          issue(['expect', variant, key], `a probability is between 0 and 1, found ${c.value.value}`);
          return;
        }
        const label = key.replace(/\s+/g, ' ').trim();
        expectations.push({
          variant,
          metric: parsed.def.name,
          statistic: parsed.statistic,
          condition: parsed.condition,
          ...c.value,
          text: `${label} ${typeof one === 'number' ? `== ${one}` : one}`,
          written: one,
          key,
          location: '',
        });
      });
    }
  }
  return expectations;
}

/** "metric <op> value", the value in the metric's unit: "stuck-time > 10s". */
export function parseMetricCondition(text: string): Parsed<MetricCondition> {
  const m = /^\s*([a-z0-9-]+)\s*(==|!=|<=|>=|<|>)\s*(.+?)\s*$/.exec(text);
  if (!m) return { ok: false, message: `expected "metric <op> value", e.g. "stuck-time > 10s", found "${text}"` };
  const def = metricByName.get(m[1]);
  if (!def) return { ok: false, message: `unknown metric "${m[1]}"${didYouMean(m[1], METRIC_NAMES)}; metrics are ${METRIC_NAMES.join(', ')}` };
  const c = parseComparison(`${m[2]} ${m[3]}`, def.isTime);
  if (!c.ok) return { ok: false, message: `in "${text}": ${c.message}` };
  return { ok: true, value: { metric: def.name, ...c.value, text: `${def.name} ${m[2]} ${m[3]}` } };
}

function conditionsOf(written: string | string[], path: Array<string | number>, issue: (path: ScenarioIssue['path'], message: string) => void): MetricCondition[] {
  const list = Array.isArray(written) ? written : [written];
  const out: MetricCondition[] = [];
  list.forEach((text, i) => {
    const c = parseMetricCondition(text);
    if (c.ok) out.push(c.value);
    else issue(Array.isArray(written) ? [...path, i] : path, c.message);
  });
  return out;
}

/** The top-level `explore:` block. */
export function resolveExploreDefaults(raw: RawScenario['explore'], issue: (path: ScenarioIssue['path'], message: string) => void): ExploreDefaults | undefined {
  if (raw === undefined) return undefined;
  return { faults: raw.faults ?? null, budget: raw.budget ?? null, violation: raw.violation === undefined ? [] : conditionsOf(raw.violation, ['explore', 'violation'], issue) };
}

/** The `explore:` entries of `expect:`. */
export function resolveExploreExpectations(
  raw: RawScenario['expect'],
  variantNames: readonly string[],
  issue: (path: ScenarioIssue['path'], message: string) => void,
): ExploreExpectation[] {
  const out: ExploreExpectation[] = [];
  for (const [variant, checks] of Object.entries(raw ?? {})) {
    const e = checks.explore;
    if (e === undefined || !variantNames.includes(variant)) continue;
    const c = parseComparison(e.violations, false);
    if (!c.ok) {
      issue(['expect', variant, 'explore', 'violations'], c.message);
      continue;
    }
    const violation = e.violation === undefined ? null : conditionsOf(e.violation, ['expect', variant, 'explore', 'violation'], issue);
    const written = { ...(e.faults === undefined ? {} : { faults: e.faults }), ...(e.budget === undefined ? {} : { budget: e.budget }), ...(e.violation === undefined ? {} : { violation: e.violation }), violations: e.violations };
    const text = `explore violations ${typeof e.violations === 'number' ? `== ${e.violations}` : e.violations.trim()}`;
    out.push({ variant, faults: e.faults ?? null, budget: e.budget ?? null, violation, ...c.value, text, written, location: '' });
  }
  return out;
}
