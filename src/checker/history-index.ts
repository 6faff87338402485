/**
 * Indexes a history once for the checkers: requests with their client and completion,
 * critical sections, client crashes, and the end of the run.
 */
import type { History, LockOp, RequestOp } from '../history/operation.js';

export interface RequestRecord {
  id: string;
  client: string;
  sku: number;
  qty: number;
  invokeUs: number;
  /** The completion, if the request finished (ok/fail) or was lost (info). */
  end: RequestOp | null;
}

export interface CriticalSection {
  request: string;
  thread: string;
  client: string;
  key: string;
  startUs: number;
  endUs: number;
  leaseMs: number | null;
  /** How it ended: released, finished without release, its process crashed, or the run ended. */
  endedBy: 'release' | 'request-end' | 'crash' | 'run-end';
}

export interface HistoryIndex {
  ops: History;
  endUs: number;
  durationUs: number;
  stock: Map<number, number>;
  initialPrimary: string;
  /** Redlock: the independent masters and the quorum ([] and 1 otherwise). */
  lockNodes: string[];
  quorum: number;
  /** Whom the server knows as a lock's owner: the acquiring request, or its thread (Redisson). */
  lockOwner: 'request' | 'thread';
  requests: Map<string, RequestRecord>;
  sections: CriticalSection[];
  /** Client name -> crash times, ascending. */
  crashes: Map<string, number[]>;
}

export const clientOfThread = (thread: string): string => thread.split('/')[0];

export function indexHistory(ops: History): HistoryIndex {
  const requests = new Map<string, RequestRecord>();
  const crashes = new Map<string, number[]>();
  const stock = new Map<number, number>();
  let endUs = 0;
  let durationUs = 0;
  let initialPrimary = '';
  let lockNodes: string[] = [];
  let quorum = 1;
  let lockOwner: HistoryIndex['lockOwner'] = 'request';
  const open = new Map<string, { op: LockOp }>();
  const sections: CriticalSection[] = [];

  const close = (request: string, endUsAt: number, endedBy: CriticalSection['endedBy']): void => {
    const o = open.get(request);
    if (!o) return;
    open.delete(request);
    sections.push({
      request,
      thread: o.op.process,
      client: clientOfThread(o.op.process),
      key: o.op.key,
      startUs: o.op.timeUs,
      endUs: endUsAt,
      leaseMs: o.op.leaseMs ?? null,
      endedBy,
    });
  };

  for (const op of ops) {
    endUs = Math.max(endUs, op.timeUs);
    switch (op.f) {
      case 'setup':
        for (const s of op.stock) stock.set(s.sku, (stock.get(s.sku) ?? 0) + s.available);
        durationUs = op.durationUs;
        initialPrimary = op.primary;
        lockNodes = op.lockNodes;
        quorum = op.quorum;
        lockOwner = op.lockOwner ?? 'request';
        break;
      case 'request':
        if (op.type === 'invoke') {
          requests.set(op.request, {
            id: op.request, client: op.process, sku: op.sku, qty: op.qty, invokeUs: op.timeUs, end: null,
          });
        } else {
          const r = requests.get(op.request);
          if (r) r.end = op;
          close(op.request, op.timeUs, 'request-end');
        }
        break;
      case 'acquire':
        if (op.type === 'ok') open.set(op.request, { op });
        break;
      case 'release':
        if (op.type === 'invoke') close(op.request, op.timeUs, 'release');
        break;
      case 'fault':
        if (op.fault === 'crash' && op.phase === 'start') {
          const list = crashes.get(op.target) ?? [];
          list.push(op.timeUs);
          crashes.set(op.target, list);
          for (const [request, o] of [...open]) {
            if (clientOfThread(o.op.process) === op.target) close(request, op.timeUs, 'crash');
          }
        }
        break;
      default:
        break;
    }
  }
  for (const request of [...open.keys()]) close(request, endUs, 'run-end');
  sections.sort((a, b) => a.startUs - b.startUs || (a.request < b.request ? -1 : 1));
  return { ops, endUs, durationUs, stock, initialPrimary, lockNodes, quorum, lockOwner, requests, sections, crashes };
}
