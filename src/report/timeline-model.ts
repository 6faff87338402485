/**
 * The timeline of one lock key over a window of a run, built from the history alone (like
 * the checker): a lane per client (holding / waiting / paused / crashed), a lane per Redis
 * node (who the key belongs to there, with or without TTL), a lane where two or more hold
 * it at once, and the faults. The terminal and the HTML report draw the same model.
 */
import { criticalSections } from '../checker/check-history.js';
import type { CriticalSection } from '../checker/observer.js';
import type { History } from '../history/operation.js';
import type { Violation } from '../checker/violations.js';
import { LOCK_KEY_NAMESPACE, lockKeyOf } from '../variants/lock-key.js';

type ClientState = 'holding' | 'waiting' | 'paused' | 'crashed';
type NodeState = 'held' | 'held-no-ttl' | 'down' | 'asleep';

export interface Span<S extends string> {
  fromUs: number;
  toUs: number;
  state: S;
  /** The request holding the key (client holding, node held). */
  holder?: string;
}

export interface Lane<S extends string> {
  label: string;
  spans: Array<Span<S>>;
}

interface FaultWindow {
  fault: string;
  target: string;
  fromUs: number;
  /** Equal to fromUs for an instantaneous event (failover, clock jump, kill). */
  toUs: number;
  detail: string;
}

export interface TimelineModel {
  key: string;
  fromUs: number;
  toUs: number;
  clients: Array<Lane<ClientState>>;
  nodes: Array<Lane<NodeState>>;
  /** Stretches with two or more requests inside the critical section of the key. */
  overlaps: Array<{ fromUs: number; toUs: number; holders: number }>;
  faults: FaultWindow[];
  /** Holders in order of first appearance, each with a letter. */
  legend: Array<{ letter: string; request: string; thread: string }>;
}

