/** The human report of `lock-sim run`: a verdict table, the expectations, and stories. */
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { tellStory } from '../checker/story.js';
import { formatMicros } from '../engine/time.js';
import type { ScenarioResult } from '../runner/run-scenario.js';
import { formatMetric } from '../scenario/metrics.js';
import { focusViolation } from '../checker/violations.js';
import { flashSaleRunLine } from './flash-sale-text.js';
import { brokenInvariants, VERDICT_LEGEND, verdictOf, type Verdict } from './verdict.js';

const PAINT: Record<Verdict, (c: ChalkInstance) => ChalkInstance> = {
  SAFE: (c) => c.green,
  DEGRADED: (c) => c.cyan,
  LEAKY: (c) => c.yellow,
  UNSAFE: (c) => c.red,
};

export function renderRun(result: ScenarioResult, color: ChalkInstance): string {
  const s = result.scenario;
  const out: string[] = [];
  out.push(color.bold(`${s.name}`) + `  seed ${result.seed}, ${formatMicros(s.durationUs)} simulated${s.description ? `\n${s.description}` : ''}`);
  out.push('');
  const table = new Table({
    head: ['variant', 'verdict', 'oversold', 'double holders', 'lock lost', 'stuck / orphan', 'orders', 'orders/s', 'p99'],
    style: { head: [], border: [] },
    colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  });
  for (const run of result.runs) {
    const m = run.metrics;
    const verdict = verdictOf(m);
    const paint = PAINT[verdict](color);
    table.push([
      `${run.variant.name}\n${color.dim(`${run.variant.lock}${run.variant.guard !== 'none' ? ` + ${run.variant.guard}` : ''}`)}`,
      paint(verdict),
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
  out.push(color.dim(VERDICT_LEGEND));

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
