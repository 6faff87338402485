/**
 * One run: scenario + variant + seed -> history -> metrics. The composition root: the only
 * module that wires engine, world, variants, workload, faults, history and checker.
 * Stages (TigerBeetle's VOPR habit): inject faults while the load runs, heal everything,
 * let in-flight requests drain, then judge the history alone.
 */
import { dirname } from 'node:path';
import { Simulation } from '../engine/simulation.js';
import { PctPolicy, type PctSchedule } from '../engine/pct.js';
import { faultsOfRun, injectFault } from '../faults/index.js';
import { HistoryRecorder, type Retention } from '../history/recorder.js';
import { diagnosticRecord, FRESH_RECORDS, RecordBuilder } from '../history/records.js';
import type { History, Operation } from '../history/operation.js';
import type { CheckerArena } from '../checker/arena.js';
import { checkHistory, type CheckResult, type RunMetrics } from '../checker/check-history.js';
import { checkerAttempts, type Checker } from '../checker/checker.js';
import type { Failures } from '../checker/observers/diagnostics.js';
import type { Violation } from '../checker/violations.js';
import type { LockModuleSpec, VariantSpec } from '../spec/variant.js';
import type { Scenario } from '../spec/scenario.js';
import { factoryOptions } from '../own-code/module-options.js';
import { ownCodeLock } from '../own-code/protocol.js';
import { OwnCodeRuntime } from '../own-code/runtime.js';
import type { LockProtocol } from '../variants/lock-protocol.js';
import { quorumOf } from '../variants/locks/redlock.js';
import { GUARDS, LOCKS } from '../variants/registry.js';
import type { KeyChange } from '../world/redis/keyspace.js';
import type { RedisNode } from '../world/redis/node.js';
import { lockKeyAttribution } from '../own-code/key-attribution.js';
import { luaScriptRunner } from '../own-code/lua-runner.js';
import { lockKeyOf as requestLockKey } from '../variants/lock-key.js';
import { buildWorld } from './build-world.js';
import { runKit } from './run-harness.js';
import { explainNoProgress } from './no-progress-scenario-error.js';
import { followAnnouncements } from './reroute.js';

export interface RunResult {
  scenario: string;
  variant: VariantSpec;
  seed: number;
  metrics: RunMetrics;
  violations: Violation[];
  /** Failed and unknown requests by first error text, and the client processes' diagnostics. */
  failures: Failures;
  /** The operations kept (RunOptions.history): all of them by default. */
  history: History;
  /** Operations the run recorded, kept or not. */
  historyLength: number;
  /** Engine events processed: the figure `npm run bench` divides by wall time. */
  events: number;
  /** With RunOptions.order: the threads the schedule saw and the events it ran (PCT's n and steps). */
  ordering?: { threads: number; steps: number };
}

/** How often the drain loop checks whether every request has finished. */
const DRAIN_STEP_US = 100_000;

export interface RunOptions {
  /**
   * Which operations the result keeps: 'all' (the default), 'none' (memory bounded by the
   * run's concurrency, not its length: the checker judges the run as it goes), or
   * those a filter selects.
   */
  history?: Retention;
  /** Also told every operation, in history order, as it is recorded. */
  listen?: (op: Operation) => void;
  /** The reusable objects of this thread's checkers (checker/arena.ts); none: a fresh arena. */
  arena?: CheckerArena;
  /**
   * The order of events due at one instant: a PCT schedule (engine/pct.ts; explore's). Absent:
   * the order they were scheduled in, as every other command runs.
   */
  order?: PctSchedule;
}

/**
 * One run in this thread. A variant of user code needs a thread that can run it (started with
 * --experimental-vm-modules): its callers go through src/backends (default-backend.ts), whose
 * user-code worker calls this in such a thread.
 */
export function runVariant(scenario: Scenario, variant: VariantSpec, seed: number = scenario.seed, options: RunOptions = {}): RunResult {
  try {
    // The checker of the first attempt judges nearly every run; one that cannot (the history
    // named requests whose facts it had dropped) is followed by the next (checkerAttempts),
    // each with the same seed again (runs are deterministic). A listener hears the operations
    // once: those of the first run.
    let first = true;
    for (const checker of checkerAttempts(options.arena)) {
      const run = simulate(scenario, variant, seed, first ? options : { history: options.history, order: options.order }, checker);
      first = false;
      if (run !== null) return run;
    }
    throw new Error('the last checker of a run drops nothing and always judges');
  } catch (err) {
    throw explainNoProgress(err, scenario, variant, seed);
  }
}

