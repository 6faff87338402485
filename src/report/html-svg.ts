/** SVG pieces of the HTML report: the timeline and the oversold chart. Every text is escaped. */
import { formatMicros } from '../engine/time.js';
import type { VariantSummary } from '../sweep/compare.js';
import { letterFor, type Span, type TimelineModel } from './timeline-model.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const HUES = [200, 30, 130, 280, 350, 60, 170, 240, 0, 100];
const holderColour = (letter: string): string => `hsl(${HUES[(letter.charCodeAt(0) - 65) % HUES.length]}, 65%, 55%)`;

const WIDTH = 960;
const LABEL = 150;
const LANE = 24;

export function timelineSvg(m: TimelineModel): string {
  const plot = WIDTH - LABEL - 10;
  const x = (t: number): number => LABEL + ((t - m.fromUs) / (m.toUs - m.fromUs)) * plot;
  const rows: string[] = [];
  const lanes: Array<{ label: string; draw: (y: number) => string }> = [];
  const spanRect = (s: Span<string>, y: number, fill: string, text: string, dashed = false): string => {
    const x0 = x(s.fromUs);
    const w = Math.max(1, x(s.toUs) - x0);
    const label = text && w > 14 ? `<text x="${(x0 + w / 2).toFixed(1)}" y="${y + 16}" text-anchor="middle" class="holder">${escapeHtml(text)}</text>` : '';
    return `<rect x="${x0.toFixed(1)}" y="${y + 3}" width="${w.toFixed(1)}" height="${LANE - 6}" fill="${fill}"${dashed ? ' stroke="#222" stroke-dasharray="4 2"' : ''}><title>${escapeHtml(`${s.state}${s.holder ? ` ${s.holder}` : ''}: ${formatMicros(Math.round(s.fromUs))} - ${formatMicros(Math.round(s.toUs))}`)}</title></rect>${label}`;
  };
  for (const lane of m.clients) {
    lanes.push({
      label: lane.label,
      draw: (y) =>
        lane.spans
          .map((s) => {
            if (s.state === 'holding') {
              const l = letterFor(m, s.holder);
              return spanRect(s, y, holderColour(l), l);
            }
            return spanRect(s, y, s.state === 'waiting' ? '#d9d9d9' : s.state === 'paused' ? '#f2c94c' : '#8b0000', s.state === 'paused' ? 'GC' : s.state === 'crashed' ? 'killed' : '');
          })
          .join(''),
    });
  }
  lanes.push({
    label: 'two holders',
    draw: (y) => m.overlaps.map((o) => spanRect({ fromUs: Math.max(o.fromUs, m.fromUs), toUs: Math.min(o.toUs, m.toUs), state: `${o.holders} holders` }, y, '#e02424', '!')).join(''),
  });
  for (const lane of m.nodes) {
    lanes.push({
      label: lane.label,
      draw: (y) =>
        lane.spans
          .map((s) => {
            if (s.state === 'down' || s.state === 'asleep') return spanRect(s, y, s.state === 'down' ? '#555' : '#f2c94c', s.state);
            const l = letterFor(m, s.holder);
            return spanRect(s, y, holderColour(l), s.state === 'held-no-ttl' ? `${l} (no TTL)` : l, s.state === 'held-no-ttl');
          })
          .join(''),
    });
  }
  const top = 30;
  const height = top + lanes.length * LANE + 40;
  // Fault windows: shaded bands across every lane; instantaneous events: numbered lines.
  const bands = m.faults
    .filter((f) => f.toUs > f.fromUs)
    .map((f) => {
      const x0 = x(Math.max(f.fromUs, m.fromUs));
      const w = Math.max(1, x(Math.min(f.toUs, m.toUs)) - x0);
      return `<rect class="fault" x="${x0.toFixed(1)}" y="${top}" width="${w.toFixed(1)}" height="${lanes.length * LANE}"><title>${escapeHtml(`${f.fault} ${f.target}: ${f.detail}`)}</title></rect><text class="faultlabel" x="${(x0 + 2).toFixed(1)}" y="${top - 4}">${escapeHtml(`${f.fault} ${f.target}`)}</text>`;
    });
  const events = m.faults
    .filter((f) => f.toUs === f.fromUs)
    .map((f, n) => {
      const xx = x(f.fromUs).toFixed(1);
      return `<line class="event" x1="${xx}" x2="${xx}" y1="${top}" y2="${top + lanes.length * LANE}"><title>${escapeHtml(`${formatMicros(f.fromUs)} ${f.fault}: ${f.detail}`)}</title></line><text class="eventlabel" x="${xx}" y="${top + lanes.length * LANE + 14}" text-anchor="middle">${n + 1}</text>`;
    });
  lanes.forEach((lane, i) => {
    const y = top + i * LANE;
    rows.push(`<text class="lane" x="4" y="${y + 16}">${escapeHtml(lane.label)}</text><line class="grid" x1="${LABEL}" x2="${WIDTH - 10}" y1="${y + LANE}" y2="${y + LANE}"/>${lane.draw(y)}`);
  });
  const ticks = Array.from({ length: 6 }, (_, k) => {
    const t = m.fromUs + ((m.toUs - m.fromUs) * k) / 5;
    const xx = x(t).toFixed(1);
    const anchor = k === 0 ? 'start' : k === 5 ? 'end' : 'middle';
    return `<line class="grid" x1="${xx}" x2="${xx}" y1="${top}" y2="${top + lanes.length * LANE}"/><text class="tick" x="${xx}" y="${height - 8}" text-anchor="${anchor}">${escapeHtml(formatMicros(Math.round(t)))}</text>`;
  });
  return `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${escapeHtml(`timeline of ${m.key}`)}">${bands.join('')}${ticks.join('')}${rows.join('')}${events.join('')}</svg>`;
}

