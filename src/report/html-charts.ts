/**
 * The compare report's charts: a forest plot (each variant's P(oversell) and P(double holders)
 * with its 95% interval) and a safety-vs-throughput scatter (one point per variant: orders/s
 * against P(oversell), the interval as a bar). Labels are placed so that none overlaps another
 * and nothing is cut at the edges.
 */
import type { VariantSummary } from '../sweep/compare-variants.js';
import type { Interval } from '../sweep/stats.js';
import { escapeHtml, variantColour } from './html-svg.js';
import { textWidth } from './svg-layout.js';

const ROW = 24;
const FONT = 12;
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const interval = (i: Interval): string => `${pct(i.estimate)} [${pct(i.low)}, ${pct(i.high)}]`;

/** Two panels side by side, one row per variant: the estimate as a square, the interval as a line. */
export function forestPlotSvg(variants: readonly VariantSummary[]): string {
  const labelW = Math.max(80, ...variants.map((v) => textWidth(v.variant, FONT))) + 16;
  const panelW = 360;
  const gap = 40;
  const width = Math.ceil(labelW + 2 * panelW + gap + 20);
  const top = 34;
  const height = top + variants.length * ROW + 34;
  const panels: Array<{ title: string; of: (v: VariantSummary) => Interval }> = [
    { title: 'P(oversell)', of: (v) => v.oversell },
    { title: 'P(double holders)', of: (v) => v.doubleHolders },
  ];
  const parts: string[] = [];
  variants.forEach((v, j) => {
    const y = top + j * ROW + ROW / 2;
    parts.push(`<text class="lane" x="${labelW - 8}" y="${y + 4}" text-anchor="end">${escapeHtml(v.variant)}</text>`);
  });
  panels.forEach((p, k) => {
    const x0 = labelW + k * (panelW + gap);
    const x = (share: number): number => x0 + share * panelW;
    parts.push(`<text class="lane" x="${x0 + panelW / 2}" y="16" text-anchor="middle" font-weight="600">${escapeHtml(p.title)}, 95% interval</text>`);
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      const xx = x(t).toFixed(1);
      parts.push(`<line class="grid" x1="${xx}" x2="${xx}" y1="${top}" y2="${top + variants.length * ROW}"/><text class="tick" x="${xx}" y="${top + variants.length * ROW + 16}" text-anchor="${t === 0 ? 'start' : t === 1 ? 'end' : 'middle'}">${t * 100}%</text>`);
    }
    variants.forEach((v, j) => {
      const i = p.of(v);
      const y = top + j * ROW + ROW / 2;
      const colour = variantColour(j);
      const title = `<title>${escapeHtml(`${v.variant}: ${p.title} ${interval(i)} over ${v.runs} runs`)}</title>`;
      parts.push(`<line x1="${x(i.low).toFixed(1)}" x2="${x(i.high).toFixed(1)}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="2.5">${title}</line>`);
      parts.push(`<rect class="estimate" x="${(x(i.estimate) - 5).toFixed(1)}" y="${y - 5}" width="10" height="10" fill="${colour}" stroke="#222" stroke-width="0.8">${title}</rect>`);
    });
  });
  return `<svg class="forest" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="P(oversell) and P(double holders) per variant with 95% intervals">${parts.join('')}</svg>`;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * One point per variant: mean orders/s across, P(oversell) up, its interval as a vertical bar.
 * Each label sits beside its point (right, or left near the right edge), moved down a line
 * at a time until it touches no other label and no point: variants that coincide (a lock
 * with and without a guard often sell as much) stay readable.
 */
