/** Appends operations with their index and the current simulated time. */
import type { Operation } from './operation.js';

export class HistoryRecorder {
  readonly ops: Operation[] = [];

  constructor(private readonly now: () => number) {}

  /**
   * Stamps the operation in place and appends it. Callers hand over a fresh object that
   * already declares `index` and `timeUs` (records.ts), so stamping changes no hidden class.
   */
  record(op: Operation): Operation {
    op.index = this.ops.length;
    op.timeUs = this.now();
    this.ops.push(op);
    return op;
  }
}