/** Share of runs by units oversold, a group of bars per bucket, a bar per variant. */
export function oversoldChartSvg(variants: readonly VariantSummary[]): string {
  const buckets = variants[0]?.oversoldHistogram.length ?? 0;
  const width = 960;
  const height = 300;
  const left = 50;
  const bottom = 40;
  const plotW = width - left - 20;
  const plotH = height - bottom - 30;
  const groupW = plotW / Math.max(1, buckets);
  const barW = Math.max(2, (groupW - 6) / Math.max(1, variants.length));
  const bars: string[] = [];
  variants.forEach((v, j) => {
    const colour = `hsl(${HUES[j % HUES.length]}, 65%, 50%)`;
    v.oversoldHistogram.forEach((n, k) => {
      const share = v.runs > 0 ? n / v.runs : 0;
      const h = share * plotH;
      const xx = left + k * groupW + 3 + j * barW;
      bars.push(`<rect x="${xx.toFixed(1)}" y="${(30 + plotH - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${colour}"><title>${escapeHtml(`${v.variant}: ${n} of ${v.runs} runs oversold ${k === buckets - 1 ? `${k} or more` : k}`)}</title></rect>`);
    });
  });
  const labels = Array.from({ length: buckets }, (_, k) => `<text class="tick" x="${(left + k * groupW + groupW / 2).toFixed(1)}" y="${height - bottom + 16}" text-anchor="middle">${k === buckets - 1 ? `${k}+` : k}</text>`);
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((p) => `<text class="tick" x="${left - 6}" y="${(30 + plotH - p * plotH + 4).toFixed(1)}" text-anchor="end">${p * 100}%</text><line class="grid" x1="${left}" x2="${width - 20}" y1="${(30 + plotH - p * plotH).toFixed(1)}" y2="${(30 + plotH - p * plotH).toFixed(1)}"/>`);
  const legend = variants.map((v, j) => `<rect x="${left + j * 170}" y="6" width="12" height="12" fill="hsl(${HUES[j % HUES.length]}, 65%, 50%)"/><text class="lane" x="${left + j * 170 + 16}" y="16">${escapeHtml(v.variant)}</text>`);
  return `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="share of runs by units oversold">${yTicks.join('')}${bars.join('')}${labels.join('')}${legend.join('')}<text class="tick" x="${left + plotW / 2}" y="${height - 4}" text-anchor="middle">units oversold in a run</text></svg>`;
}
