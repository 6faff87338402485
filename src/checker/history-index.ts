/**
 * Indexes a history once for the checkers: requests with their client and completion,
 * critical sections, each request's work under its lock, client crashes, failovers, and the
 * end of the run.
 */
import type { FaultOp, History, KeyStateOp, LockOp, RequestOp } from '../history/operation.js';

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

/** How a request stopped working under its lock (for the orphan's story). */
export type LockDeparture =
  | 'acquiring'
  | 'kept'
  | 'acquire-unknown'
  | 'acquire-failed'
  | 'released'
  | 'release-unknown'
  | 'release-failed'
  | 'died';

/**
 * A request's work under its lock: from the invocation of its acquire until the acquire
 * failed, or its release completed (ok, refused or unknown), its request ended, or its
 * process crashed (`toUs`); and the last thing it did with the lock (`departure`, at
 * `departureUs`), which may come after `toUs` (an unlock-always release).
 */
export interface LockWork {
  request: string;
  thread: string;
  key: string;
  fromUs: number;
  toUs: number;
  departure: LockDeparture;
  departureUs: number;
  detail: string | undefined;
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
  /** Every request that invoked an acquire, by request id, in order of invocation. */
  lockWork: Map<string, LockWork>;
  /** Instant of each failover -> the node promoted then. */
  promotions: Map<number, string>;
  /**
   * Redis node -> the stretches it was killed (primary-crash or redis-restart, start to end or
   * the run's end), ascending. A lock key on a node that is down keeps nobody out: see orphans.ts.
   */
  nodeDown: Map<string, Array<{ fromUs: number; toUs: number }>>;
  /** The servers' lock-key facts and the failovers, in history order (the ownership checks read only these). */
  keyEvents: Array<KeyStateOp | FaultOp>;
  /** Acquires and releases whose outcome is unknown (info). */
  timeouts: number;
  /** Watchdog renewals that succeeded, and those that failed. */
  renewals: number;
  renewalFailures: number;
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
  const lockWork = new Map<string, LockWork>();
  const working = new Map<string, LockWork>(); // requests still working under their lock
  const promotions = new Map<number, string>();
  const nodeDown = new Map<string, Array<{ fromUs: number; toUs: number }>>();
  const keyEvents: Array<KeyStateOp | FaultOp> = [];
  let timeouts = 0;
  let renewals = 0;
  let renewalFailures = 0;
  const stopWorking = (request: string, atUs: number): void => {
    const w = working.get(request);
    if (!w) return;
    working.delete(request);
    w.toUs = atUs;
  };
  const depart = (request: string, departure: LockDeparture, atUs: number, detail?: string): void => {
    const w = lockWork.get(request);
    if (!w) return;
    w.departure = departure;
    w.departureUs = atUs;
    w.detail = detail;
  };

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
          stopWorking(op.request, op.timeUs);
          // Lost with its process while holding the lock or waiting for it (a SET that executed).
          const w = lockWork.get(op.request);
          if (op.type === 'info' && w && (w.departure === 'kept' || w.departure === 'acquiring')) depart(op.request, 'died', op.timeUs);
        }
        break;
      case 'acquire':
        if (op.type === 'info') timeouts++;
        if (op.type === 'invoke') {
          const w: LockWork = {
            request: op.request, thread: op.process, key: op.key, fromUs: op.timeUs, toUs: Infinity, departure: 'acquiring', departureUs: op.timeUs, detail: op.detail,
          };
          lockWork.set(op.request, w);
          working.set(op.request, w);
          break;
        }
        if (op.type === 'ok') {
          open.set(op.request, { op });
          depart(op.request, 'kept', op.timeUs, op.detail);
        } else {
          stopWorking(op.request, op.timeUs);
          depart(op.request, op.type === 'info' ? 'acquire-unknown' : 'acquire-failed', op.timeUs, op.detail);
        }
        break;
      case 'release':
        if (op.type === 'info') timeouts++;
        if (op.type === 'invoke') {
          close(op.request, op.timeUs, 'release');
          break;
        }
        stopWorking(op.request, op.timeUs);
        depart(op.request, op.type === 'ok' ? 'released' : op.type === 'info' ? 'release-unknown' : 'release-failed', op.timeUs, op.detail);
        break;
      case 'fault':
        if (op.fault === 'crash' && op.phase === 'start') {
          const list = crashes.get(op.target) ?? [];
          list.push(op.timeUs);
          crashes.set(op.target, list);
          for (const [request, o] of [...open]) {
            if (clientOfThread(o.op.process) === op.target) close(request, op.timeUs, 'crash');
          }
          for (const [request, w] of [...working]) if (clientOfThread(w.thread) === op.target) stopWorking(request, op.timeUs);
        } else if (op.fault === 'failover') {
          promotions.set(op.timeUs, op.target);
          keyEvents.push(op);
        } else if (op.fault === 'primary-crash' || op.fault === 'redis-restart') {
          const list = nodeDown.get(op.target) ?? [];
          nodeDown.set(op.target, list);
          const last = list[list.length - 1];
          if (op.phase === 'start') list.push({ fromUs: op.timeUs, toUs: Infinity });
          else if (op.phase === 'end' && last && last.toUs === Infinity) last.toUs = op.timeUs;
        }
        break;
      case 'key-state':
        keyEvents.push(op);
        break;
      case 'renew':
        if (op.type === 'ok') renewals++;
        else renewalFailures++;
        break;
      default:
        break;
    }
  }
  for (const request of [...open.keys()]) close(request, endUs, 'run-end');
  for (const w of working.values()) w.toUs = endUs;
  for (const list of nodeDown.values()) for (const d of list) if (d.toUs === Infinity) d.toUs = endUs;
  sections.sort((a, b) => a.startUs - b.startUs || (a.request < b.request ? -1 : 1));
  return {
    ops, endUs, durationUs, stock, initialPrimary, lockNodes, quorum, lockOwner, requests, sections, crashes, lockWork, promotions, nodeDown, keyEvents, timeouts, renewals, renewalFailures,
  };
}
