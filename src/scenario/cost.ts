/**
 * What a run will cost, estimated from the resolved scenario before anything runs, and the
 * budget it must fit. The budget was set when every run kept its whole history until the
 * checker read it: measured on the project's machine (2 cores, Node 20, heap limit 4144
 * MiB), a standalone world at 1000 requests/s for 200 s (199,400 requests, one lua-unlock
 * variant, 4 clients x 16 workers, 100 SKUs) peaked at 1.72 GiB RSS after 48 s of CPU: about
 * 9 KB and 0.25 ms of CPU per request. The checker keeps no history now, except in
 * `run --report` and `run --check-determinism`, which still hold about 9 KB per request; so the default budget, 250,000 requests per run, keeps
 * those near 2.2 GiB, well under the heap limit, and bounds the time of the others. A larger
 * run is refused before it starts (exit 2) unless --max-requests raises the budget.
 */
import { meanOf } from '../engine/distribution.js';
import type { Scenario } from '../spec/scenario.js';

export const DEFAULT_MAX_REQUESTS = 250_000;

export interface Budget {
  /** Requests one run (one variant, one seed) may be expected to make. */
  maxRequests: number;
  /**
   * Runs whose histories are held at once (`run` keeps every variant's until it prints):
   * their requests count together. A number, or 'all' for every variant of the scenario;
   * default 1 (compare, check and shrink judge one run at a time per thread).
   */
  runsHeld?: number | 'all';
  /** How many times those runs are held over (`run --check-determinism` keeps two of each). */
  repeats?: number;
}

export const DEFAULT_BUDGET: Budget = { maxRequests: DEFAULT_MAX_REQUESTS };

interface CostEstimate {
  /** Requests one run is expected to make, resubmitted copies included. */
  requests: number;
  /** The field that sets the load, to point at when it is too much. */
  field: 'arrival' | 'users' | 'requests';
  /** How the figure was reached, for the message. */
  how: string;
}

/**
 * Arrivals: rate x duration. Closed loop: each user asks at most once per think time (the
 * service time only makes it fewer). A script: its entries. Resubmitted copies add their
 * share on top.
 */
export function estimateCost(scenario: Scenario): CostEstimate {
  const a = scenario.workload.arrival;
  const seconds = scenario.durationUs / 1e6;
  const copies = 1 + scenario.workload.resubmitProbability;
  if (a.kind === 'open') {
    return { requests: Math.ceil(a.ratePerS * seconds * copies), field: 'arrival', how: `${a.ratePerS}/s for ${seconds}s` };
  }
  if (a.kind === 'closed') {
    const thinkUs = Math.max(1, meanOf(a.think));
    return {
      requests: Math.ceil(a.users * (scenario.durationUs / thinkUs) * copies),
      field: 'users',
      how: `${a.users} users for ${seconds}s, each asking about once per think time (mean ${thinkUs / 1000}ms)`,
    };
  }
  return { requests: Math.ceil(a.requests.length * copies), field: 'requests', how: `${a.requests.length} scripted requests` };
}

/** The refusal, or null when the estimate fits the budget. */
export function overBudget(scenario: Scenario, budget: Budget): { path: Array<string | number>; message: string } | null {
  const cost = estimateCost(scenario);
  const runs = (budget.runsHeld === 'all' ? scenario.variants.length : budget.runsHeld ?? 1) * (budget.repeats ?? 1);
  if (cost.requests * runs <= budget.maxRequests) return null;
  const held = runs > 1 ? ` x ${runs} runs held together` : '';
  return {
    path: ['workload', cost.field],
    message:
      `about ${cost.requests.toLocaleString('en-US')} requests per run${held} (${cost.how}) is over the budget of ` +
      `${budget.maxRequests.toLocaleString('en-US')}: a run that keeps its history (run --report) holds about 9 KB per request, and time grows with requests; ` +
      'shorten the run, lower the load, or raise the budget with --max-requests N',
  };
}
