/** The human report of `check`: one line per expectation, and how to replay each failure. */
import type { ChalkInstance } from 'chalk';
import { formatMetric } from '../scenario/metrics.js';
import type { CheckedExpectation, ScenarioCheck } from '../sweep/check.js';

export function formatMeasured(e: CheckedExpectation): string {
  const x = e.expectation;
  return x.statistic === 'p' ? String(e.measured) : formatMetric(x.metric, e.measured);
}

function describe(e: CheckedExpectation): string {
  if (e.detail !== undefined) return e.detail;
  const x = e.expectation;
  if (x.statistic === 'run') {
    if (e.runs === 1) return `measured ${formatMeasured(e)}`;
    return e.passed ? `held in all ${e.runs} runs` : `measured ${formatMeasured(e)}; failed in ${e.failedRuns} of ${e.runs} runs`;
  }
  return `measured ${formatMeasured(e)} over ${e.runs} runs`;
}

export function renderCheck(checks: readonly ScenarioCheck[], color: ChalkInstance): string {
  const out: string[] = [];
  let total = 0;
  let failed = 0;
  for (const c of checks) {
    out.push(`${color.bold(c.scenario.file)}  ${c.seeds === 1 ? `seed ${c.seedsLabel}` : `${c.seeds} seeds (${c.seedsLabel})`}`);
    for (const e of c.expectations) {
      total++;
      if (!e.passed) failed++;
      const mark = e.passed ? color.green('pass') : color.red('FAIL');
      out.push(`  ${mark}  ${e.expectation.variant}: ${e.expectation.text}  (${describe(e)})${e.passed ? '' : `  at ${e.expectation.location}`}`);
      if (e.replay) out.push(`        replay: ${e.replay}`);
    }
  }
  out.push('');
  out.push(
    failed === 0
      ? color.green(`${total} expectations held in ${checks.length} scenarios`)
      : color.red(`${failed} of ${total} expectations failed in ${checks.filter((c) => !c.passed).length} of ${checks.length} scenarios`),
  );
  return out.join('\n');
}
