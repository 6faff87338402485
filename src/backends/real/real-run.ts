/**
 * One run against real Redis: the scenario's topology started from redis-server, the same
 * workload, request flow, protocols, database model and checker as a simulated run, in real
 * time (see realtime.ts). Stages as in runner/run.ts: inject faults while the load runs, heal
 * everything, let in-flight requests drain, stop every process, judge the history.
 *
 * The servers' view of lock keys (key-state records) comes from keyspace notifications of
 * the real servers (key-watch.ts), so lock-lost, foreign unlocks, stuck and orphan time are
 * judged as in a simulated run, at the resolution docs/guides/real-backend.md states.
 */
import { Redis } from 'ioredis';
import { checkHistory } from '../../checker/check-history.js';
import { Simulation } from '../../engine/simulation.js';
import { faultsOfRun } from '../../faults/index.js';
import { factoryOptions } from '../../own-code/module-options.js';
import { ownCodeLock } from '../../own-code/protocol.js';
import { HistoryRecorder } from '../../history/recorder.js';
import { renewRecord } from '../../history/records.js';
import type { RunResult } from '../../runner/run.js';
import { runKit } from '../../runner/run-harness.js';
import type { Scenario } from '../../spec/scenario.js';
import type { VariantSpec } from '../../spec/variant.js';
import { quorumOf } from '../../variants/locks/redlock.js';
import { GUARDS, LOCKS } from '../../variants/registry.js';
import { Database } from '../../world/database.js';
import { Dependency } from '../../world/dependency.js';
import { ClientHost } from '../../world/client-host.js';
import { CLIENT_MODELS, poolSizeOf } from '../../world/client-model.js';
import type { ClientWorld } from '../../world/world.js';
import { RealDeployment } from './deployment.js';
import { KeyWatch } from './key-watch.js';
import { RealOwnCodeRuntime } from './real-own-code.js';
import { monotonicClock } from './monotonic.js';
import { RealTransport } from './real-transport.js';
import { injectRealFault, refuseUnreal } from './real-faults.js';
import { RealTimeDriver } from './realtime.js';

export interface RealRunOptions {
  /** The redis-server binary (checked by the caller). */
  redisServer: string;
}

/** How often the drain loop checks whether every request has finished. */
const DRAIN_STEP_US = 100_000;

