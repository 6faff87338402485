/**
 * Shrinking a failing run to a locally minimal scenario (fast-check's habit, applied to
 * scenarios): fix the run's seed, keep only its variant, write the seed-drawn fault schedule
 * out as fixed faults, then greedily try smaller scenarios - a fault fewer, a shorter run,
 * fewer SKUs, clients, workers and arrivals, shorter fault windows - keeping each one that
 * still fails the same way, until no single step does. Every fault left is then needed:
 * removing any one of them makes the run pass.
 */
import { CheckerArena } from '../checker/arena.js';
import { Simulation } from '../engine/simulation.js';
import { faultsOfRun } from '../faults/schedule.js';
import { runSimulated } from '../backends/default-backend.js';
import type { Expectation } from '../spec/expectations.js';
import type { FaultSpec } from '../spec/faults.js';
import type { Scenario } from '../spec/scenario.js';
import { STOCK_LOCK_KEY_PREFIX } from '../variants/lock-key.js';
import { failureByKind, worstFailure, type Failure } from './failure.js';

export interface ScenarioSize {
  faults: number;
  clients: number;
  workersPerClient: number;
  skus: number;
  requests: number;
  durationUs: number;
  historyOps: number;
}

interface ShrinkResult {
  minimal: Scenario;
  failure: Failure;
  seed: number;
  variant: string;
  before: ScenarioSize;
  after: ScenarioSize;
  /** Runs tried, and the steps that were kept, in order. */
  attempts: number;
  steps: string[];
}

interface ShrinkOptions {
  seed: number;
  variant: string;
  /** Which failure to keep (default: the run's most severe). */
  failure?: string;
  /** Give up looking for smaller scenarios after this many runs. */
  maxAttempts?: number;
}

export class NothingToShrink extends Error {}

interface Candidate {
  what: string;
  scenario: Scenario;
}

const SECOND_US = 1_000_000;

/** The SKU a violation is about: its subject names the SKU (`sku 7`) or the SKU's lock key. */
// The prefix holds no character special to a regular expression.
const SKU_OF_SUBJECT = new RegExp(`(?:sku |${STOCK_LOCK_KEY_PREFIX})(\\d+)`);

/** The run's faults written out as data, in time order (the runner draws the same ones). */
function materialise(s: Scenario, seed: number): FaultSpec[] {
  return faultsOfRun(s, new Simulation(seed).random).sort((a, b) => a.atUs - b.atUs);
}

function faultEndUs(f: FaultSpec): number {
  if ('durationUs' in f) return f.atUs + f.durationUs;
  if (f.kind === 'redis-restart') return f.atUs + f.downUs;
  return f.atUs;
}

function describeFault(f: FaultSpec): string {
  const target = 'client' in f ? ` client-${f.client}` : 'target' in f ? ` ${f.target}` : 'node' in f ? ` ${f.node}` : '';
  return `${f.kind}${target} at ${f.atUs / SECOND_US}s`;
}

/** Faults that name a client beyond `clients` cannot stay (their host is gone). */
function namesClientBeyond(f: FaultSpec, clients: number): boolean {
  const over = (h: string) => /^client-(\d+)$/.test(h) && Number(h.slice(7)) > clients;
  if ('client' in f) return f.client > clients;
  if ('target' in f) return over(f.target);
  if (f.kind === 'partition') return [...f.isolate, ...(f.from ?? [])].some(over);
  return false;
}

/** A scenario with the script shifted `shiftUs` earlier (requests that would fall before 0 dropped). */
function scriptEarlier(s: Scenario, shiftUs: number): Scenario {
  const a = s.workload.arrival;
  if (a.kind !== 'script') return s;
  const requests = a.requests.filter((r) => r.atUs >= shiftUs).map((r) => ({ ...r, atUs: r.atUs - shiftUs }));
  return { ...s, workload: { ...s.workload, arrival: { kind: 'script', requests } } };
}

/**
 * A candidate with a script keeps only the requests it can still run (within the run, of a
 * SKU in stock, from a client it has), so that the scenario it writes loads again; null
 * when none is left (a run without requests cannot fail). Shrink does not cut the script
 * itself: it is short and written by hand.
 */