export interface TimelineWindow {
  key?: string;
  fromUs?: number;
  toUs?: number;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The n-th holder's label (from 0): A..Z, then AA..AZ, BA.. as spreadsheet columns, so no two holders share one. */
export function holderLabel(n: number): string {
  return n < LETTERS.length ? LETTERS[n] : holderLabel(Math.floor(n / LETTERS.length) - 1) + LETTERS[n % LETTERS.length];
}

/** The lock key a violation is about (a SKU's lock for stock violations). */
export function keyOfViolation(v: Violation): string | null {
  if (v.subject.startsWith(LOCK_KEY_NAMESPACE)) return v.subject;
  const sku = /^sku (\d+)$/.exec(v.subject);
  return sku ? lockKeyOf(Number(sku[1])) : null;
}

/** Around the first violation: from its story's start to a little after it. */
export function windowAround(ops: History, v: Violation): { fromUs: number; toUs: number } {
  const involved = new Set(v.requests);
  const times = ops.filter((o) => 'request' in o && involved.has(o.request) && o.f === 'acquire').map((o) => o.timeUs);
  const start = Math.min(v.timeUs, ...times);
  const span = Math.max(1_000_000, v.timeUs - start);
  return { fromUs: Math.max(0, start - span * 0.15), toUs: v.timeUs + span * 0.35 };
}

function clip<S extends string>(spans: Array<Span<S>>, fromUs: number, toUs: number): Array<Span<S>> {
  return spans
    .filter((s) => s.toUs > fromUs && s.fromUs < toUs)
    .map((s) => ({ ...s, fromUs: Math.max(s.fromUs, fromUs), toUs: Math.min(s.toUs, toUs) }));
}

export function buildTimeline(ops: History, key: string, fromUs: number, toUs: number): TimelineModel {
  const { sections: all, endUs } = criticalSections(ops);
  const clientNames = new Set<string>();
  const nodeNames = new Set<string>();
  const letters = new Map<string, string>();
  const legend: TimelineModel['legend'] = [];
  const letterOf = (request: string, thread: string): string => {
    let l = letters.get(request);
    if (!l) {
      l = holderLabel(letters.size);
      letters.set(request, l);
      legend.push({ letter: l, request, thread });
    }
    return l;
  };

  const clientSpans = new Map<string, Array<Span<ClientState>>>();
  const push = (client: string, span: Span<ClientState>): void => {
    const list = clientSpans.get(client) ?? [];
    list.push(span);
    clientSpans.set(client, list);
  };
  const sections: CriticalSection[] = all.filter((s) => s.key === key);
  for (const s of sections) push(s.client, { fromUs: s.startUs, toUs: s.endUs, state: 'holding', holder: s.request });
  // Waiting: acquire invoked, not yet answered.
  const waitingSince = new Map<string, { client: string; atUs: number }>();
  const faults: FaultWindow[] = [];
  const openFaults = new Map<string, FaultWindow>();
  const nodeSpans = new Map<string, Array<Span<NodeState>>>();
  const nodeState = new Map<string, { since: number; holder: string | null; ttl: boolean }>();
  const closeNode = (node: string, atUs: number): void => {
    const s = nodeState.get(node);
    if (s && s.holder !== null && atUs > s.since) {
      const list = nodeSpans.get(node) ?? [];
      list.push({ fromUs: s.since, toUs: atUs, state: s.ttl ? 'held' : 'held-no-ttl', holder: s.holder });
      nodeSpans.set(node, list);
    }
  };
  for (const op of ops) {
    if (op.f === 'setup') for (const n of op.lockNodes.length > 0 ? op.lockNodes : [op.primary]) nodeNames.add(n);
    if (op.f === 'request' && op.type === 'invoke') clientNames.add(op.process);
    if (op.f === 'acquire' && op.key === key) {
      const client = op.process.split('/')[0];
      if (op.type === 'invoke') waitingSince.set(op.request, { client, atUs: op.timeUs });
      else {
        const w = waitingSince.get(op.request);
        waitingSince.delete(op.request);
        if (w && op.timeUs > w.atUs) push(w.client, { fromUs: w.atUs, toUs: op.timeUs, state: 'waiting' });
      }
    }
    if (op.f === 'key-state' && op.key === key) {
      nodeNames.add(op.node);
      closeNode(op.node, op.timeUs);
      nodeState.set(op.node, { since: op.timeUs, holder: op.holder, ttl: op.expiresAtUs !== null });
    }
    if (op.f === 'fault') {
      const id = `${op.fault}\u0000${op.target}`;
      if (op.phase === 'start') {
        const w = { fault: op.fault, target: op.target, fromUs: op.timeUs, toUs: endUs, detail: op.detail };
        openFaults.set(id, w);
        faults.push(w);
      } else if (op.phase === 'end') {
        const w = openFaults.get(id);
        if (w) {
          w.toUs = op.timeUs;
          openFaults.delete(id);
        }
      } else faults.push({ fault: op.fault, target: op.target, fromUs: op.timeUs, toUs: op.timeUs, detail: op.detail });
    }
  }
  for (const node of nodeState.keys()) closeNode(node, endUs);
  for (const w of waitingSince.values()) push(w.client, { fromUs: w.atUs, toUs: endUs, state: 'waiting' });
  for (const f of faults) {
    if (f.fault === 'gc-pause') push(f.target, { fromUs: f.fromUs, toUs: f.toUs, state: 'paused' });
    if (f.fault === 'crash' && f.toUs > f.fromUs) push(f.target, { fromUs: f.fromUs, toUs: f.toUs, state: 'crashed' });
    if (nodeNames.has(f.target) && (f.fault === 'primary-crash' || f.fault === 'redis-restart' || f.fault === 'redis-pause')) {
      const list = nodeSpans.get(f.target) ?? [];
      list.push({ fromUs: f.fromUs, toUs: f.toUs, state: f.fault === 'redis-pause' ? 'asleep' : 'down' });
      nodeSpans.set(f.target, list);
    }
  }

  // Two or more inside the critical section at once.
  const points = sections.flatMap((s) => [
    { t: s.startUs, d: 1 },
    { t: s.endUs, d: -1 },
  ]);
  points.sort((a, b) => a.t - b.t || a.d - b.d);
  const overlaps: TimelineModel['overlaps'] = [];
  let inside = 0;
  let since = 0;
  let peak = 0;
  for (const p of points) {
    const before = inside;
    inside += p.d;
    if (before < 2 && inside >= 2) {
      since = p.t;
      peak = inside;
    } else if (inside >= 2) peak = Math.max(peak, inside);
    else if (before >= 2 && inside < 2) overlaps.push({ fromUs: since, toUs: p.t, holders: peak });
  }

  // Letters in order of appearance inside the window.
  const clients = [...clientNames].sort(byHostNumber).map((label) => ({ label, spans: clip(clientSpans.get(label) ?? [], fromUs, toUs).sort((a, b) => a.fromUs - b.fromUs) }));
  const nodes = [...nodeNames].sort(byHostNumber).map((label) => ({ label, spans: clip(nodeSpans.get(label) ?? [], fromUs, toUs).sort((a, b) => a.fromUs - b.fromUs) }));
  const holderThread = new Map(sections.map((s) => [s.request, s.thread]));
  const seen = [...clients.flatMap((l) => l.spans), ...nodes.flatMap((l) => l.spans)]
    .filter((s) => s.holder !== undefined)
    .sort((a, b) => a.fromUs - b.fromUs);
  for (const s of seen) letterOf(s.holder as string, holderThread.get(s.holder as string) ?? '');
  return {
    key,
    fromUs,
    toUs,
    clients,
    nodes,
    overlaps: overlaps.filter((o) => o.toUs > fromUs && o.fromUs < toUs),
    faults: faults.filter((f) => f.toUs >= fromUs && f.fromUs <= toUs),
    legend,
  };
}

function byHostNumber(a: string, b: string): number {
  const n = (s: string) => Number(/(\d+)$/.exec(s)?.[1] ?? 0);
  return a.replace(/\d+$/, '') === b.replace(/\d+$/, '') ? n(a) - n(b) : a < b ? -1 : 1;
}

export function letterFor(model: TimelineModel, request: string | undefined): string {
  if (request === undefined) return '?';
  return model.legend.find((l) => l.request === request)?.letter ?? '?';
}
