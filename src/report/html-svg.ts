/** SVG pieces of the HTML report: the timeline and the oversold chart. Every text is escaped. */
import { formatMicros } from '../engine/time.js';
import type { VariantSummary } from '../sweep/compare-variants.js';
import { flowLegend, labelRows, textWidth } from './svg-layout.js';
import { letterFor, type Span, type TimelineModel } from './timeline-model.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const HUES = [200, 30, 130, 280, 350, 60, 170, 240, 0, 100];
/** A holder's colour from its label (A, B, ..., AA, AB, ...): neighbours in the legend differ. */
const holderColour = (label: string): string => {
  const n = [...label].reduce((acc, c) => acc * 26 + (c.charCodeAt(0) - 64), 0) - 1;
  return `hsl(${HUES[n % HUES.length]}, 65%, ${n >= HUES.length ? 42 : 55}%)`;
};
/**
 * Waiting first, the holder's bar over it, so no waiting bar ever covers a holder; a pause or
 * a crash last but as a thin band along the lane's foot, so the holder stays visible above it.
 */
const CLIENT_DRAW_ORDER = { waiting: 0, holding: 1, paused: 2, crashed: 3 } as const;
/** Whose label wins where two would touch: the holder's. */
const CLIENT_LABEL_RANK = { waiting: 0, paused: 1, crashed: 2, holding: 3 } as const;

const WIDTH = 960;
const LABEL = 150;
const LANE = 24;

