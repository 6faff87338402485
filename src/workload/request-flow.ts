/**
 * One shopper's request as the application serves it: the scenario's steps in order
 * (lock -> read -> risk check -> deduct -> order -> unlock, typically). A failed step skips
 * to the unlock, as a finally block would. Every step that matters to the checker is
 * recorded in the history at the simulated instant it happens.
 */
import type { HistoryRecorder } from '../history/recorder.js';
import type { RequestOutcome } from '../history/operation.js';
import type { Step } from '../scenario/types.js';
import type { Guard } from '../variants/guard.js';
import type { LockHandle, LockParams, LockProtocol } from '../variants/lock-protocol.js';
import { db, type EffectProgram } from '../world/effects.js';

export interface FlowSettings {
  lock: LockProtocol;
  guard: Guard;
  lockParams: LockParams;
  steps: readonly Step[];
  recorder: HistoryRecorder;
}

export interface RequestInfo {
  id: string;
  sku: number;
  qty: number;
}

export const lockKeyOf = (sku: number): string => `lock:stock:${sku}`;

export function* requestFlow(
  s: FlowSettings,
  req: RequestInfo,
  thread: string,
  lock: LockHandle,
): EffectProgram<RequestOutcome> {
  const { recorder } = s;
  const base = { process: thread, request: req.id };
  let holding = false;
  let readAvailable: number | null = null;
  let outcome: RequestOutcome | null = null;
  let ordered = false;

  for (const step of s.steps) {
    if (outcome !== null && step !== 'unlock') continue;
    if (typeof step === 'object') {
      yield { kind: 'call', dependency: step.call };
      continue;
    }
    switch (step) {
      case 'lock': {
        recorder.record({ ...base, type: 'invoke', f: 'acquire', key: lock.key });
        const r = yield* s.lock.acquire(lock, s.lockParams);
        if (r.acquired) {
          holding = true;
          recorder.record({ ...base, type: 'ok', f: 'acquire', key: lock.key, leaseMs: lock.leaseMs });
        } else {
          // A timed-out acquire may have taken the lock after all: its outcome is unknown.
          const type = r.reason === 'timeout' ? 'info' : 'fail';
          recorder.record({ ...base, type, f: 'acquire', key: lock.key, detail: r.detail });
          outcome = r.reason === 'busy' ? 'lock-busy' : 'lock-error';
        }
        break;
      }
      case 'read': {
        recorder.record({ ...base, type: 'invoke', f: 'read-stock', sku: req.sku });
        const r = yield* db({ kind: 'select-stock', sku: req.sku });
        if (r.kind !== 'row') {
          recorder.record({ ...base, type: 'fail', f: 'read-stock', sku: req.sku });
          outcome = 'db-error';
          break;
        }
        readAvailable = r.row.available;
        recorder.record({ ...base, type: 'ok', f: 'read-stock', sku: req.sku, available: readAvailable });
        if (readAvailable < req.qty) outcome = 'sold-out';
        break;
      }
      case 'deduct': {
        const statement = s.guard.deductStatement(req.sku, req.qty, readAvailable);
        const write =
          statement.kind === 'set-stock'
            ? { mode: 'set' as const, value: statement.available, basedOn: readAvailable ?? undefined }
            : { mode: 'deduct' as const };
        recorder.record({ ...base, type: 'invoke', f: 'write-stock', sku: req.sku, qty: req.qty, ...write });
        const r = yield* db(statement);
        if (r.kind !== 'affected') {
          recorder.record({ ...base, type: 'fail', f: 'write-stock', sku: req.sku, qty: req.qty, ...write });
          outcome = 'db-error';
          break;
        }
        recorder.record({
          ...base, type: 'ok', f: 'write-stock', sku: req.sku, qty: req.qty, ...write, affected: r.rows,
        });
        if (r.rows === 0) outcome = 'sold-out';
        break;
      }
      case 'order': {
        recorder.record({ ...base, type: 'invoke', f: 'order', sku: req.sku, qty: req.qty });
        const r = yield* db({ kind: 'insert-order', sku: req.sku, qty: req.qty, requestTag: req.id });
        if (r.kind !== 'affected') {
          recorder.record({ ...base, type: 'fail', f: 'order', sku: req.sku, qty: req.qty });
          outcome = 'db-error';
          break;
        }
        recorder.record({ ...base, type: 'ok', f: 'order', sku: req.sku, qty: req.qty });
        ordered = true;
        break;
      }
      case 'unlock': {
        if (!holding) break;
        holding = false;
        recorder.record({ ...base, type: 'invoke', f: 'release', key: lock.key });
        const r = yield* s.lock.release(lock, s.lockParams);
        if (r.released) recorder.record({ ...base, type: 'ok', f: 'release', key: lock.key });
        else if (r.reason === 'timeout') {
          recorder.record({ ...base, type: 'info', f: 'release', key: lock.key, detail: r.detail });
        } else recorder.record({ ...base, type: 'fail', f: 'release', key: lock.key, detail: r.detail });
        break;
      }
    }
  }
  return outcome ?? (ordered ? 'ordered' : 'sold-out');
}
