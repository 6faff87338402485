/** A broken invariant found in a history, with what the story needs to tell it. */
type ViolationKind =
  | 'double-holder'
  /** More holders of a semaphore's key at once than it has permits (observers/holders.ts). */
  | 'permits-exceeded'
  /** A semaphore permit taken and never given back nor expired (observers/permits.ts). */
  | 'permit-leak'
  /** A fair lock granted out of arrival order (observers/fairness.ts). */
  | 'fifo-overtaken'
  /** A fair lock's waiter that never got it while it went to later arrivals or sat free (observers/fairness.ts). */
  | 'waiter-starved'
  /** A writer inside a read-write lock's critical section together with a reader (observers/read-write.ts). */
  | 'read-write-overlap'
  | 'oversell'
  | 'negative-stock'
  | 'lost-update'
  | 'lock-lost'
  | 'foreign-unlock'
  | 'stuck-lock'
  | 'duplicate-order'
  | 'stale-token'
  | 'orphaned-lock'
  /** A multi-lock that held some of its locks while it waited, and gave them back without the lock (observers/partial-holds.ts). */
  | 'partial-hold';

export interface Violation {
  kind: ViolationKind;
  timeUs: number;
  /** Lock key or SKU row concerned. */
  subject: string;
  /** Requests involved, the earlier first. */
  requests: string[];
  summary: string;
}

/**
 * The violation that explains a run best: two holders at once (more than a semaphore's
 * permits) if there were any (the cause
 * behind oversells and lost updates), else the first. Timelines and stories zoom on it.
 */
export function focusViolation(violations: readonly Violation[]): Violation | undefined {
  return violations.find((v) => v.kind === 'double-holder' || v.kind === 'permits-exceeded' || v.kind === 'read-write-overlap') ?? violations[0];
}