export function scatterSvg(variants: readonly VariantSummary[]): string {
  const width = 960;
  const left = 60;
  const right = 20;
  const top = 30;
  const plotH = 300;
  const bottom = 46;
  const height = top + plotH + bottom;
  const plotW = width - left - right;
  // Across: the variants' range with a margin (throughputs often differ by a few percent,
  // which a scale from 0 would hide); the ticks say where it starts.
  const lo = Math.min(...variants.map((v) => v.throughputMean));
  const hi = Math.max(...variants.map((v) => v.throughputMean));
  const margin = hi > lo ? (hi - lo) * 0.15 : Math.max(hi * 0.1, 0.01);
  const minX = Math.max(0, lo - margin);
  const maxX = hi + margin;
  const x = (t: number): number => left + ((t - minX) / (maxX - minX)) * plotW;
  const y = (share: number): number => top + plotH - share * plotH;
  const parts: string[] = [];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"/><text class="tick" x="${left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${t * 100}%</text>`);
  }
  for (let k = 0; k <= 4; k++) {
    const t = minX + ((maxX - minX) * k) / 4;
    parts.push(`<line class="grid" x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${top}" y2="${top + plotH}"/><text class="tick" x="${x(t).toFixed(1)}" y="${top + plotH + 16}" text-anchor="${k === 0 ? 'start' : k === 4 ? 'end' : 'middle'}">${t.toFixed(t < 10 ? 2 : 1)}</text>`);
  }
  parts.push(`<text class="tick" x="${left + plotW / 2}" y="${height - 6}" text-anchor="middle">orders/s (mean per run): throughput</text>`);
  parts.push(`<text class="tick" x="${left - 40}" y="12">P(oversell), lower is safer</text>`);
  // A point on top of earlier ones is drawn as a ring around them, so none is hidden.
  const radius = variants.map((v, j) => 5 + 3.5 * variants.slice(0, j).filter((o) => Math.abs(x(o.throughputMean) - x(v.throughputMean)) < 4 && Math.abs(y(o.oversell.estimate) - y(v.oversell.estimate)) < 4).length);
  const points: Box[] = variants.map((v, j) => ({ x: x(v.throughputMean) - radius[j], y: y(v.oversell.estimate) - radius[j], w: 2 * radius[j], h: 2 * radius[j] }));
  const placed: Box[] = [];
  variants.forEach((v, j) => {
    const px = x(v.throughputMean);
    const py = y(v.oversell.estimate);
    const colour = variantColour(j);
    const title = `<title>${escapeHtml(`${v.variant}: ${v.throughputMean.toFixed(2)} orders/s, P(oversell) ${interval(v.oversell)}`)}</title>`;
    parts.push(`<line x1="${px.toFixed(1)}" x2="${px.toFixed(1)}" y1="${y(v.oversell.low).toFixed(1)}" y2="${y(v.oversell.high).toFixed(1)}" stroke="${colour}" stroke-width="2">${title}</line>`);
    parts.push(
      radius[j] === 5
        ? `<circle class="point" cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="5" fill="${colour}" stroke="#222" stroke-width="0.8">${title}</circle>`
        : `<circle class="point" cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="${radius[j]}" fill="none" stroke="${colour}" stroke-width="2.5">${title}</circle>`,
    );
    const w = textWidth(v.variant, FONT);
    // Clear of the widest ring drawn at this point.
    const clear = Math.max(...radius.filter((_, k) => Math.abs(x(variants[k].throughputMean) - px) < 4 && Math.abs(y(variants[k].oversell.estimate) - py) < 4)) + 4;
    const onRight = px + clear + w <= width - right;
    const at = (dy: number): Box => ({ x: onRight ? px + clear : px - clear - w, y: py - 8 + dy, w, h: 15 });
    const inside = (b: Box): boolean => b.y >= 16 && b.y + b.h <= top + plotH + 4;
    const free = (b: Box): boolean => inside(b) && !placed.some((o) => overlaps(o, b)) && !points.some((p) => overlaps(p, b));
    // Beside the point, else a line lower, a line higher, two lines lower, ... until it touches nothing.
    const offsets = Array.from({ length: 2 * variants.length + 2 }, (_, n) => (n % 2 === 0 ? 1 : -1) * Math.ceil(n / 2) * 15);
    const box = offsets.map(at).find(free) ?? at(0);
    placed.push(box);
    parts.push(`<text class="lane" x="${box.x.toFixed(1)}" y="${(box.y + 11).toFixed(1)}">${escapeHtml(v.variant)}</text>`);
  });
  return `<svg class="scatter" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="P(oversell) against orders/s, one point per variant">${parts.join('')}</svg>`;
}
