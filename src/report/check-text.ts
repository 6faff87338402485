/** The human report of `check`: one line per expectation, and how to replay each failure. */
import type { ChalkInstance } from 'chalk';
import { formatMetric } from '../checker/metric-names.js';
import type { CheckedExpectation, ScenarioCheck } from '../sweep/check-scenario.js';

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

/** What an implicit expectation is, after its text. */
export const IMPLICIT_NOTE = 'implicit: every variant checked must keep working once the faults are over';
export const IMPLICIT_HINT = 'expect live, stalled, unavailable, failed-share or longest-stall of the variant to say what it should do';
/** The line of a scenario with no expectations. */
export const noExpectations = (c: ScenarioCheck): string =>
  c.passed ? 'no expectations (passed: --pass-with-no-expectations)' : 'no expectations: nothing was checked (add an expect: block, or pass --pass-with-no-expectations)';

/** Expectations judged, failed, and implicit, and the scenarios that failed. */
function checkCounts(checks: readonly ScenarioCheck[]): { total: number; failed: number; implicit: number; failedScenarios: number; empty: number } {
  const all = checks.flatMap((c) => c.expectations);
  return {
    total: all.length,
    failed: all.filter((e) => !e.passed).length,
    implicit: all.filter((e) => e.implicit).length,
    failedScenarios: checks.filter((c) => !c.passed).length,
    empty: checks.filter((c) => c.empty && !c.passed).length,
  };
}

/** The last line: how many held or failed. */
export function checkSummary(checks: readonly ScenarioCheck[]): string {
  const n = checkCounts(checks);
  const empty = n.empty > 0 ? `; ${n.empty} scenario${n.empty === 1 ? ' has' : 's have'} no expectations` : '';
  if (n.failedScenarios === 0) return `${n.total} expectations held in ${checks.length} scenarios${n.implicit > 0 ? ` (${n.implicit} of them the implicit live == 1)` : ''}`;
  return `${n.failed} of ${n.total} expectations failed in ${n.failedScenarios} of ${checks.length} scenarios${n.implicit > 0 ? ` (${n.implicit} of the ${n.total} the implicit live == 1)` : ''}${empty}`;
}

export function renderCheck(checks: readonly ScenarioCheck[], color: ChalkInstance): string {
  const out: string[] = [];
  for (const c of checks) {
    out.push(`${color.bold(c.scenario.file)}  ${c.seeds === 1 ? `seed ${c.seedsLabel}` : `${c.seeds} seeds (${c.seedsLabel})`}`);
    if (c.empty) out.push(`  ${c.passed ? color.green('pass') : color.red('FAIL')}  ${noExpectations(c)}`);
    for (const e of c.expectations) {
      const mark = e.passed ? color.green('pass') : color.red('FAIL');
      const text = e.implicit ? `${e.expectation.text} (${e.passed ? 'implicit' : `${IMPLICIT_NOTE}; ${IMPLICIT_HINT}`})` : e.expectation.text;
      out.push(`  ${mark}  ${e.expectation.variant}: ${text}  (${describe(e)})${e.passed ? '' : `  at ${e.expectation.location}`}`);
      if (e.replay) out.push(`        replay: ${e.replay}`);
    }
  }
  out.push('');
  const summary = checkSummary(checks);
  out.push(checks.every((c) => c.passed) ? color.green(summary) : color.red(summary));
  return out.join('\n');
}
