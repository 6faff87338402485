/**
 * The user-code worker backend: own-code runs and module probes go to the own-code run worker
 * (run-worker.ts): one worker thread per process, started on first use with
 * --experimental-vm-modules, that runs the whole run (simulation and user code) in its thread.
 * The caller stays synchronous: it posts the run and waits once, waking at least once a second
 * to watch user code (own-code/watchdog.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Operation } from '../../history/operation.js';
import type { RunOptions, RunResult } from '../../runner/run.js';
import { ScenarioError, type ScenarioIssue } from '../../spec/errors.js';
import type { Scenario } from '../../spec/scenario.js';
import type { VariantSpec } from '../../spec/variant.js';
import { USER_CODE_WATCHDOG_MS, UserThreadEnded, UserThreadStuck, watchdogMs } from '../../own-code/user-thread.js';
import { endedDetail, endedWith, limitForEntryMs, stuckDetail, userCodeHeapMb, WATCH_BYTES, watchMemory, type WatchMemory } from '../../own-code/watchdog.js';

/**
 * The compiled worker. From the TypeScript sources (vitest) the built one in dist/ (`npm test`
 * builds first): a worker thread cannot load TypeScript.
 */
function workerUrl(name: 'run-worker' | 'supervisor'): URL {
  const here = new URL(`./${name}.js`, import.meta.url);
  if (!import.meta.url.endsWith('.ts')) return here;
  const built = new URL(`../../../dist/backends/worker/${name}.js`, import.meta.url);
  if (!existsSync(fileURLToPath(built))) throw new Error('lock-sim: own-code runs need the built worker: run `npm run build` first');
  return built;
}

interface Answer {
  seq: number;
  ok: boolean;
  value?: unknown;
  error?: { kind: 'scenario'; file: string; issues: ScenarioIssue[]; message: string } | { kind: 'error'; name: string; message: string };
}

class RunWorker {
  private readonly sab = new SharedArrayBuffer(WATCH_BYTES);
  private readonly memory: WatchMemory = watchMemory(this.sab);
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private readonly names = new Map<number, string>();
  private seq = 0;
  /**
   * The scenario the worker holds (it keeps the last one it was sent): a sweep or a seed range
   * runs one scenario object many times, and it crosses to the worker once. By identity: a
   * scenario is not changed in place once loaded (sweep points are new objects).
   */
  private heldScenario: Scenario | null = null;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    // The supervisor starts the run worker with a heap limit and writes when it ends (supervisor.ts).
    this.worker = new Worker(workerUrl('supervisor'), {
      execArgv: [],
      workerData: { sab: this.sab, port: port2, runWorker: workerUrl('run-worker').href, heapMb: userCodeHeapMb() },
      transferList: [port2],
    });
    this.worker.unref();
    this.port.unref();
    // Ended between requests (seen when this thread's event loop runs): the next request starts another.
    this.worker.on('exit', () => {
      if (shared === this) shared = null;
    });
  }

  /** The thread ended (its 'exit' path wrote so) and this thread has not yet seen the 'exit' event. */
  ended(): boolean {
    return endedWith(this.memory) !== null;
  }

  /** The scenario field of a run request: absent when the worker holds this one already. */
  scenarioField(scenario: Scenario): { scenario?: Scenario } {
    if (this.heldScenario === scenario) return {};
    this.heldScenario = scenario;
    return { scenario };
  }

  /**
   * Posts a request and waits for its answer; UserThreadStuck (the worker ended) when user
   * code holds on past the watchdog; UserThreadEnded when the worker's thread ended while
   * this one waited (its 'exit' path writes a word in shared memory and wakes this thread).
   */
  request(message: object): unknown {
    const seq = ++this.seq;
    this.port.postMessage({ ...message, seq });
    const i32 = this.memory.i32;
    let limitMs = watchdogMs;
    let watchedEntry = -1;
    let since = 0;
    for (;;) {
      const seen = Atomics.load(i32, 0);
      if (seen === seq) break;
      const exitCode = endedWith(this.memory);
      if (exitCode !== null) {
        this.drainNames();
        const detail = endedDetail(this.memory, (id) => this.names.get(id), exitCode);
        if (shared === this) shared = null;
        throw new UserThreadEnded(detail);
      }
      if (Atomics.load(i32, 2) === 1) {
        const entry = Atomics.load(i32, 1);
        const now = Date.now(); // lock-sim: wall-clock ok, a watchdog on user code, not part of any result
        if (entry !== watchedEntry) {
          watchedEntry = entry;
          since = now;
          limitMs = limitForEntryMs(this.memory, watchdogMs, USER_CODE_WATCHDOG_MS);
        } else if (now - since > limitMs) {
          this.drainNames();
          const detail = stuckDetail(this.memory, (id) => this.names.get(id), limitMs);
          if (shared === this) shared = null;
          void this.worker.terminate();
          throw new UserThreadStuck(limitMs, detail);
        }
      }
      Atomics.wait(i32, 0, seen, Math.min(1000, watchdogMs / 2));
    }
    for (;;) {
      const got = receiveMessageOnPort(this.port);
      if (!got) continue; // posted before the flag was written: it is on its way
      const m = got.message as Answer | { name: [number, string] };
      if ('name' in m) {
        this.names.set(m.name[0], m.name[1]);
        continue;
      }
      if (m.seq !== seq) continue;
      if (m.ok) return m.value;
      const e = m.error!;
      if (e.kind === 'scenario') {
        const err = new ScenarioError(e.file, e.issues);
        err.message = e.message;
        throw err;
      }
      const err = new Error(e.message);
      err.name = e.name;
      throw err;
    }
  }

  private drainNames(): void {
    for (let got = receiveMessageOnPort(this.port); got; got = receiveMessageOnPort(this.port)) {
      const m = got.message as { name?: [number, string] };
      if (m.name) this.names.set(m.name[0], m.name[1]);
    }
  }
}

let shared: RunWorker | null = null;
const runWorker = (): RunWorker => {
  if (shared?.ended()) shared = null;
  return (shared ??= new RunWorker());
};

/** An own-code run, done by the run worker; the same result the in-process backend gives in a thread that can run user code. */
export function runInRunWorker(scenario: Scenario, variant: VariantSpec, seed: number, options: RunOptions): RunResult {
  const keep = options.history ?? 'all';
  const file = variant.lockModule!.file;
  let answer: { result: RunResult; listened: Operation[] | null };
  try {
    const worker = runWorker();
    answer = worker.request({ op: 'run', ...worker.scenarioField(scenario), variant, seed, history: keep === 'none' ? 'none' : 'all', listen: options.listen !== undefined, order: options.order ?? null }) as typeof answer;
  } catch (err) {
    if (!(err instanceof UserThreadStuck) && !(err instanceof UserThreadEnded)) throw err;
    const error = new ScenarioError(file, [{ path: [], message: err.detail }]);
    error.message = `${file}: ${err.detail}`; // the module is the place: no field path
    throw error;
  }
  if (answer.listened && options.listen) for (const op of answer.listened) options.listen(op);
  const result = answer.result;
  return { ...result, variant, history: typeof keep === 'function' ? result.history.filter(keep) : result.history };
}

/** A module probe (probe.ts), done by the run worker. */
export function probeInWorker(request: { file: string; exportName: string; connections: number; options: Record<string, unknown>; baseDir: string; timeZone: string; locale: string; client: string }): unknown {
  return runWorker().request({ op: 'probe', ...request });
}
