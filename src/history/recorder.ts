/**
 * Appends operations with their index and the current simulated time, hands each to the
 * listeners (the streaming checker) and keeps the ones asked for: every operation, none
 * (memory bounded by what the listeners keep), or those a filter selects (the operations a
 * violation's story tells, on a re-run of the same seed).
 */
import type { Operation } from './operation.js';

export type Retention = 'all' | 'none' | ((op: Operation) => boolean);

export class HistoryRecorder {
  /** The operations kept (every one with retention 'all'). */
  readonly ops: Operation[] = [];
  /** Operations recorded, kept or not. */
  count = 0;
  private readonly listeners: Array<(op: Operation) => void> = [];
  private readonly keep: Retention;

  constructor(
    private readonly now: () => number,
    keep: Retention = 'all',
  ) {
    this.keep = keep;
  }

  /** Called with every operation, in history order, as it is recorded. */
  listen(listener: (op: Operation) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Stamps the operation in place and appends it. Callers hand over a fresh object that
   * already declares `index` and `timeUs` (records.ts), so stamping changes no hidden class.
   */
  record(op: Operation): Operation {
    op.index = this.count++;
    op.timeUs = this.now();
    for (let i = 0; i < this.listeners.length; i++) this.listeners[i](op);
    const keep = this.keep;
    if (keep === 'all' || (keep !== 'none' && keep(op))) this.ops.push(op);
    return op;
  }
}