function fitScript(s: Scenario): Scenario | null {
  const a = s.workload.arrival;
  if (a.kind !== 'script') return s;
  const skus = new Set(s.stock.map((r) => r.sku));
  const requests = a.requests.filter((r) => r.atUs < s.durationUs && skus.has(r.sku) && r.client <= s.workload.clients);
  if (requests.length === 0) return null;
  return requests.length === a.requests.length ? s : { ...s, workload: { ...s.workload, arrival: { kind: 'script', requests } } };
}

function* candidates(s: Scenario, failingAtUs: number, failingSku: number | null, fromFault: number): Generator<Candidate & { removedFault?: number }> {
  for (const c of allCandidates(s, failingAtUs, failingSku, fromFault)) {
    const fitted = fitScript(c.scenario);
    if (fitted) yield { ...c, scenario: fitted };
  }
}

/**
 * Smaller scenarios to try, the biggest cuts first. Fault removals start at `fromFault`:
 * faults before it were needed a moment ago (a final pass from 0 confirms they still are).
 */
function* allCandidates(s: Scenario, failingAtUs: number, failingSku: number | null, fromFault: number): Generator<Candidate & { removedFault?: number }> {
  const w = s.workload;
  // A fault fewer.
  for (let i = fromFault; i < s.faults.length; i++) {
    yield { what: `removed ${describeFault(s.faults[i])}`, scenario: { ...s, faults: s.faults.filter((_, j) => j !== i) }, removedFault: i };
  }
  // A shorter run: just past the failure and the last fault.
  const lastFaultUs = Math.max(0, ...s.faults.map(faultEndUs));
  const neededUs = Math.ceil((Math.max(failingAtUs, lastFaultUs) + SECOND_US) / SECOND_US) * SECOND_US;
  if (neededUs < s.durationUs) yield { what: `duration ${s.durationUs / SECOND_US}s -> ${neededUs / SECOND_US}s`, scenario: { ...s, durationUs: neededUs } };
  // Everything earlier: the same faults sooner after the start, and the run that much shorter.
  const firstFaultUs = Math.min(...s.faults.map((f) => f.atUs));
  if (s.faults.length > 0 && firstFaultUs > 10 * SECOND_US) {
    const shiftUs = Math.floor((firstFaultUs - 5 * SECOND_US) / SECOND_US) * SECOND_US;
    yield {
      what: `moved every fault ${shiftUs / SECOND_US}s earlier`,
      scenario: scriptEarlier({ ...s, faults: s.faults.map((f) => ({ ...f, atUs: f.atUs - shiftUs })), durationUs: s.durationUs - shiftUs }, shiftUs),
    };
  }
  // Only the SKU that failed.
  if (failingSku !== null && s.stock.length > 1) {
    const row = s.stock.find((r) => r.sku === failingSku);
    if (row) yield { what: `stock: only sku ${failingSku}`, scenario: { ...s, stock: [row] } };
  }
  // Less stock: an oversell shows as soon as the stock runs out.
  if (s.stock.some((r) => r.available > 1)) {
    yield { what: 'halved the stock of every SKU', scenario: { ...s, stock: s.stock.map((r) => ({ ...r, available: Math.max(1, Math.floor(r.available / 2)) })) } };
  }
  // Fewer clients, workers, arrivals.
  if (w.clients > 1 && !s.faults.some((f) => namesClientBeyond(f, w.clients - 1))) {
    yield { what: `clients ${w.clients} -> ${w.clients - 1}`, scenario: { ...s, workload: { ...w, clients: w.clients - 1 } } };
  }
  if (w.workersPerClient > 1) {
    const workers = Math.max(1, Math.floor(w.workersPerClient / 2));
    yield { what: `workers ${w.workersPerClient} -> ${workers}`, scenario: { ...s, workload: { ...w, workersPerClient: workers } } };
  }
  if (w.arrival.kind === 'open' && w.arrival.ratePerS > 0.1) {
    const ratePerS = w.arrival.ratePerS / 2;
    yield { what: `arrival ${w.arrival.ratePerS}/s -> ${ratePerS}/s`, scenario: { ...s, workload: { ...w, arrival: { kind: 'open', ratePerS } } } };
  }
  if (w.arrival.kind === 'closed' && w.arrival.users > 1) {
    const users = Math.max(1, Math.floor(w.arrival.users / 2));
    yield { what: `users ${w.arrival.users} -> ${users}`, scenario: { ...s, workload: { ...w, arrival: { ...w.arrival, users } } } };
  }
  // Shorter fault windows.
  for (let i = 0; i < s.faults.length; i++) {
    const f = s.faults[i];
    const shorter: FaultSpec | null =
      'durationUs' in f && f.durationUs >= 2_000
        ? { ...f, durationUs: Math.round(f.durationUs / 2) }
        : f.kind === 'primary-crash' && f.replicationStalledUs >= 2_000
          ? { ...f, replicationStalledUs: Math.round(f.replicationStalledUs / 2) }
          : null;
    if (shorter) yield { what: `halved the window of ${describeFault(f)}`, scenario: { ...s, faults: s.faults.map((x, j) => (j === i ? shorter : x)) } };
  }
  if (s.drainUs > 5 * SECOND_US) yield { what: `drain ${s.drainUs / SECOND_US}s -> 5s`, scenario: { ...s, drainUs: 5 * SECOND_US } };
}