export async function runVariantReal(scenario: Scenario, variant: VariantSpec, seed: number, options: RealRunOptions): Promise<RunResult> {
  const sim = new Simulation(seed);
  const faults = faultsOfRun(scenario, sim.random);
  refuseUnreal(scenario, faults);
  const driver = new RealTimeDriver(sim);
  const recorder = new HistoryRecorder(() => sim.nowUs);
  const clientNames = Array.from({ length: scenario.workload.clients }, (_, i) => `client-${i + 1}`);
  const persistent = new Set(faults.flatMap((f) => (f.kind === 'redis-restart' && f.persistence === 'always' ? [f.node] : [])));
  const deployment = new RealDeployment(scenario, options.redisServer, clientNames, persistent, sim.random);
  const clients: ClientHost<RealTransport>[] = [];
  let watcher: Redis | null = null;
  const module = variant.lockModule;
  // A semaphore's counter names no holder, nor does a read-write lock's hash (readers and a writer):
  // no key is watched for them (runner/run.ts records none either).
  const keyWatch = new KeyWatch(deployment, driver, (op) => recorder.record(op), module?.keys ?? null, !(LOCKS.get(variant.lock)?.namesNoHolder ?? false));
  const userCode = module
    ? new RealOwnCodeRuntime(module.file, module.export ?? 'default', factoryOptions(variant, scenario.network.commandTimeoutUs), scenario.redis.topology === 'independent', driver, keyWatch, module.client, module.keys ?? null)
    : null;
  // Until the records end: a module's stray error is recorded as the simulated runtime records it (runner/run.ts moduleLock).
  let runEnded = false;
  if (userCode) {
    userCode.onUncaught = (client, message) => {
      if (!runEnded) recorder.record(renewRecord(client, 'fail', 'renew', client, `uncaught in lock module: ${message}`));
    };
  }
  const lock = userCode && module ? ownCodeLock(userCode, module.module) : LOCKS.get(variant.lock);
  const guard = GUARDS.get(variant.guard);
  if (!lock || !guard) throw new Error(`variant ${variant.name}: unknown lock or guard`);
  try {
    await deployment.start();
    await keyWatch.start();
    const kit = runKit(sim, scenario, variant, recorder, lock, guard);
    kit.onCrash = (client) => userCode?.crashed(client);
    const { nemesis, hooks } = kit;

    const database = new Database({ statementTime: scenario.database.statementTime }, sim.random.fork('database'));
    kit.recordTransactions(database);
    for (const row of scenario.stock) database.addStock(row.sku, row.available);
    const dependencies = new Map(scenario.dependencies.map((d) => [d.name, new Dependency(d.name, d.latency, sim.random.fork(`dependency/${d.name}`))]));
    const topology = scenario.redis.topology;
    // A lock module's clients are its own (real-own-code.ts); the process's transport then serves ioredis's model.
    const model = CLIENT_MODELS[variant.client ?? 'ioredis'];
    const redisPoolSize = poolSizeOf(model, variant.clientPool);
    for (const name of clientNames) {
      clients.push(
        new ClientHost(
          name,
          sim,
          { poolSize: scenario.workload.poolPerClient, commandTimeoutUs: scenario.network.commandTimeoutUs, replicated: topology === 'sentinel', redisPoolSize },
          (host) => new RealTransport(host, model, redisPoolSize, deployment, driver, scenario, sim.random),
          database,
          dependencies,
          hooks,
        ),
      );
    }
    for (const c of clients) c.transport.keyWatch = keyWatch;

    await Promise.all(clients.map((c) => c.transport.warmUp(scenario.workload.workersPerClient)));
    await userCode?.warmUp(clients);

    if (topology === 'sentinel') {
      // Sentinel's announcement (+switch-master <name> <old ip> <old port> <new ip> <new port>,
      // redis 7.0.15 sentinel.c sentinelFailoverSwitchToPromotedSlave) is the failover event.
      watcher = new Redis({ host: '127.0.0.1', port: deployment.sentinels[0].options.port, lazyConnect: false });
      watcher.on('error', () => undefined);
      await watcher.subscribe('+switch-master');
      watcher.on('message', (_channel: string, message: string) => {
        const parts = message.split(' ');
        const from = deployment.nodeAtAnnouncedPort(Number(parts[2]));
        const to = deployment.nodeAtAnnouncedPort(Number(parts[4]));
        driver.inject(() => {
          if (!to) return;
          deployment.primaryName = to.name;
          keyWatch.promoted(to.name);
          nemesis('failover', 'event', to.name, `sentinel promoted ${to.name} in place of ${from?.name ?? parts[2]}`);
        });
      });
    }

    // The records begin: servers up, clients connected; the run's time begins at driver.start.
    kit.recordSetup('redis-0', topology === 'independent' ? deployment.nodes.map((n) => n.name) : [], topology === 'independent' ? quorumOf(deployment.nodes.length) : 1);
    const workload = kit.createWorkload([...clients]);

    // Client faults reuse the simulator's injectors, which see clients, database and
    // dependencies; the model's Redis and network are not part of a real run.
    const world: ClientWorld = { sim, database, dependencies, clients };
    const ctx = kit.faultContext(world);
    const background = (step: Promise<void>): void => {
      step.catch((err: unknown) => driver.fail(err));
    };
    const allHosts = (): string[] => [...clientNames, ...deployment.nodes.map((n) => n.name), 'sentinel'];
    for (const fault of faults) injectRealFault(fault, ctx, deployment, { background, allHosts });

    // Real time begins here: the first event is due at once.
    driver.start(monotonicClock());
    workload.start();
    await driver.runUntil(scenario.durationUs);
    for (const heal of kit.heals) heal();
    const drainEndUs = scenario.durationUs + scenario.drainUs;
    while (workload.inFlight > 0 && sim.nowUs < drainEndUs) await driver.runUntil(Math.min(drainEndUs, sim.nowUs + DRAIN_STEP_US));
    kit.recordEnd();
    runEnded = true;
    const { metrics, violations, failures } = checkHistory(recorder.ops);
    return { scenario: scenario.name, variant, seed, metrics, violations, failures, history: recorder.ops, historyLength: recorder.count, events: sim.eventCount };
  } finally {
    for (const c of clients) c.transport.dispose();
    userCode?.dispose();
    keyWatch.close();
    watcher?.disconnect();
    try {
      await deployment.stop();
    } finally {
      userCode?.detach();
    }
  }
}
