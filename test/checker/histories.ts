/**
 * Builders for hand-written histories in the tests (the checker's, the timeline's, explore's): each entry is a time in us and an
 * operation; `history` orders them by time (stable, so entries at one instant keep the order
 * written) and numbers them as the recorder does.
 */
import type { NewOperation, Operation } from '../../src/history/operation.js';

export type Entry = [number, NewOperation];

export function history(entries: Entry[]): Operation[] {
  return entries
    .map(([timeUs, op], i) => ({ timeUs, op, i }))
    .sort((a, b) => a.timeUs - b.timeUs || a.i - b.i)
    .map(({ timeUs, op }, index) => ({ ...op, index, timeUs }) as Operation);
}

/** A history of `ops` in the order written, `stepUs` apart (1 ms unless told), from time 0. */
export function spaced(ops: NewOperation[], stepUs = 1000): Operation[] {
  return history(ops.map((op, i): Entry => [i * stepUs, op]));
}

export const K = 'lock:stock:1';

export interface SetupOptions {
  available?: number;
  primary?: string;
  lockNodes?: string[];
  quorum?: number;
  durationUs?: number;
  lockOwner?: 'request' | 'thread';
  /** A semaphore's permits (absent: a mutex). */
  permits?: number;
  /** A fair lock (its grants judged against arrival order). */
  fair?: boolean;
  /** A read-write lock (its readers may share a key). */
  readWrite?: boolean;
  /** Requests take multi-locks of carts. */
  multiLock?: boolean;
}

export const setup = (o: SetupOptions = {}): NewOperation => ({
  process: 'setup', type: 'info', f: 'setup', stock: [{ sku: 1, available: o.available ?? 10 }], primary: o.primary ?? 'redis-0',
  lockNodes: o.lockNodes ?? [], quorum: o.quorum ?? 1, durationUs: o.durationUs ?? 10_000_000, lockOwner: o.lockOwner,
  ...(o.permits === undefined ? {} : { permits: o.permits }),
  ...(o.fair === undefined ? {} : { fair: o.fair }),
  ...(o.readWrite === undefined ? {} : { readWrite: o.readWrite }),
  ...(o.multiLock === undefined ? {} : { multiLock: o.multiLock }),
});
export const end = (): NewOperation => ({ process: 'setup', type: 'info', f: 'end' });

/** A key-state fact: `holder` holds `key` on `node` (null: it is gone). */
export const keyState = (
  node: string,
  holder: string | null,
  o: { expiresAtUs?: number | null; cause?: string; by?: string; previousHolder?: string | null; key?: string } = {},
): NewOperation => ({
  process: node, type: 'info', f: 'key-state', node, key: o.key ?? K, holder,
  expiresAtUs: holder === null ? null : o.expiresAtUs === undefined ? 1_000_000_000 : o.expiresAtUs,
  cause: o.cause ?? (holder === null ? 'delete' : 'write'), by: o.by ?? holder ?? '', previousHolder: o.previousHolder ?? null,
});

export const requestOp = (type: Operation['type'], request: string, o: { client?: string; outcome?: string; sku?: number } = {}): NewOperation =>
  ({ process: o.client ?? 'client-1', type, f: 'request', request, sku: o.sku ?? 1, qty: 1, ...(o.outcome ? { outcome: o.outcome } : {}) }) as NewOperation;

export const lockOp = (
  f: 'acquire' | 'release',
  type: Operation['type'],
  request: string,
  o: { thread?: string; key?: string; leaseMs?: number | null; fence?: number; detail?: string; mode?: 'read' } = {},
): NewOperation => ({ process: o.thread ?? 'client-1/w1', request, type, f, key: o.key ?? K, ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}), ...(o.fence !== undefined ? { fence: o.fence } : {}), ...(o.detail !== undefined ? { detail: o.detail } : {}), ...(o.mode !== undefined ? { mode: o.mode } : {}) }) as NewOperation;

export const fault = (fault: string, phase: 'start' | 'end' | 'event', target: string, detail = ''): NewOperation => ({
  process: 'nemesis', type: 'info', f: 'fault', fault, phase, target, detail,
});

/**
 * A critical section of `request` on `thread`: its request arrives at `from`, its acquire
 * succeeds at `from` and its release is invoked at `to` (the section's end); the request ends
 * ordered at `to` + 2. Key-state facts are the caller's.
 */
export function section(request: string, from: number, to: number, thread = 'client-1/w1', key = K): Entry[] {
  const client = thread.split('/')[0];
  return [
    [from, requestOp('invoke', request, { client })],
    [from, lockOp('acquire', 'invoke', request, { thread, key })],
    [from, lockOp('acquire', 'ok', request, { thread, key, leaseMs: 1000 })],
    [to, lockOp('release', 'invoke', request, { thread, key })],
    [to + 1, lockOp('release', 'ok', request, { thread, key })],
    [to + 2, requestOp('ok', request, { client, outcome: 'ordered' })],
  ];
}
