/**
 * The HTML report of `sweep`: one self-contained file (inline CSS and SVG, no scripts). One
 * parameter: per metric, a line per variant over the parameter's values, with the 95% band
 * of the probabilities. Two parameters: per metric and variant, a heatmap of the grid. The
 * metrics: P(oversell), P(double holders), stuck and orphan time, orders/s. Every name from
 * the scenario or the command line is escaped.
 */
import { formatMicros } from '../engine/time.js';
import type { VariantSummary } from '../sweep/compare-variants.js';
import { summariseCells, type CellSummary, type SweepAxis, type SweepResult } from '../sweep/sweep-grid.js';
import { VERSION } from '../version.js';
import { escapeHtml } from './html-svg.js';

interface PlotMetric {
  title: string;
  /** The value, and its 95% interval where the tally has one. */
  read(v: VariantSummary): { estimate: number; low?: number; high?: number };
  format(x: number): string;
  probability: boolean;
  /** The top of the scale when every value is 0 (a second for times, so the axis reads 0s..1s). */
  emptyTop: number;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

const METRICS: PlotMetric[] = [
  { title: 'P(oversell)', read: (v) => v.oversell, format: pct, probability: true, emptyTop: 1 },
  { title: 'P(double holders)', read: (v) => v.doubleHolders, format: pct, probability: true, emptyTop: 1 },
  { title: 'stuck lock time per run (mean)', read: (v) => ({ estimate: v.stuckMeanUs }), format: (x) => formatMicros(Math.round(x)), probability: false, emptyTop: 1_000_000 },
  { title: 'orphaned lock time per run (mean)', read: (v) => ({ estimate: v.orphanMeanUs }), format: (x) => formatMicros(Math.round(x)), probability: false, emptyTop: 1_000_000 },
  { title: 'orders/s (mean)', read: (v) => ({ estimate: v.throughputMean }), format: (x) => x.toFixed(2), probability: false, emptyTop: 1 },
];

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1000px; color: #1a1a1a; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; margin-top: 28px; } h3 { font-size: 15px; }
.meta { color: #555; } code { font-size: 12px; }
svg text { font: 11px system-ui, sans-serif; } svg .axis { stroke: #999; } svg .grid { stroke: #e5e5e5; }
svg .cell text { font-size: 11px; }`;

const HUES = [210, 20, 130, 280, 350, 60, 170, 240, 0, 100];
const colourOf = (i: number): string => `hsl(${HUES[i % HUES.length]}, 65%, 45%)`;

/** The top of a y axis: 100% for probabilities, else the largest value (or 1), rounded up. */
function yMax(metric: PlotMetric, values: number[]): number {
  if (metric.probability) return 1;
  const max = Math.max(0, ...values);
  if (max <= 0) return metric.emptyTop;
  const step = Math.pow(10, Math.floor(Math.log10(max)));
  return Math.ceil(max / step) * step;
}

const W = 720;
const H = 260;
const LEFT = 70;
const RIGHT = 160;
const TOP = 12;
const BOTTOM = 44;

function lineChart(axis: SweepAxis, cells: CellSummary[], variants: readonly string[], metric: PlotMetric): string {
  const plotW = W - LEFT - RIGHT;
  const plotH = H - TOP - BOTTOM;
  const n = axis.labels.length;
  const x = (i: number): number => LEFT + (n === 1 ? plotW / 2 : (i / (n - 1)) * plotW);
  const all = cells.flatMap((c) => c.variants.map((v) => metric.read(v).high ?? metric.read(v).estimate));
  const top = yMax(metric, all);
  const y = (v: number): number => TOP + plotH - (Math.min(v, top) / top) * plotH;
  const parts: string[] = [];
  for (let k = 0; k <= 4; k++) {
    const v = (top * k) / 4;
    parts.push(`<line class="grid" x1="${LEFT}" x2="${LEFT + plotW}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/><text x="${LEFT - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${escapeHtml(metric.format(v))}</text>`);
  }
  axis.labels.forEach((label, i) => {
    parts.push(`<text x="${x(i).toFixed(1)}" y="${TOP + plotH + 16}" text-anchor="middle">${escapeHtml(label)}</text>`);
  });
  parts.push(`<text x="${LEFT + plotW / 2}" y="${H - 6}" text-anchor="middle">${escapeHtml(axis.path)}</text>`);
  variants.forEach((variant, vi) => {
    const colour = colourOf(vi);
    const points = cells.map((c) => ({ i: c.at[0], r: metric.read(c.variants[vi]) }));
    if (points.every((p) => p.r.low !== undefined && p.r.high !== undefined)) {
      const upper = points.map((p) => `${x(p.i).toFixed(1)},${y(p.r.high as number).toFixed(1)}`);
      const lower = points.map((p) => `${x(p.i).toFixed(1)},${y(p.r.low as number).toFixed(1)}`).reverse();
      parts.push(`<polygon points="${[...upper, ...lower].join(' ')}" fill="${colour}" fill-opacity="0.15" stroke="none"><title>${escapeHtml(`${variant}: 95% interval`)}</title></polygon>`);
    }
    parts.push(`<polyline points="${points.map((p) => `${x(p.i).toFixed(1)},${y(p.r.estimate).toFixed(1)}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    for (const p of points) {
      const interval = p.r.low !== undefined ? ` [${metric.format(p.r.low)}, ${metric.format(p.r.high as number)}]` : '';
      parts.push(`<circle cx="${x(p.i).toFixed(1)}" cy="${y(p.r.estimate).toFixed(1)}" r="3" fill="${colour}"><title>${escapeHtml(`${variant}, ${axis.path}=${axis.labels[p.i]}: ${metric.format(p.r.estimate)}${interval}`)}</title></circle>`);
    }
    parts.push(`<rect x="${W - RIGHT + 12}" y="${TOP + vi * 18}" width="12" height="12" fill="${colour}"/><text x="${W - RIGHT + 30}" y="${TOP + vi * 18 + 10}">${escapeHtml(variant)}</text>`);
  });
  parts.push(`<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${TOP + plotH}"/><line class="axis" x1="${LEFT}" x2="${LEFT + plotW}" y1="${TOP + plotH}" y2="${TOP + plotH}"/>`);
  const height = Math.max(H, TOP + variants.length * 18 + 10);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" role="img" aria-label="${escapeHtml(metric.title)}">${parts.join('')}</svg>`;
}

