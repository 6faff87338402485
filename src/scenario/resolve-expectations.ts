/**
 * The `expect:` block -> Expectations. A key is a metric (judged on every run: `oversold: 0`)
 * or a statistic over the runs of a sweep (judged on the seeds of `check` and `compare`):
 * `p(oversold > 0): "<= 0.01"`, `mean(oversold)`, `max(stuck-time)`, `min(sold)`.
 * The value is a number or a comparison, or a list of them for a range.
 */
import { quote, type ScenarioIssue } from './errors.js';
import { metricByName, METRIC_NAMES, type MetricDefinition } from './metrics.js';
import type { RawScenario } from './schema.js';
import { didYouMean } from './suggest.js';
import type { Expectation, Statistic } from './types.js';
import { parseComparison } from './values.js';

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
