/** The timeline on a hand-built history: lanes, overlap, faults; 80 columns; no colour needed. */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { NewOperation } from '../../src/history/operation.js';
import { history } from '../checker/histories.js';
import { buildTimeline } from '../../src/report/timeline-model.js';
import { renderTimeline, TIMELINE_WIDTH } from '../../src/report/timeline-text.js';
import { timelineSvg } from '../../src/report/html-svg.js';

const K = 'lock:stock:1';
const S = 1_000_000;
const req = (id: string, client: string): NewOperation => ({ process: client, type: 'invoke', f: 'request', request: id, sku: 1, qty: 1 });
const acquire = (id: string, thread: string, type: 'invoke' | 'ok'): NewOperation => ({ process: thread, request: id, type, f: 'acquire', key: K, leaseMs: 2000 });
const release = (id: string, thread: string): NewOperation => ({ process: thread, request: id, type: 'invoke', f: 'release', key: K });
const keyState = (node: string, holder: string | null, expiresAtUs: number | null): NewOperation => ({
  process: node, type: 'info', f: 'key-state', node, key: K, holder, expiresAtUs, cause: holder ? 'write' : 'expire', by: holder ?? '', previousHolder: null,
});
const fault = (fault: string, phase: 'start' | 'end' | 'event', target: string, detail: string): NewOperation => ({ process: 'nemesis', type: 'info', f: 'fault', fault, phase, target, detail });

// r1 takes the lock at 1s with a 2s lease, then its client pauses 1.5s-5s; the key expires
// at 3s; r2 (client-2) waits from 2.5s and gets it at 3.2s; r1 wakes at 5s, still inside.
const ops = history([
  [0, { process: 'setup', type: 'info', f: 'setup', stock: [{ sku: 1, available: 10 }], primary: 'redis-0', lockNodes: [], quorum: 1, durationUs: 10 * S }],
  [1 * S, req('r1', 'client-1')],
  [1 * S, acquire('r1', 'client-1/w1', 'invoke')],
  [1.001 * S, keyState('redis-0', 'r1', 3 * S)],
  [1.002 * S, acquire('r1', 'client-1/w1', 'ok')],
  [1.5 * S, fault('gc-pause', 'start', 'client-1', 'stop-the-world pause of 3.5s')],
  [2.5 * S, req('r2', 'client-2')],
  [2.5 * S, acquire('r2', 'client-2/w1', 'invoke')],
  [3 * S, keyState('redis-0', null, null)],
  [3.2 * S, keyState('redis-0', 'r2', 5.2 * S)],
  [3.2 * S, acquire('r2', 'client-2/w1', 'ok')],
  [5 * S, fault('gc-pause', 'end', 'client-1', 'threads run again')],
  [6 * S, release('r1', 'client-1/w1')],
  [6.5 * S, release('r2', 'client-2/w1')],
  [6.5 * S, keyState('redis-0', null, null)],
  [7 * S, fault('failover', 'event', 'redis-1', 'sentinel promoted redis-1')],
  [8 * S, { process: 'setup', type: 'info', f: 'end' }],
]);

describe('timeline', () => {
  const model = buildTimeline(ops, K, 0, 8 * S);

  it('builds lanes from the history alone', () => {
    expect(model.legend.map((l) => `${l.letter}=${l.request}`)).toEqual(['A=r1', 'B=r2']);
    expect(model.overlaps).toEqual([{ fromUs: 3.2 * S, toUs: 6 * S, holders: 2 }]);
    const c1 = model.clients.find((c) => c.label === 'client-1');
    expect(c1?.spans.map((s) => s.state)).toEqual(['waiting', 'holding', 'paused']);
    expect(model.nodes[0].spans.map((s) => [s.state, s.holder, s.fromUs, s.toUs])).toEqual([
      ['held', 'r1', 1.001 * S, 3 * S],
      ['held', 'r2', 3.2 * S, 6.5 * S],
    ]);
    expect(model.faults.map((f) => [f.fault, f.fromUs, f.toUs])).toEqual([
      ['gc-pause', 1.5 * S, 5 * S],
      ['failover', 7 * S, 7 * S],
    ]);
  });

  it('draws 80 columns that read without colour', () => {
    const text = renderTimeline(model, new Chalk({ level: 0 }));
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(TIMELINE_WIDTH);
    expect(text).toMatchSnapshot();
  });

  it('draws the same model as SVG', () => {
    const svg = timelineSvg(model);
    expect(svg).toContain('<svg class="timeline"');
    expect(svg.match(/<rect /g)?.length).toBeGreaterThan(5);
    expect(svg).toContain('gc-pause client-1');
  });
});

