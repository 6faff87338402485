/**
 * The timeline in a terminal: 80 columns, one character per time cell, readable without
 * colour (letters for holders, - waiting, ~ paused or asleep, x crashed or down, ! two or
 * more holders); colour only adds emphasis.
 */
import type { ChalkInstance } from 'chalk';
import { formatMicros } from '../engine/time.js';
import { letterFor, type Lane, type TimelineModel } from './timeline-model.js';

export const TIMELINE_WIDTH = 80;
const LABEL = 14;
const CELLS = TIMELINE_WIDTH - LABEL - 2;
const MAX_FAULT_LANES = 5;

const CLIENT_RANK = { crashed: 4, paused: 3, holding: 2, waiting: 1 } as const;
const NODE_RANK = { down: 4, asleep: 3, held: 2, 'held-no-ttl': 2 } as const;

function cellBounds(m: TimelineModel, i: number): [number, number] {
  const w = (m.toUs - m.fromUs) / CELLS;
  return [m.fromUs + i * w, m.fromUs + (i + 1) * w];
}

/**
 * One character per cell: the highest-ranked span in it. A holder's label of two letters
 * (the 27th holder on: AA, AB, ...) is spelled across its cells ("ABABAB").
 */
function laneCells<S extends string>(m: TimelineModel, lane: Lane<S>, rank: Record<S, number>, label: (s: Lane<S>['spans'][number]) => string): string[] {
  const cells: string[] = [];
  for (let i = 0; i < CELLS; i++) {
    const [a, b] = cellBounds(m, i);
    let best: Lane<S>['spans'][number] | null = null;
    for (const s of lane.spans) {
      if (s.toUs <= a || s.fromUs >= b) continue;
      if (best === null || rank[s.state] > rank[best.state]) best = s;
    }
    const text = best === null ? '.' : label(best);
    cells.push(text[i % text.length]);
  }
  return cells;
}

const pad = (text: string, n: number): string => (text.length > n ? `${text.slice(0, n - 1)}~` : text.padEnd(n));

function axis(m: TimelineModel): string[] {
  const ticks = 4;
  const labels = Array<string>(CELLS).fill(' ');
  const marks = Array<string>(CELLS).fill(' ');
  for (let k = 0; k <= ticks; k++) {
    const i = Math.min(CELLS - 1, Math.round((k * (CELLS - 1)) / ticks));
    marks[i] = '|';
    const text = formatMicros(Math.round(m.fromUs + ((m.toUs - m.fromUs) * i) / CELLS));
    const start = Math.max(0, Math.min(CELLS - text.length, k === ticks ? i - text.length + 1 : i));
    for (let j = 0; j < text.length; j++) labels[start + j] = text[j];
  }
  return [`${' '.repeat(LABEL)}  ${labels.join('')}`, `${' '.repeat(LABEL)}  ${marks.join('')}`];
}

export function renderTimeline(m: TimelineModel, color: ChalkInstance): string {
  const out: string[] = [];
  out.push(pad(`timeline of ${m.key}, ${formatMicros(Math.round(m.fromUs))} to ${formatMicros(Math.round(m.toUs))}`, TIMELINE_WIDTH).trimEnd());
  out.push(...axis(m));
  const paint = (cells: string[]): string =>
    cells
      .map((c) => (c === '!' ? color.red.bold(c) : c === '~' ? color.yellow(c) : c === 'x' ? color.red(c) : /[A-Z]/.test(c) ? color.cyan(c) : c))
      .join('');
  const row = (label: string, cells: string[]): void => {
    out.push(`${pad(label, LABEL)}  ${paint(cells)}`);
  };
  for (const lane of m.clients) {
    row(lane.label, laneCells(m, lane, CLIENT_RANK, (s) => (s.state === 'holding' ? letterFor(m, s.holder) : s.state === 'waiting' ? '-' : s.state === 'paused' ? '~' : 'x')));
  }
  const overlap = Array.from({ length: CELLS }, (_, i) => {
    const [a, b] = cellBounds(m, i);
    return m.overlaps.some((o) => o.toUs > a && o.fromUs < b) ? '!' : ' ';
  });
  row('two holders', overlap);
  for (const lane of m.nodes) {
    row(lane.label, laneCells(m, lane, NODE_RANK, (s) => {
      if (s.state === 'down') return 'x';
      if (s.state === 'asleep') return '~';
      const letter = letterFor(m, s.holder);
      return s.state === 'held-no-ttl' ? letter.toLowerCase() : letter;
    }));
  }
  const windows = m.faults.filter((f) => f.toUs > f.fromUs).slice(0, MAX_FAULT_LANES);
  for (const f of windows) {
    const cells = Array.from({ length: CELLS }, (_, i) => {
      const [a, b] = cellBounds(m, i);
      return f.toUs > a && f.fromUs < b ? '=' : ' ';
    });
    out.push(`${pad(f.fault, LABEL)}  ${color.magenta(cells.join(''))}`);
  }
  const events = m.faults.filter((f) => f.toUs === f.fromUs);
  if (events.length > 0) {
    const cells = Array<string>(CELLS).fill(' ');
    events.forEach((e, n) => {
      const i = Math.min(CELLS - 1, Math.max(0, Math.floor(((e.fromUs - m.fromUs) / (m.toUs - m.fromUs)) * CELLS)));
      cells[i] = n < 9 ? String(n + 1) : '|';
    });
    out.push(`${pad('events', LABEL)}  ${color.magenta(cells.join(''))}`);
  }
  out.push(...wrap(`holders: ${m.legend.map((l) => `${l.letter} ${l.request}${l.thread ? ` (${l.thread})` : ''}`).join(', ') || 'none'}`));
  out.push(...wrap('key: letter = holds the lock (on a node: holds the key; lowercase: no TTL), - waiting, ~ paused / asleep, x crashed / down, ! two or more holders'));
  events.slice(0, 9).forEach((e, n) => out.push(pad(`  ${n + 1} ${formatMicros(e.fromUs)} ${e.fault}: ${e.detail}`, TIMELINE_WIDTH).trimEnd()));
  return out.join('\n');
}

function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > TIMELINE_WIDTH) {
      lines.push(line);
      line = `  ${word}`;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
