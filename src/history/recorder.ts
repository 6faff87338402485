/** Appends operations with their index and the current simulated time. */
import type { NewOperation, Operation } from './operation.js';

export class HistoryRecorder {
  readonly ops: Operation[] = [];

  constructor(private readonly now: () => number) {}

  /** Stamps the operation in place (callers hand over a fresh object) and appends it. */
  record(op: NewOperation): Operation {
    const full = op as Operation;
    full.index = this.ops.length;
    full.timeUs = this.now();
    this.ops.push(full);
    return full;
  }
}
