/**
 * The human report of `compare` and `merge`: one table, the worst runs, paired differences,
 * as text (fits 120 columns with the default columns, variant names up to 20 characters and
 * seeds below 10 million)
 * or as Markdown (pull-request comments, CI job summaries).
 */
import type { ChalkInstance } from 'chalk';
import { formatMicros } from '../engine/time.js';
import type { CompareSummary, VariantSummary } from '../sweep/compare-variants.js';
import type { Interval } from '../sweep/stats.js';
import { flashSaleCompareLine, flashSaleCompareParts } from './flash-sale-text.js';
import { markdownCell, renderMarkdownTable, renderTextTable, selectColumns, type Column } from './columns.js';

const percent = (x: number): string => (x * 100).toFixed(1);
/** A mean with two decimals, or none from 100 on (a column that fits "0.25" and "12346"). */
const compact = (x: number): string => (Math.abs(x) >= 100 ? Math.round(x).toString() : x.toFixed(2));
/** "83.0 [74.5, 89.1]": percent, with the Wilson interval. */
const probability = (i: Interval): string => `${percent(i.estimate)} [${percent(i.low)}, ${percent(i.high)}]`;
const signed = (x: number, digits: number): string => `${x > 0 ? '+' : ''}${x.toFixed(digits)}`;
/** "+0.42 [+0.10, +0.74]", or in percentage points: a paired difference with its interval. */
export const difference = (i: Interval, digits: number, asPercent = false): string =>
  asPercent
    ? `${signed(i.estimate * 100, 1)} pp [${signed(i.low * 100, 1)}, ${signed(i.high * 100, 1)}]`
    : `${signed(i.estimate, digits)} [${signed(i.low, digits)}, ${signed(i.high, digits)}]`;

/** Whether a variant's worst run broke anything: only then is it worth naming (and replaying). */
export const failedWorst = (v: VariantSummary): boolean => v.worst !== null && (v.worst.oversold > 0 || v.worst.doubleHolders > 0);

/**
 * The columns of the compare table, in order; `compare --columns` picks among them by id.
 * New metrics append a column here; one that would take the default table past 120
 * characters is marked `extra: true` (shown only when --columns names it).
 */
export const COMPARE_COLUMNS: readonly Column<VariantSummary>[] = [
  { id: 'variant', head: 'variant', align: 'left', cell: (v) => v.variant },
  { id: 'verdict', head: 'worst verdict\n(its runs)', align: 'left', cell: (v) => `${v.worstVerdict} (${v.verdicts[v.worstVerdict]})` },
  { id: 'oversell', head: 'P(oversell) %\n[95% CI]', align: 'right', cell: (v) => probability(v.oversell) },
  { id: 'oversold', head: 'oversold\nmean/max', align: 'right', cell: (v) => `${v.oversoldMean.toFixed(2)}/${v.oversoldMax}` },
  { id: 'double-holders', head: 'P(2 holders) %\n[95% CI]', align: 'right', cell: (v) => probability(v.doubleHolders) },
  { id: 'lost-updates', head: 'lost upd/\nunits mean', align: 'right', cell: (v) => `${compact(v.lostUpdates.mean)}/${compact(v.lostUpdates.unitsMean)}` },
  { id: 'orders-per-s', head: 'orders/s\nmean', align: 'right', cell: (v) => v.throughputMean.toFixed(2) },
  // The worst runs are listed under the table with their seeds and replay commands.
  { id: 'worst-seed', head: 'worst\nseed', align: 'right', cell: (v) => (failedWorst(v) ? String(v.worst?.seed) : '-'), extra: true },
  { id: 'stuck-orphan', head: 'stuck/orphan mean\n(sum of keys)', align: 'right', cell: (v) => `${formatMicros(v.stuckMeanUs)}/${formatMicros(v.orphanMeanUs)}`, extra: true },
  { id: 'p99', head: 'p99 of all\nanswers, mean', align: 'right', cell: (v) => formatMicros(v.p99MeanUs), extra: true },
  { id: 'liveness', head: 'live/stalled/\nunavailable', align: 'right', cell: (v) => `${v.liveness.runs.LIVE}/${v.liveness.runs.STALLED}/${v.liveness.runs.UNAVAILABLE}`, extra: true },
  { id: 'failed-share', head: 'failed share\nmean %', align: 'right', cell: (v) => percent(v.liveness.failedShareMean), extra: true },
  { id: 'longest-stall', head: 'longest stall\nmean', align: 'right', cell: (v) => formatMicros(v.liveness.longestStallMeanUs), extra: true },
];

export const COMPARE_COLUMN_IDS = COMPARE_COLUMNS.map((c) => c.id);