function sizeOf(s: Scenario, requests: number, historyOps: number): ScenarioSize {
  return {
    faults: s.faults.length + s.randomFaults.length,
    clients: s.workload.clients,
    workersPerClient: s.workload.workersPerClient,
    skus: s.stock.length,
    requests,
    durationUs: s.durationUs,
    historyOps,
  };
}

export function shrink(original: Scenario, options: ShrinkOptions): ShrinkResult {
  const variant = original.variants.find((v) => v.name === options.variant);
  if (!variant) throw new NothingToShrink(`no variant named ${options.variant}`);
  const arena = new CheckerArena(); // the checkers of every run the shrink makes, one after another
  const first = runSimulated(original, variant, options.seed, { history: 'none', arena });
  const failure = options.failure !== undefined ? failureByKind(options.failure) : worstFailure(first.metrics);
  if (!failure) {
    throw new NothingToShrink(
      options.failure !== undefined ? `unknown failure "${options.failure}"` : `seed ${options.seed} of variant ${options.variant} breaks no invariant: nothing to shrink`,
    );
  }
  if (failure.read(first.metrics) <= 0) throw new NothingToShrink(`seed ${options.seed} of variant ${options.variant} shows no ${failure.kind}`);

  // The invariant as an expectation: `run` on the minimal scenario fails it (exit 1).
  const invariant: Expectation = {
    variant: variant.name, metric: failure.metric, statistic: 'run', condition: null, comparator: '==', value: 0,
    text: `${failure.metric} == 0`, written: 0, key: failure.metric, location: '',
  };
  let current: Scenario = {
    ...original,
    seed: options.seed,
    seeds: [options.seed],
    variants: [variant],
    faults: materialise(original, options.seed),
    randomFaults: [],
    expectations: [invariant],
  };
  const fails = (s: Scenario) => {
    const r = runSimulated(s, s.variants[0], options.seed, { history: 'none', arena });
    return { failed: failure.read(r.metrics) > 0, run: r };
  };
  let state = fails(current);
  if (!state.failed) throw new NothingToShrink('the run stops failing once its random faults are written out; please report this');
  const before = sizeOf(original, first.metrics.requests, first.historyLength);
  const maxAttempts = options.maxAttempts ?? 2_000;
  const steps: string[] = [];
  let attempts = 0;
  let fromFault = 0;
  for (let progress = true; attempts < maxAttempts; ) {
    if (!progress) {
      if (fromFault === 0) break; // a full pass found nothing smaller: locally minimal
      fromFault = 0;
    }
    progress = false;
    const v = state.run.violations.find((x) => x.kind === failure.kind) ?? state.run.violations[0];
    const failingAtUs = v?.timeUs ?? current.durationUs;
    const skuMatch = v ? SKU_OF_SUBJECT.exec(v.subject) : null;
    for (const c of candidates(current, failingAtUs, skuMatch ? Number(skuMatch[1]) : null, fromFault)) {
      if (++attempts > maxAttempts) break;
      const next = fails(c.scenario);
      if (!next.failed) continue;
      current = c.scenario;
      state = next;
      steps.push(c.what);
      fromFault = c.removedFault ?? 0;
      progress = true;
      break;
    }
  }
  return {
    minimal: current,
    failure,
    seed: options.seed,
    variant: variant.name,
    before,
    after: sizeOf(current, state.run.metrics.requests, state.run.historyLength),
    attempts,
    steps,
  };
}
