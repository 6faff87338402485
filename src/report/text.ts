/** The human report of `lock-sim run`: a verdict table, the expectations, and stories. */
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { tellStory } from '../checker/story.js';
import { formatMicros } from '../engine/time.js';
import type { ScenarioResult } from '../runner/scenario-result.js';
import { formatMetric } from '../checker/metric-names.js';
import { focusViolation } from '../checker/violations.js';
import { failureLines } from './failures-text.js';
import { flashSaleRunLine } from './flash-sale-text.js';
import { brokenInvariants, livenessOf, PAINT, safetyOf, VERDICT_LEGEND, verdictOf } from './verdict-paint.js';

/** What the table's time columns measure, under it. */
export const RUN_TIMES_LEGEND =
  'stuck / orphan: time summed over lock keys, up to the end of the drain (so it can exceed the time simulated). p99: over every answered request, whatever its outcome.';

export function renderRun(result: ScenarioResult, color: ChalkInstance): string {
  const s = result.scenario;
  const out: string[] = [];
  out.push(color.bold(`${s.name}`) + `  seed ${result.seed}, ${formatMicros(s.durationUs)} simulated${s.description ? `\n${s.description}` : ''}`);
  out.push('');
  const table = new Table({
    head: ['variant', 'verdict', 'oversold', 'double holders', 'lock lost', 'stuck / orphan\n(sum of keys)', 'orders', 'orders/s', 'p99 of all\nanswers'],
    style: { head: [], border: [] },
    colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  });
  for (const run of result.runs) {
    const m = run.metrics;
    const verdict = verdictOf(m);
    const paint = PAINT[verdict](color);
    // A run that broke safety and stopped working too: both classes.
    const live = livenessOf(m);
    const also = verdict === safetyOf(m) && live !== 'LIVE' ? `\n${PAINT[live](color)(live)}` : '';
    table.push([
      `${run.variant.name}\n${color.dim(`${run.variant.lock}${run.variant.guard !== 'none' ? ` + ${run.variant.guard}` : ''}`)}`,
      paint(verdict) + also,
      String(m.oversold),
      m.doubleHolders === 0 ? '0' : `${m.doubleHolders} (${formatMicros(m.doubleHolderUs)})`,
      String(m.lockLost),
      `${formatMicros(m.stuckLockUs)} / ${formatMicros(m.orphanLockUs)}`,
      String(m.orders),
      m.throughputPerS.toFixed(2),
      formatMicros(m.latencyP99Us),
    ]);
  }
  out.push(table.toString());
  for (const run of result.runs) {
    const also = notableCounts(run.metrics);
    if (also.length > 0) out.push(`  ${run.variant.name}: ${also.join(', ')}`);
  }
  for (const run of result.runs) out.push(color.dim(`  ${run.variant.name}: ${flashSaleRunLine(run.metrics)}`));
  for (const run of result.runs) {
    const l = run.metrics.liveness;
    if (l.cause !== null) out.push(`  ${run.variant.name}: ${PAINT[l.verdict as 'STALLED' | 'UNAVAILABLE'](color)(l.verdict)}: ${l.cause}`);
  }
  out.push(color.dim(VERDICT_LEGEND));
  out.push(color.dim(RUN_TIMES_LEGEND));
  const failures = result.runs.flatMap((run) => failureLines(run.variant.name, run.failures));
  if (failures.length > 0) out.push('', color.bold('failed requests and diagnostics') + color.dim(' (by first error text, most frequent first)'), ...failures);

  for (const run of result.runs) {
    // The story of two holders explains most; else the first violation.
    const focus = focusViolation(run.violations);
    if (!focus) continue;
    const story = tellStory(focus, run.history);
    const first = run.violations[0];
    const title = focus === first ? `first violation (${focus.kind}` : `two holders (first violation: ${first.kind} at ${formatMicros(first.timeUs)}`;
    out.push('');
    out.push(color.bold(`${run.variant.name}: ${title}; broken: ${brokenInvariants(run.metrics).join(', ')})`));
    out.push(`  ${story.headline}`);
    for (const line of story.lines) {
      out.push(`  ${formatMicros(line.timeUs).padStart(9)}  ${line.who.padEnd(16)} ${line.what}`);
    }
  }

  const sweeps = s.expectations.filter((e) => e.statistic !== 'run').length;
  if (sweeps > 0) {
    out.push('');
    out.push(color.dim(`${sweeps} expectation(s) about many seeds (p, mean, max, min) are judged by lock-sim check, not on one run`));
  }
  if (result.expectations.length > 0) {
    out.push('');
    out.push(color.bold('expectations'));
    for (const e of result.expectations) {
      const x = e.expectation;
      const mark = e.passed ? color.green('pass') : color.red('FAIL');
      const measured = formatMetric(x.metric, e.measured);
      out.push(`  ${mark}  ${x.variant}: ${x.text}  (measured ${measured})${e.passed ? '' : `  at ${x.location}`}`);
    }
    const failed = result.expectations.filter((e) => !e.passed).length;
    out.push(failed === 0 ? color.green(`all ${result.expectations.length} expectations held`) : color.red(`${failed} of ${result.expectations.length} expectations failed`));
  }
  return out.join('\n');
}

/** Counts the table has no column for, listed when they are not zero. */
export function notableCounts(m: ScenarioResult['runs'][number]['metrics']): string[] {
  const items: Array<[string, number]> = [
    ['lost updates', m.lostUpdates],
    ['lost units', m.lostUnits],
    ['negative stock', m.negativeStock],
    ['foreign unlocks', m.foreignUnlocks],
    ['duplicate orders', m.duplicateOrders],
    ['duplicates refused by the unique key', m.outcomes.duplicate],
    ['stale fencing tokens', m.staleTokens],
    ['fence rejections', m.fenceRejections],
    ['CAS conflicts', m.casConflicts],
    ['gave up after CAS retries', m.outcomes.conflict],
    ['lock busy', m.outcomes['lock-busy']],
    ['lock errors', m.outcomes['lock-error']],
    ['overloaded', m.outcomes.overloaded],
    ['command timeouts', m.timeouts],
  ];
  return items.filter(([, n]) => n > 0).map(([what, n]) => `${what} ${n}`);
}