const LEGEND =
  'Intervals: Wilson 95% for probabilities. Worst verdict: SAFE < DEGRADED < STALLED < UNAVAILABLE < LEAKY < UNSAFE.\n' +
  'The worst run has the most oversold units, then double holders; it is named only when it broke something.\n' +
  '--columns also shows worst-seed, stuck-orphan (time summed over lock keys, drain included), p99 (of every\n' +
  'answered request), liveness, failed-share and longest-stall.';

/** How many runs had each verdict (the ones that had any, the worst first), and the liveness figures. */
function verdictParts(v: VariantSummary): [string, string] {
  const classes = (counts: Record<string, number>): string =>
    Object.entries(counts)
      .filter(([, n]) => n > 0)
      .reverse()
      .map(([c, n]) => `${c} ${n}`)
      .join(', ');
  const l = v.liveness;
  return [classes(v.verdicts), `liveness ${classes(l.runs)}; failed ${percent(l.failedShareMean)}% of judged requests, longest stall ${formatMicros(l.longestStallMeanUs)} (means)`];
}

export const verdictLine = (v: VariantSummary): string => verdictParts(v).join('; ');

export function renderCompare(s: CompareSummary, color: ChalkInstance, columns?: readonly string[]): string {
  const out: string[] = [];
  out.push(`${color.bold(s.scenario)}  seeds ${s.seeds} (${s.runsPerVariant} runs per variant), ${s.file}`);
  out.push('');
  out.push(renderTextTable(selectColumns(COMPARE_COLUMNS, columns), s.variants));
  out.push(color.dim(LEGEND));
  out.push('');
  out.push(color.bold('verdicts') + color.dim(' (runs per class, the worst first; liveness apart: a broken safety verdict hides it)'));
  // Two lines per variant, so the block fits 120 columns like the table.
  for (const v of s.variants) {
    const [verdicts, liveness] = verdictParts(v);
    out.push(`  ${v.variant}: ${verdicts}`, `    ${liveness}`);
  }
  out.push('');
  out.push(color.bold('flash sale') + color.dim(' (means per run)'));
  // Two lines per variant, so the block fits 120 columns like the table.
  for (const v of s.variants) {
    const [soldOut, arrivals, p99] = flashSaleCompareParts(v);
    out.push(`  ${v.variant}: ${soldOut}; ${arrivals}`, `    ${p99}`);
  }
  const worst = s.variants.filter(failedWorst);
  if (worst.length > 0) {
    out.push('');
    out.push(color.bold('worst runs'));
    for (const v of worst) {
      const w = v.worst as NonNullable<typeof v.worst>;
      out.push(`  ${v.variant}: seed ${w.seed} (oversold ${w.oversold}, double holders ${w.doubleHolders})`, `    ${w.replay}`);
    }
  }
  if (s.paired.length > 0) {
    out.push('');
    out.push(color.bold(`paired differences against ${s.paired[0].baseline}`) + color.dim(' (same seeds; mean per run [95% CI])'));
    for (const p of s.paired) {
      out.push(`  ${p.variant}: oversold ${difference(p.oversold, 2)}, P(oversell) ${difference(p.oversell, 1, true)}, orders/s ${difference(p.throughput, 2)}`);
    }
  }
  return out.join('\n');
}

export function renderCompareMarkdown(s: CompareSummary, columns?: readonly string[]): string {
  const out: string[] = [];
  out.push(`### ${markdownCell(s.scenario)}: seeds ${s.seeds} (${s.runsPerVariant} runs per variant)`);
  out.push('');
  out.push(renderMarkdownTable(selectColumns(COMPARE_COLUMNS, columns), s.variants));
  out.push('');
  out.push(`_${LEGEND.replace(/\n/g, ' ')}_`);
  out.push('');
  out.push('**Verdicts** (runs per class, the worst first; liveness apart)');
  out.push('');
  for (const v of s.variants) out.push(`- ${markdownCell(v.variant)}: ${verdictLine(v)}`);
  out.push('');
  out.push('**Flash sale** (means per run)');
  out.push('');
  for (const v of s.variants) out.push(`- ${markdownCell(v.variant)}: ${flashSaleCompareLine(v)}`);
  const worst = s.variants.filter(failedWorst);
  if (worst.length > 0) {
    out.push('');
    out.push('**Worst runs**');
    out.push('');
    for (const v of worst) {
      const w = v.worst as NonNullable<typeof v.worst>;
      out.push(`- ${markdownCell(v.variant)}: seed ${w.seed} (oversold ${w.oversold}, double holders ${w.doubleHolders}): \`${w.replay}\``);
    }
  }
  if (s.paired.length > 0) {
    out.push('');
    out.push(`**Paired differences against ${markdownCell(s.paired[0].baseline)}** (same seeds; mean per run [95% CI])`);
    out.push('');
    for (const p of s.paired) {
      out.push(`- ${markdownCell(p.variant)}: oversold ${difference(p.oversold, 2)}, P(oversell) ${difference(p.oversell, 1, true)}, orders/s ${difference(p.throughput, 2)}`);
    }
  }
  return out.join('\n');
}
