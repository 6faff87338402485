/**
 * `run` and `check` as Markdown, for pull-request comments and CI job summaries
 * (`>> $GITHUB_STEP_SUMMARY`): the verdict table, the stories in code blocks, the
 * expectations. `compare`'s lives with its text form (compare-text.ts), on the same columns.
 */
import { tellStory } from '../checker/story.js';
import { focusViolation } from '../checker/violations.js';
import { formatMicros } from '../engine/time.js';
import type { RunResult } from '../runner/run.js';
import type { ScenarioResult } from '../runner/scenario-result.js';
import { formatMetric } from '../checker/metric-names.js';
import type { ScenarioCheck } from '../sweep/check-scenario.js';
import { checkSummary, formatMeasured, IMPLICIT_HINT, IMPLICIT_NOTE, noExpectations } from './check-text.js';
import { markdownCell, renderMarkdownTable, type Column } from './columns.js';
import { notableCounts } from './text.js';
import { failureLines } from './failures-text.js';
import { RUN_TIMES_LEGEND } from './text.js';
import { brokenInvariants, livenessOf, safetyOf, VERDICT_LEGEND, verdictOf } from './verdict-paint.js';

const RUN_COLUMNS: readonly Column<RunResult>[] = [
  { id: 'variant', head: 'variant', align: 'left', cell: (r) => `${r.variant.name} (${r.variant.lock}${r.variant.guard !== 'none' ? ` + ${r.variant.guard}` : ''})` },
  { id: 'verdict', head: 'verdict', align: 'left', cell: (r) => `**${verdictOf(r.metrics)}**${livenessOf(r.metrics) !== 'LIVE' && safetyOf(r.metrics) === verdictOf(r.metrics) ? `, ${livenessOf(r.metrics)}` : ''}` },
  { id: 'oversold', head: 'oversold', align: 'right', cell: (r) => String(r.metrics.oversold) },
  { id: 'double-holders', head: 'double holders', align: 'right', cell: (r) => (r.metrics.doubleHolders === 0 ? '0' : `${r.metrics.doubleHolders} (${formatMicros(r.metrics.doubleHolderUs)})`) },
  { id: 'lock-lost', head: 'lock lost', align: 'right', cell: (r) => String(r.metrics.lockLost) },
  { id: 'stuck-orphan', head: 'stuck / orphan (sum of keys)', align: 'right', cell: (r) => `${formatMicros(r.metrics.stuckLockUs)} / ${formatMicros(r.metrics.orphanLockUs)}` },
  { id: 'orders', head: 'orders', align: 'right', cell: (r) => String(r.metrics.orders) },
  { id: 'orders-per-s', head: 'orders/s', align: 'right', cell: (r) => r.metrics.throughputPerS.toFixed(2) },
  { id: 'p99', head: 'p99 of all answers', align: 'right', cell: (r) => formatMicros(r.metrics.latencyP99Us) },
];

/** A fenced block that no line of the text can close: one backtick more than the longest run inside. */
function codeBlock(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

export function renderRunMarkdown(result: ScenarioResult): string {
  const s = result.scenario;
  const out: string[] = [];
  out.push(`### ${markdownCell(s.name)}: seed ${result.seed}, ${formatMicros(s.durationUs)} simulated`);
  if (s.description) out.push('', markdownCell(s.description));
  out.push('', renderMarkdownTable(RUN_COLUMNS, result.runs), '', `_${VERDICT_LEGEND} ${RUN_TIMES_LEGEND}_`);
  const counts = result.runs.map((r) => [r.variant.name, notableCounts(r.metrics)] as const).filter(([, c]) => c.length > 0);
  if (counts.length > 0) {
    out.push('');
    for (const [name, c] of counts) out.push(`- ${markdownCell(name)}: ${c.join(', ')}`);
  }
  const causes = result.runs.filter((r) => r.metrics.liveness.cause !== null);
  if (causes.length > 0) {
    out.push('');
    for (const r of causes) out.push(`- ${markdownCell(r.variant.name)}: **${livenessOf(r.metrics)}**: ${markdownCell(r.metrics.liveness.cause ?? '')}`);
  }
  const failures = result.runs.flatMap((r) => failureLines(r.variant.name, r.failures));
  if (failures.length > 0) out.push('', '**Failed requests and diagnostics** (by first error text)', '', codeBlock(failures.join('\n')));
  for (const run of result.runs) {
    const focus = focusViolation(run.violations);
    if (!focus) continue;
    const story = tellStory(focus, run.history);
    out.push('', `<details><summary>${escapeHtml(run.variant.name)}: ${focus.kind} at ${formatMicros(focus.timeUs)}; broken: ${brokenInvariants(run.metrics).join(', ')}</summary>`, '');
    out.push(codeBlock([story.headline, ...story.lines.map((l) => `${formatMicros(l.timeUs).padStart(9)}  ${l.who.padEnd(16)} ${l.what}`)].join('\n')));
    out.push('', '</details>');
  }
  if (result.expectations.length > 0) {
    out.push('', '**Expectations**', '');
    for (const e of result.expectations) {
      const x = e.expectation;
      out.push(`- ${e.passed ? 'pass' : '**FAIL**'} ${markdownCell(x.variant)}: \`${x.text}\` (measured ${formatMetric(x.metric, e.measured)})${e.passed ? '' : ` at \`${x.location}\``}`);
    }
    const failed = result.expectations.filter((e) => !e.passed).length;
    out.push('', failed === 0 ? `All ${result.expectations.length} expectations held.` : `**${failed} of ${result.expectations.length} expectations failed.**`);
  }
  return out.join('\n');
}

export function renderCheckMarkdown(checks: readonly ScenarioCheck[]): string {
  const rows: string[] = [];
  const replays: string[] = [];
  for (const c of checks) {
    if (c.empty) rows.push(`| ${markdownCell(c.scenario.file)} | - | - | ${c.passed ? 'pass' : '**FAIL**'} | ${markdownCell(noExpectations(c))} |`);
    for (const e of c.expectations) {
      const x = e.expectation;
      const measured = e.detail !== undefined ? e.detail : x.statistic === 'run' && e.runs > 1 && !e.passed ? `${formatMeasured(e)}; failed in ${e.failedRuns} of ${e.runs} runs` : `${formatMeasured(e)}${e.runs > 1 ? ` over ${e.runs} runs` : ''}`;
      const note = e.implicit ? (e.passed ? ' (implicit)' : ` (${IMPLICIT_NOTE}; ${IMPLICIT_HINT})`) : '';
      rows.push(`| ${markdownCell(c.scenario.file)} | ${markdownCell(x.variant)} | \`${markdownCell(x.text)}\`${markdownCell(note)} | ${e.passed ? 'pass' : '**FAIL**'} | ${markdownCell(measured)} |`);
      if (e.replay) replays.push(`- \`${x.location}\`: \`${e.replay}\``);
    }
  }
  const out = [`### ${checkSummary(checks)}`, '', '| scenario | variant | expectation | result | measured |', '|---|---|---|---|---|', ...rows];
  if (replays.length > 0) out.push('', '**Replay the failures**', '', ...replays);
  return out.join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
