/** Appends operations with their index and the current simulated time. */
import type { NewOperation, Operation } from './operation.js';

export class HistoryRecorder {
  readonly ops: Operation[] = [];

  constructor(private readonly now: () => number) {}

  record(op: NewOperation): Operation {
    const full = { ...op, index: this.ops.length, timeUs: this.now() } as Operation;
    this.ops.push(full);
    return full;
  }
}