/** White (0) to red (the top of the scale) for what is bad; white to green for orders/s. */
function heat(fraction: number, good: boolean): string {
  const f = Math.max(0, Math.min(1, fraction));
  return good ? `hsl(140, 55%, ${(97 - f * 55).toFixed(0)}%)` : `hsl(5, 75%, ${(97 - f * 52).toFixed(0)}%)`;
}

function heatmap(rows: SweepAxis, cols: SweepAxis, cells: CellSummary[], vi: number, metric: PlotMetric): string {
  const cellW = Math.max(56, Math.min(90, Math.floor(640 / cols.labels.length)));
  const cellH = 26;
  const left = 90;
  const top = 40;
  const values = cells.map((c) => metric.read(c.variants[vi]).estimate);
  const scale = yMax(metric, values);
  const width = Math.max(left + cols.labels.length * cellW + 10, 8 + 6 * (rows.path.length + cols.path.length + 8));
  const height = top + rows.labels.length * cellH + 10;
  const parts: string[] = [];
  parts.push(`<text x="4" y="12">${escapeHtml(rows.path)} &#8595; by ${escapeHtml(cols.path)} &#8594;</text>`);
  cols.labels.forEach((l, j) => parts.push(`<text x="${left + j * cellW + cellW / 2}" y="${top - 6}" text-anchor="middle">${escapeHtml(l)}</text>`));
  rows.labels.forEach((l, i) => parts.push(`<text x="${left - 6}" y="${top + i * cellH + 17}" text-anchor="end">${escapeHtml(l)}</text>`));
  for (const c of cells) {
    const r = metric.read(c.variants[vi]);
    const [i, j] = c.at;
    const fill = heat(r.estimate / scale, metric.title.startsWith('orders'));
    const interval = r.low !== undefined ? ` [${metric.format(r.low)}, ${metric.format(r.high as number)}]` : '';
    parts.push(
      `<g class="cell"><rect x="${left + j * cellW}" y="${top + i * cellH}" width="${cellW - 1}" height="${cellH - 1}" fill="${fill}"><title>${escapeHtml(`${rows.path}=${rows.labels[i]}, ${cols.path}=${cols.labels[j]}: ${metric.format(r.estimate)}${interval}`)}</title></rect>` +
        `<text x="${left + j * cellW + cellW / 2}" y="${top + i * cellH + 17}" text-anchor="middle">${escapeHtml(metric.format(r.estimate))}</text></g>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(metric.title)}">${parts.join('')}</svg>`;
}

/** `note`: a paragraph under the title (what a --find search found, for the cells it ran). */
export function renderSweepHtml(result: SweepResult, note?: string): string {
  const cells = summariseCells(result);
  const runs = cells[0]?.variants[0]?.runs ?? 0;
  const parts: string[] = [];
  parts.push(`<h1>${escapeHtml(result.scenario.name)}: sweep</h1>`);
  if (note !== undefined) parts.push(`<p>${escapeHtml(note)}</p>`);
  parts.push(
    `<p class="meta">${escapeHtml(result.scenario.file)} &middot; ${escapeHtml(result.axes.map((a) => `${a.path} (${a.labels.join(', ')})`).join(' x '))} &middot; seeds ${escapeHtml(result.seeds.label)} (${runs} runs per variant and cell, the same seeds in every cell) &middot; lock-sim ${VERSION}</p>`,
  );
  const [rows, cols] = result.axes;
  for (const metric of METRICS) {
    parts.push(`<h2>${escapeHtml(metric.title)}</h2>`);
    if (cols === undefined) {
      parts.push(lineChart(rows, cells, result.variants, metric));
      if (metric.probability) parts.push('<p class="meta">Shaded: the Wilson 95% interval of each point.</p>');
      continue;
    }
    result.variants.forEach((variant, vi) => {
      parts.push(`<h3>${escapeHtml(variant)}</h3>`);
      parts.push(heatmap(rows, cols, cells, vi, metric));
    });
  }
  const worst = cells.flatMap((c) => c.variants.filter((v) => v.worst && (v.worst.oversold > 0 || v.worst.doubleHolders > 0)).map((v) => ({ c, v })));
  if (worst.length > 0) {
    parts.push('<h2>Worst run of each cell that failed</h2><ul>');
    for (const { v } of worst) parts.push(`<li><code>${escapeHtml(v.worst?.replay ?? '')}</code></li>`);
    parts.push('</ul>');
  }
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="lock-sim ${VERSION}">
<title>${escapeHtml(`lock-sim sweep: ${result.scenario.name}`)}</title>
<style>${STYLE}</style>
</head>
<body>
${parts.join('\n')}
</body>
</html>
`;
}