/** One run judged by `checker`, or null when it withheld its verdict (and the history was not kept to replay). */
function simulate(scenario: Scenario, variant: VariantSpec, seed: number, options: RunOptions, checker: Checker): RunResult | null {
  const sim = new Simulation(seed, options.order ? new PctPolicy(options.order) : null);
  const keep = options.history ?? 'all';
  // A run that keeps no history and has no listener but the checker (which copies what it
  // keeps) refills one record per kind instead of allocating one per operation (records.ts).
  const records = keep === 'none' && options.listen === undefined ? RecordBuilder.recycling() : FRESH_RECORDS;
  const recorder = new HistoryRecorder(() => sim.nowUs, keep, records);
  recorder.listen((op) => checker.observe(op));
  if (options.listen) recorder.listen(options.listen);
  const lock = variant.lockModule ? moduleLock(sim, scenario, variant, recorder) : LOCKS.get(variant.lock);
  const guard = GUARDS.get(variant.guard);
  if (!lock || !guard) throw new Error(`variant ${variant.name}: unknown lock or guard`);
  const kit = runKit(sim, scenario, variant, recorder, lock, guard);
  const { nemesis } = kit;

  // User code may send scripts of its own, and the semaphores, the fair lock, the read-write lock,
  // RFencedLock and RedissonMultiLock send upstream's Lua text: they run in the Lua VM; the other
  // built-in protocols' scripts are native.
  const world = buildWorld(sim, scenario, kit.hooks, variant, variant.lockModule || lock.upstreamLua ? luaScriptRunner : null);
  // The Redis keys lock metrics read, as the request's key (a user module may declare `lock.keys`);
  // none for a lock whose keys name no one holder (a semaphore's counter, a read-write lock's hash).
  const lockKeyOf = lock.namesNoHolder ? noLockKey : lockKeyAttribution(variant.lockModule?.keys ?? null, requestKeysOf(scenario));
  for (const node of world.redis.nodes) node.observer = (n, change) => recordKeyState(recorder, n, change, lockKeyOf);
  kit.recordTransactions(world.database);
  world.redis.onFailover((oldPrimary, newPrimary) => {
    const decider = scenario.redis.topology === 'cluster' ? 'the cluster' : 'sentinel';
    nemesis('failover', 'event', newPrimary.name, `${decider} promoted ${newPrimary.name} in place of ${oldPrimary.name}`);
  });
  world.redis.onPhase((phase, target, detail) => nemesis(phase, 'event', target.name, detail));
  const reroute = followAnnouncements(world, scenario, nemesis);
  world.fabric.onChange = () => {
    world.redis.networkChanged();
    reroute();
  };

  kit.recordSetup(world.redis.primary.name, world.redis.masters.map((n) => n.name), world.redis.masters.length > 0 ? quorumOf(world.redis.masters.length) : 1);

  const workload = kit.createWorkload([...world.clients]);
  workload.start();

  const ctx = kit.faultContext(world);
  for (const fault of faultsOfRun(scenario, sim.random)) injectFault(fault, ctx);

  sim.run(scenario.durationUs);
  for (const heal of kit.heals) heal();
  const drainEndUs = scenario.durationUs + scenario.drainUs;
  while (workload.inFlight > 0 && sim.nowUs < drainEndUs) sim.run(Math.min(drainEndUs, sim.nowUs + DRAIN_STEP_US));
  kit.recordEnd();

  // A withheld verdict: the history, if it was kept, is replayed by a checker that drops nothing.
  const verdict: CheckResult | null = checker.finish() ?? (keep === 'all' ? checkHistory(recorder.ops) : null);
  if (verdict === null) return null;
  const { metrics, violations, failures } = verdict;
  const result: RunResult = { scenario: scenario.name, variant, seed, metrics, violations, failures, history: recorder.ops, historyLength: recorder.count, events: sim.eventCount };
  const ordering = sim.orderStats();
  if (ordering !== null) result.ordering = ordering;
  return result;
}

/** A user lock module's protocol for this run (src/own-code); what its code did outside any request (DiagnosticOp) goes into the history. */
function moduleLock(sim: Simulation, scenario: Scenario, variant: VariantSpec, recorder: HistoryRecorder): LockProtocol {
  const spec = variant.lockModule as LockModuleSpec;
  const runtime = new OwnCodeRuntime(
    sim,
    { file: spec.file, exportName: spec.export ?? 'default', baseDir: scenario.file === '' ? '' : dirname(scenario.file), timeZone: spec.timeZone, locale: spec.locale, client: spec.client },
    factoryOptions(variant, scenario.network.commandTimeoutUs),
    scenario.redis.topology,
    lockKeyAttribution(spec.keys ?? null, requestKeysOf(scenario)),
  );
  runtime.onDiagnostic = (client, kind, detail, frame) => recorder.record(diagnosticRecord(client, kind, detail, frame ?? undefined));
  return ownCodeLock(runtime, spec.module);
}

const noLockKey = (_key: string): string | null => null;

/** The run's lock keys, one per sku (variants/lock-key.ts lockKeyOf): lock-key patterns match these whole. */
function requestKeysOf(scenario: Scenario): ReadonlySet<string> {
  return new Set(scenario.stock.map((s) => requestLockKey(s.sku)));
}

function recordKeyState(recorder: HistoryRecorder, node: RedisNode, change: KeyChange, lockKeyOf: (key: string) => string | null): void {
  const key = lockKeyOf(change.key);
  if (key === null) return;
  const e = change.entry;
  const expiresAtUs = e && e.expireAtMs !== null ? node.clock.simTimeAt((e.expireAtMs + 1) * 1000) : null;
  recorder.recordKeyState(node.name, key, e ? e.holderTag : null, expiresAtUs, change.cause, change.byTag, change.previousHolder ?? null);
}