export function timelineSvg(m: TimelineModel): string {
  const plot = WIDTH - LABEL - 10;
  const x = (t: number): number => LABEL + ((t - m.fromUs) / (m.toUs - m.fromUs)) * plot;
  const rows: string[] = [];
  const lanes: Array<{ label: string; draw: (y: number) => string }> = [];
  interface Bar {
    span: Span<string>;
    fill: string;
    text: string;
    dashed?: boolean;
    /** A band along the lane's foot, drawn over what is under it without hiding it. */
    foot?: boolean;
    /** Labels of higher rank are placed first; a label that would touch one placed before is left out. */
    rank: number;
  }
  /**
   * A lane's bars in the order given (later ones drawn over earlier ones), then their labels,
   * highest rank first, each only where it fits inside its bar and touches no other label.
   */
  const drawBars = (bars: readonly Bar[], y: number): string => {
    const rects = bars.map(({ span: s, fill, dashed, foot }) => {
      const x0 = x(s.fromUs);
      const w = Math.max(1, x(s.toUs) - x0);
      return `<rect x="${x0.toFixed(1)}" y="${foot ? y + LANE - 8 : y + 3}" width="${w.toFixed(1)}" height="${foot ? 5 : LANE - 6}" fill="${fill}"${dashed ? ' stroke="#222" stroke-dasharray="4 2"' : ''}><title>${escapeHtml(`${s.state}${s.holder ? ` ${s.holder}` : ''}: ${formatMicros(Math.round(s.fromUs))} - ${formatMicros(Math.round(s.toUs))}`)}</title></rect>`;
    });
    const taken: Array<[number, number]> = [];
    const labels: string[] = [];
    for (const b of [...bars].sort((a, c) => c.rank - a.rank)) {
      if (!b.text) continue;
      const x0 = x(b.span.fromUs);
      const w = Math.max(1, x(b.span.toUs) - x0);
      const tw = textWidth(b.text, 11);
      const cx = x0 + w / 2;
      const from = cx - tw / 2 - 2;
      const to = cx + tw / 2 + 2;
      if (w < tw + 4 || taken.some(([a, c]) => from < c && a < to)) continue;
      taken.push([from, to]);
      labels.push(`<text x="${cx.toFixed(1)}" y="${y + 16}" text-anchor="middle" class="holder">${escapeHtml(b.text)}</text>`);
    }
    return rects.join('') + labels.join('');
  };
  for (const lane of m.clients) {
    lanes.push({
      label: lane.label,
      draw: (y) =>
        drawBars(
          [...lane.spans]
            .sort((a, b) => CLIENT_DRAW_ORDER[a.state] - CLIENT_DRAW_ORDER[b.state] || a.fromUs - b.fromUs)
            .map((s): Bar => {
              if (s.state === 'holding') {
                const l = letterFor(m, s.holder);
                return { span: s, fill: holderColour(l), text: l, rank: CLIENT_LABEL_RANK.holding };
              }
              const fill = s.state === 'waiting' ? '#d9d9d9' : s.state === 'paused' ? '#f2c94c' : '#8b0000';
              const over = s.state !== 'waiting' && lane.spans.some((h) => h.state === 'holding' && h.fromUs < s.toUs && s.fromUs < h.toUs);
              return { span: s, fill, text: s.state === 'paused' ? 'GC' : s.state === 'crashed' ? 'killed' : '', rank: CLIENT_LABEL_RANK[s.state], foot: over };
            }),
          y,
        ),
    });
  }
  lanes.push({
    label: 'two holders',
    draw: (y) => drawBars(m.overlaps.map((o) => ({ span: { fromUs: Math.max(o.fromUs, m.fromUs), toUs: Math.min(o.toUs, m.toUs), state: `${o.holders} holders` }, fill: '#e02424', text: '!', rank: 1 })), y),
  });
  for (const lane of m.nodes) {
    lanes.push({
      label: lane.label,
      draw: (y) =>
        drawBars(
          lane.spans.map((s): Bar => {
            if (s.state === 'down' || s.state === 'asleep') return { span: s, fill: s.state === 'down' ? '#555' : '#f2c94c', text: s.state, rank: 1 };
            const l = letterFor(m, s.holder);
            return { span: s, fill: holderColour(l), text: s.state === 'held-no-ttl' ? `${l} (no TTL)` : l, dashed: s.state === 'held-no-ttl', rank: 2 };
          }),
          y,
        ),
    });
  }
  // Fault windows: shaded bands across every lane, each labelled above the lanes; labels that
  // would touch go to rows of their own, so none overlaps another however close the faults.
  const windows = m.faults.filter((f) => f.toUs > f.fromUs);
  const faultText = (f: (typeof windows)[number]): string => `${f.fault} ${f.target}`;
  // A label that would run past the right edge ends at the edge instead.
  const labelX = windows.map((f) => Math.min(x(Math.max(f.fromUs, m.fromUs)) + 2, WIDTH - 4 - textWidth(faultText(f), 11)));
  const rowsOf = labelRows(windows.map((f, i) => ({ x: labelX[i], width: textWidth(faultText(f), 11) })));
  const labelLines = windows.length === 0 ? 0 : Math.max(...rowsOf) + 1;
  const top = 16 + labelLines * 14;
  const bands = windows.map((f, i) => {
    const x0 = x(Math.max(f.fromUs, m.fromUs));
    const w = Math.max(1, x(Math.min(f.toUs, m.toUs)) - x0);
    const lx = labelX[i];
    return `<rect class="fault" x="${x0.toFixed(1)}" y="${top}" width="${w.toFixed(1)}" height="${lanes.length * LANE}"><title>${escapeHtml(`${f.fault} ${f.target}: ${f.detail}`)}</title></rect><text class="faultlabel" x="${lx.toFixed(1)}" y="${12 + rowsOf[i] * 14}">${escapeHtml(faultText(f))}</text>`;
  });
  // Instantaneous events: numbered lines; numbers of events close together go to rows below
  // one another instead of printing over each other.
  const instants = m.faults.filter((f) => f.toUs === f.fromUs);
  const numberRows = labelRows(instants.map((f, n) => ({ x: x(f.fromUs) - textWidth(String(n + 1), 11) / 2, width: textWidth(String(n + 1), 11) })), 3);
  const numberLines = instants.length === 0 ? 0 : Math.max(...numberRows) + 1;
  const events = instants.map((f, n) => {
    const xx = x(f.fromUs).toFixed(1);
    return `<line class="event" x1="${xx}" x2="${xx}" y1="${top}" y2="${top + lanes.length * LANE}"><title>${escapeHtml(`${formatMicros(f.fromUs)} ${f.fault}: ${f.detail}`)}</title></line><text class="eventlabel" x="${xx}" y="${top + lanes.length * LANE + 14 + numberRows[n] * 13}" text-anchor="middle">${n + 1}</text>`;
  });
  // Room under the lanes for the event numbers' rows, then the time axis.
  const height = top + lanes.length * LANE + 6 + numberLines * 13 + 20;
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
  const left = 50;
  const bottom = 40;
  const legendH = legendHeight(variants.map((v) => v.variant), width - left - 20);
  const plotTop = legendH + 12;
  const height = plotTop + 240 + bottom;
  const plotW = width - left - 20;
  const plotH = height - bottom - plotTop;
  const groupW = plotW / Math.max(1, buckets);
  const barW = Math.max(2, (groupW - 6) / Math.max(1, variants.length));
  const bars: string[] = [];
  variants.forEach((v, j) => {
    const colour = variantColour(j);
    v.oversoldHistogram.forEach((n, k) => {
      const share = v.runs > 0 ? n / v.runs : 0;
      const h = share * plotH;
      const xx = left + k * groupW + 3 + j * barW;
      bars.push(`<rect x="${xx.toFixed(1)}" y="${(plotTop + plotH - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${colour}"><title>${escapeHtml(`${v.variant}: ${n} of ${v.runs} runs oversold ${k === buckets - 1 ? `${k} or more` : k}`)}</title></rect>`);
    });
  });
  const labels = Array.from({ length: buckets }, (_, k) => `<text class="tick" x="${(left + k * groupW + groupW / 2).toFixed(1)}" y="${height - bottom + 16}" text-anchor="middle">${k === buckets - 1 ? `${k}+` : k}</text>`);
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((p) => `<text class="tick" x="${left - 6}" y="${(plotTop + plotH - p * plotH + 4).toFixed(1)}" text-anchor="end">${p * 100}%</text><line class="grid" x1="${left}" x2="${width - 20}" y1="${(plotTop + plotH - p * plotH).toFixed(1)}" y2="${(plotTop + plotH - p * plotH).toFixed(1)}"/>`);
  const legend = legendSvg(variants.map((v) => v.variant), left, 6, width - left - 20);
  return `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="share of runs by units oversold">${yTicks.join('')}${bars.join('')}${labels.join('')}${legend}<text class="tick" x="${left + plotW / 2}" y="${height - 4}" text-anchor="middle">units oversold in a run</text></svg>`;
}

const LEGEND_FONT = 12;
const LEGEND_LINE = 18;

/** The variants' colour key, wrapped onto as many lines as the width needs (never cut). */
function legendSvg(names: readonly string[], left: number, top: number, widthPx: number): string {
  return flowLegend(names, widthPx, LEGEND_FONT)
    .map((p, j) => {
      const x0 = left + p.x;
      const y0 = top + p.line * LEGEND_LINE;
      return `<rect x="${x0.toFixed(1)}" y="${y0}" width="12" height="12" fill="${variantColour(j)}"/><text class="lane" x="${(x0 + 16).toFixed(1)}" y="${y0 + 10}">${escapeHtml(names[j])}</text>`;
    })
    .join('');
}

function legendHeight(names: readonly string[], widthPx: number): number {
  const lines = names.length === 0 ? 0 : Math.max(...flowLegend(names, widthPx, LEGEND_FONT).map((p) => p.line)) + 1;
  return lines * LEGEND_LINE;
}

export const variantColour = (j: number): string => `hsl(${HUES[j % HUES.length]}, 65%, ${j >= HUES.length ? 38 : 50}%)`;
