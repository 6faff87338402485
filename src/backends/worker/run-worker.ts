/**
 * The own-code run worker: a worker thread started with --experimental-vm-modules (which
 * `vm.SourceTextModule` needs, user-code.ts) that runs whole own-code runs, simulation and
 * user code in its one thread, and probes lock modules. The thread that asked waits once per
 * run (dispatch.ts), not once per call into user code. This thread can run user code, so its
 * runs are in-process (backends/in-process.ts).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { PctSchedule } from '../../engine/pct.js';
import type { Operation } from '../../history/operation.js';
import type { RunOptions } from '../../runner/run.js';
import type { Scenario } from '../../spec/scenario.js';
import type { VariantSpec } from '../../spec/variant.js';
import { ScenarioError } from '../../spec/errors.js';
import { beginRun, endRun, UserCode } from '../../own-code/user-code.js';
import { enterUserCode, installWatch, leaveUserCode, markEnded, watchMemory } from '../../own-code/watchdog.js';
import { inProcess } from '../in-process.js';

// `vm.SourceTextModule` warns once that VM Modules are experimental: that one warning says
// nothing to a lock-sim user; every other warning passes.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === 'string' ? warning : warning.message;
  const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type ?? (warning as Error).name;
  if (type === 'ExperimentalWarning' && /VM Modules/.test(text)) return;
  (emitWarning as (...a: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;

// An exception nothing caught must not end the thread the caller waits on: it ends the request
// with an error instead (a user module's unhandled rejections are recorded: user-code.ts).
let current: number | null = null;
const port = (workerData as { port: MessagePort }).port;
const memory = watchMemory((workerData as { sab: SharedArrayBuffer }).sab);
installWatch(memory, (id, name) => port.postMessage({ name: [id, name] }));
void parentPort;

interface RunRequest {
  op: 'run';
  /** Absent: the scenario of the previous run request (dispatch.ts sends a scenario once). */
  scenario?: Scenario;
  variant: VariantSpec;
  seed: number;
  history: 'all' | 'none';
  listen: boolean;
  /** RunOptions.order: explore's same-instant schedule (null: the scheduling order). */
  order: PctSchedule | null;
}

interface ProbeRequest {
  op: 'probe';
  file: string;
  exportName: string;
  connections: number;
  options: Record<string, unknown>;
  baseDir: string;
  timeZone: string;
  locale: string;
  client: 'ioredis' | 'node-redis' | 'node-redis@4' | 'node-redis@5';
}

/**
 * Runs `fn` in an immediate, outside any promise continuation: user code's continuations run
 * in the microtask checkpoints own code makes (user-code.ts), which V8 skips inside one, and
 * code after an `await` runs inside one.
 */
function inMacrotask<T>(fn: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    setImmediate(() => { // lock-sim: wall-clock ok (the run worker's event loop, no clock read: runs fn next)
      try {
        resolve(fn());
      } catch (err) {
        reject(err);
      }
    });
  });
}

let heldScenario: Scenario | null = null;

async function run(req: RunRequest): Promise<unknown> {
  if (req.scenario) heldScenario = req.scenario;
  const scenario = heldScenario;
  if (!scenario) throw new Error('lock-sim: an own-code run request without a scenario, and none held');
  const listened: Operation[] = [];
  const options: RunOptions = { history: req.history };
  if (req.order !== null) options.order = req.order;
  if (req.listen) options.listen = (op) => listened.push(op);
  // Each simulated client process gets a realm of its own when it starts (user-code.ts).
  beginRun();
  let ok = false;
  try {
    const result = await inMacrotask(() => inProcess.run(scenario, req.variant, req.seed, options));
    ok = true;
    return { result, listened: req.listen ? listened : null };
  } finally {
    // Ended normally: each process's context may serve another (a run that threw leaves them).
    endRun(ok);
  }
}

async function probe(req: ProbeRequest): Promise<unknown> {
  enterUserCode('probe', null, null, 0);
  try {
    return await inMacrotask(() => {
      const u = UserCode.forProcess(req.file, false);
      u.load({ client: 0, name: 'probe', incarnation: 0, seed: 1, baseDir: req.baseDir, timeZone: req.timeZone, locale: req.locale }, 0);
      u.call({ op: 'probe', client: 0, exportName: req.exportName, connections: req.connections, options: req.options, family: req.client });
      return u.call({ op: 'probe-result', client: 0 }).result;
    });
  } finally {
    leaveUserCode();
  }
}

function serialize(err: unknown): object {
  if (err instanceof ScenarioError) return { kind: 'scenario', file: err.file, issues: err.issues, message: err.message };
  const e = err as { name?: string; message?: string };
  return { kind: 'error', name: e?.name ?? 'Error', message: e?.message ?? String(err) };
}

// The thread is ending (process.exit in user code ends this thread, not the process): the
// caller waits for an answer that will not come, so it is told (dispatch.ts).
process.on('exit', (code) => markEnded(code));

process.on('uncaughtException', (err) => {
  if (current === null) return;
  const seq = current;
  current = null;
  port.postMessage({ seq, ok: false, error: serialize(err) });
  Atomics.store(memory.i32, 0, seq);
  Atomics.notify(memory.i32, 0);
});

port.on('message', (msg: (RunRequest | ProbeRequest) & { seq: number }) => {
  current = msg.seq;
  void (async () => {
    let answer: object;
    try {
      answer = { ok: true, value: msg.op === 'run' ? await run(msg) : await probe(msg) };
    } catch (err) {
      answer = { ok: false, error: serialize(err) };
    }
    if (current !== msg.seq) return;
    current = null;
    port.postMessage({ seq: msg.seq, ...answer });
    Atomics.store(memory.i32, 0, msg.seq);
    Atomics.notify(memory.i32, 0);
  })();
});
