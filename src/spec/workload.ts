/** A scenario's `workload:` block, resolved: who sends requests, how often, and what each does. */
import type { Distribution } from '../engine/distribution.js';
import type { Micros } from '../engine/time.js';

export const BUILTIN_STEPS = ['lock', 'check-order', 'read', 'deduct', 'order', 'unlock'] as const;
type BuiltinStep = (typeof BUILTIN_STEPS)[number];
/** A built-in step, or the name of a dependency to call. */
export type Step = BuiltinStep | { call: string };

export type Arrival =
  | { kind: 'open'; ratePerS: number }
  | { kind: 'closed'; users: number; think: Distribution }
  /** Requests at fixed instants, in time order (a scenario about one lock at one instant). */
  | { kind: 'script'; requests: ScriptedRequest[] };

interface ScriptedRequest {
  atUs: Micros;
  sku: number;
  /**
   * A cart (workload.requests[].skus): the SKUs a multi-lock (lock redisson-multi) takes, in
   * this order; `sku` is the first. Absent: the request's one SKU.
   */
  cart?: number[];
  /** 1-based client number. */
  client: number;
  /** A read-write lock's side (absent: write, a buyer). */
  mode?: 'read' | 'write';
}

export interface WorkloadSpec {
  clients: number;
  workersPerClient: number;
  poolPerClient: number;
  arrival: Arrival;
  qty: number;
  steps: Step[];
  /** Requests waiting for a worker beyond this are turned away ('overloaded'). */
  queueLimit: number;
  /**
   * The chance that a shopper's order is submitted a second time (a double click, a
   * gateway retry): the copy carries the same order key and arrives `resubmitAfter` later.
   */
  resubmitProbability: number;
  resubmitAfter: Distribution;
  /**
   * The share of generated requests that are readers (a read-write lock's workload: they take
   * the read lock and only read the stock), each drawn from the stream `workload/mode`; 0:
   * none, and nothing is drawn.
   */
  readShare: number;
}