describe('holder labels', () => {
  it('are A..Z for the first 26 holders, then AA, AB, ... : never two alike', async () => {
    const { holderLabel } = await import('../../src/report/timeline-model.js');
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(holderLabel)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
    const labels = Array.from({ length: 2000 }, (_, i) => holderLabel(i));
    expect(new Set(labels).size).toBe(2000);
  });
});

describe('svg layout', () => {
  it('gives labels that would touch rows of their own, and keeps apart ones on one row', async () => {
    const { labelRows } = await import('../../src/report/svg-layout.js');
    // Two faults at one instant, a third far off, a fourth overlapping the second's label.
    expect(labelRows([{ x: 10, width: 100 }, { x: 10, width: 100 }, { x: 400, width: 50 }, { x: 90, width: 40 }])).toEqual([0, 1, 0, 2]);
    // Neighbour: a label that starts after the gap fits on the first row.
    expect(labelRows([{ x: 10, width: 100 }, { x: 116, width: 10 }])).toEqual([0, 0]);
    expect(labelRows([{ x: 10, width: 100 }, { x: 115, width: 10 }])).toEqual([0, 1]);
  });

  it('wraps a legend before its width runs out', async () => {
    const { flowLegend, textWidth } = await import('../../src/report/svg-layout.js');
    const items = ['lua', 'lua+guard-only-conditional-update', 'redisson-4.7-watchdog', 'x'];
    const placed = flowLegend(items, 300, 12);
    expect(placed.map((p) => p.line)).toEqual([0, 0, 1, 1]);
    for (const [i, p] of placed.entries()) expect(p.x + 16 + textWidth(items[i], 12)).toBeLessThanOrEqual(300);
  });
});

describe('a timeline of more than 26 holders', () => {
  // 28 requests take the lock one after another, 1 s each, on one client thread.
  const entries: Array<[number, NewOperation]> = [[0, { process: 'setup', type: 'info', f: 'setup', stock: [{ sku: 1, available: 100 }], primary: 'redis-0', lockNodes: [], quorum: 1, durationUs: 40 * S }]];
  for (let i = 0; i < 28; i++) {
    const id = `r${i + 1}`;
    entries.push([i * S, req(id, 'client-1')], [i * S, acquire(id, 'client-1/w1', 'invoke')], [i * S + 1, acquire(id, 'client-1/w1', 'ok')], [(i + 1) * S - 1, release(id, 'client-1/w1')]);
  }
  entries.push([40 * S, { process: 'setup', type: 'info', f: 'end' }]);
  const many = buildTimeline(history(entries), K, 0, 28 * S);

  it('labels the 27th and 28th holders AA and AB', () => {
    expect(many.legend.slice(24).map((l) => `${l.letter}=${l.request}`)).toEqual(['Y=r25', 'Z=r26', 'AA=r27', 'AB=r28']);
  });

  it('spells a two-letter label across its cells in the text timeline, one letter for the others', () => {
    const text = renderTimeline(many, new Chalk({ level: 0 }));
    const lane = text.split('\n').find((l) => l.startsWith('client-1')) as string;
    expect(lane).toMatch(/Z+(AB?|BA?)+/);
    expect(lane.length).toBeLessThanOrEqual(TIMELINE_WIDTH);
  });
});
