/**
 * What a simulated run (run.ts) and a real run (real/real-run.ts) share around their worlds:
 * the client hooks (watchdog notes, crash points), the nemesis records, client crashes and
 * restarts, the database's transaction records, the setup and end records, the workload and
 * the fault context with its heals. Each run builds its own world (the model's Redis and
 * network, or real processes behind proxies) and drives time its own way (the engine alone,
 * or in real time); the rest is this one builder, so the two cannot drift apart.
 */
import type { Simulation } from '../engine/simulation.js';
import type { FaultContext } from '../faults/index.js';
import type { HistoryRecorder } from '../history/recorder.js';
import type { Scenario } from '../spec/scenario.js';
import type { VariantSpec } from '../spec/variant.js';
import type { Arrival } from '../spec/workload.js';
import type { Guard } from '../variants/guard.js';
import type { LockProtocol } from '../variants/lock-protocol.js';
import { Workload } from '../workload/workload.js';
import type { ClientHooks, ClientHost } from '../world/client-host.js';
import type { Database } from '../world/database.js';
import type { ClientWorld } from '../world/world.js';

type Nemesis = (fault: string, phase: 'start' | 'end' | 'event', target: string, detail: string) => void;

interface RunKit {
  readonly hooks: ClientHooks;
  readonly nemesis: Nemesis;
  /** kill -9 of a client process: recorded, its requests lost. */
  crashClient(client: ClientHost, detail: string): void;
  /** Called after a client process is killed (the real backend closes a user module's sockets). */
  onCrash: ((client: ClientHost) => void) | null;
  /** Records the database's transaction ends. */
  recordTransactions(database: Database): void;
  /** The run's first record: stock, primary, Redlock's masters and quorum. */
  recordSetup(primary: string, lockNodes: string[], quorum: number): void;
  /** Creates the workload over `clients` (not started). */
  createWorkload(clients: ClientHost[]): Workload;
  /** The context the fault injectors act through; `heals` ends every fault still on. */
  faultContext<W extends ClientWorld>(world: W): FaultContext<W>;
  readonly heals: Array<() => void>;
  recordEnd(): void;
}

export function runKit(sim: Simulation, scenario: Scenario, variant: VariantSpec, recorder: HistoryRecorder, lock: LockProtocol, guard: Guard): RunKit {
  const armed: Array<{ client: ClientHost; point: string; fromUs: number; onCrash: () => void; fired: boolean }> = [];
  let workload: Workload | null = null;
  const heals: Array<() => void> = [];

  const nemesis: Nemesis = (fault, phase, target, detail) => {
    recorder.recordFault(fault, phase, target, detail);
  };
  const kit: RunKit = {
    nemesis,
    onCrash: null,
    heals,
    crashClient(client, detail) {
      if (!client.up) return;
      client.crash();
      kit.onCrash?.(client);
      nemesis('crash', 'start', client.name, detail);
      workload?.clientCrashed(client);
    },
    hooks: {
      note(_client, thread, f, ok, detail) {
        recorder.recordRenew(thread.name, ok ? 'ok' : 'fail', f, thread.requestTag, detail);
      },
      crashPoint(client, _thread, point) {
        const trap = armed.find((a) => !a.fired && a.client === client && a.point === point && sim.nowUs >= a.fromUs);
        if (!trap) return false;
        trap.fired = true;
        kit.crashClient(client, `kill -9 at ${point}`);
        trap.onCrash();
        return true;
      },
    },
    recordTransactions(database) {
      database.onTransactionEnd = (end) => {
        recorder.recordTxn(end.requestTag, end.owner, end.txn, end.outcome, end.cause);
      };
    },
    recordSetup(primary, lockNodes, quorum) {
      recorder.record({
        index: 0,
        timeUs: 0,
        process: 'setup',
        type: 'info',
        f: 'setup',
        stock: scenario.stock.map((s) => ({ ...s })),
        primary,
        lockNodes,
        quorum,
        durationUs: scenario.durationUs,
        lockOwner: lock.reentrantByThread ? 'thread' : 'request',
        ...(variant.permits === undefined ? {} : { permits: variant.permits }),
        ...(lock.fair ? { fair: true } : {}),
        ...(lock.readWrite ? { readWrite: true } : {}),
        ...(takesCarts(scenario.workload.arrival) ? { multiLock: true } : {}),
      });
    },
    createWorkload(clients) {
      workload = new Workload(
        sim,
        scenario.workload,
        clients,
        scenario.stock.map((s) => s.sku),
        {
          lock,
          guard,
          steps: scenario.workload.steps,
          recorder,
          lockParams: variant,
          uniqueOrderKey: variant.uniqueOrderKey,
          unlockAlways: variant.unlockAlways,
          conflictRetry: { retries: variant.casRetries, backoffMs: variant.casBackoffMs, jitterMs: variant.casJitterMs },
          fenceCheck: variant.fenceCheck,
        },
        scenario.durationUs,
      );
      return workload;
    },
    faultContext<W extends ClientWorld>(world: W): FaultContext<W> {
      return {
        world,
        record: nemesis,
        healAfter(afterUs, heal) {
          let healed = false;
          const once = (): void => {
            if (healed) return;
            healed = true;
            heal();
          };
          if (afterUs !== null) sim.schedule(afterUs, once);
          heals.push(once);
        },
        crashClient: (client, detail) => kit.crashClient(client, detail),
        restartClient(client) {
          if (client.up) return;
          client.restart();
          workload?.startWorkers(client);
          nemesis('crash', 'end', client.name, 'process restarted');
        },
        armCrashPoint(client, point, fromUs, onCrash) {
          armed.push({ client, point, fromUs, onCrash, fired: false });
        },
      };
    },
    recordEnd() {
      recorder.record({ index: 0, timeUs: 0, process: 'setup', type: 'info', f: 'end' });
    },
  };
  return kit;
}

/** Whether a workload's requests take multi-locks: a script with a cart (only a multi-lock's variants may have one: scenario/resolve.ts). */
function takesCarts(arrival: Arrival): boolean {
  return arrival.kind === 'script' && arrival.requests.some((r) => r.cart !== undefined);
}
