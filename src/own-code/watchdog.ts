/**
 * The watchdog on user code, across the own-code run worker and the thread that waits for
 * it. User code runs in the worker's own thread, where a busy loop cannot be interrupted by
 * a timer, and vm's per-call `timeout` costs a watchdog thread per call (measured on Node
 * 20.20.2: 119 us per delivery against 7.6 us without; and a timeout that fires inside the
 * context's microtask drain aborted the process). So the worker notes in shared memory when
 * it enters and leaves user code, and what it runs (op, client, key, simulated time); the
 * waiting thread, which wakes at least once a second, ends the worker when the same entry
 * has not left within the limit, and names what was running.
 */
import { formatMicros } from '../engine/time.js';

/** The ops a call into user code can be, by index in shared memory. */
const OPS = ['start-run', 'client', 'acquire', 'release', 'fire', 'reply', 'message', 'status', 'retry', 'kill', 'probe', 'probe-result', 'load'] as const;
type WatchedOp = (typeof OPS)[number];

/**
 * Shared memory layout: Int32 [0] answer, [1] entries, [2] inside (0/1), [3] op, [4] client
 * name id, [5] key id, [6] the worker ended (0/1), [7] its exit code; Float64 at byte 32:
 * simulated us.
 */
export const WATCH_BYTES = 40;
const ENDED = 6;
const EXIT_CODE = 7;

export interface WatchMemory {
  i32: Int32Array;
  f64: Float64Array;
}

export function watchMemory(sab: SharedArrayBuffer): WatchMemory {
  return { i32: new Int32Array(sab, 0, 8), f64: new Float64Array(sab, 32, 1) };
}

/** The worker's side: where it writes, and how it tells the waiting thread a new name (posted once per name). */
let memory: WatchMemory | null = null;
let postName: ((id: number, name: string) => void) | null = null;
const names = new Map<string, number>();

export function installWatch(m: WatchMemory, post: (id: number, name: string) => void): void {
  memory = m;
  postName = post;
}

function intern(s: string): number {
  let id = names.get(s);
  if (id === undefined) {
    id = names.size + 1;
    names.set(s, id);
    postName?.(id, s);
  }
  return id;
}

export function enterUserCode(op: string, client: string | null, key: string | null, simUs: number): void {
  const m = memory;
  if (!m) return;
  m.i32[3] = OPS.indexOf(op as WatchedOp);
  m.i32[4] = client === null ? 0 : intern(client);
  m.i32[5] = key === null ? 0 : intern(key);
  m.f64[0] = simUs;
  Atomics.add(m.i32, 1, 1);
  Atomics.store(m.i32, 2, 1);
}

export function leaveUserCode(): void {
  if (memory) Atomics.store(memory.i32, 2, 0);
}

/**
 * The worker's side, from its 'exit' event: the thread is ending (process.exit in user code,
 * which in a worker thread ends that thread, or an error that ended it). Wakes the waiting
 * thread, which would otherwise wait for an answer that never comes.
 */
export function markEnded(exitCode: number): void {
  if (memory) markEndedIn(memory, exitCode);
}

/** The exit code the supervisor (backends/worker/supervisor.ts) writes for a run worker that ran out of heap. */
export const OUT_OF_MEMORY = -2;

/** Writes that the run worker ended (from it, or from its supervisor), once: the first code stays. */
export function markEndedIn(m: WatchMemory, exitCode: number): void {
  if (Atomics.load(m.i32, ENDED) === 1) return;
  Atomics.store(m.i32, EXIT_CODE, exitCode);
  Atomics.store(m.i32, ENDED, 1);
  Atomics.notify(m.i32, 0);
}

/** The run worker's heap limit (MB): generous for any honest run; LOCK_SIM_USER_CODE_HEAP_MB sets it. */
export function userCodeHeapMb(): number {
  const mb = Number(process.env.LOCK_SIM_USER_CODE_HEAP_MB);
  return Number.isFinite(mb) && mb >= 16 ? mb : 2048;
}

/** The waiting thread's side: the worker's exit code if it ended, else null. */
export function endedWith(m: WatchMemory): number | null {
  return Atomics.load(m.i32, ENDED) === 1 ? Atomics.load(m.i32, EXIT_CODE) : null;
}

/** The waiting thread's side: the worker ended while it waited, as a sentence (the file is the module). */
export function endedDetail(m: WatchMemory, nameOf: (id: number) => string | undefined, exitCode: number): string {
  const [what, at] = whatRan(m, nameOf);
  const during = Atomics.load(m.i32, 2) === 1 ? ` during ${what}${at}` : '';
  if (exitCode === OUT_OF_MEMORY) {
    return `ran out of memory${during}: the run worker's heap limit is ${userCodeHeapMb()} MB (LOCK_SIM_USER_CODE_HEAP_MB); a lock module that keeps what it allocates (an ever-growing array, a cache without bound) fills it`;
  }
  return `the own-code run worker ended (exit code ${exitCode})${during}: user code must not call process.exit (in a worker thread it ends the thread that runs the simulation)`;
}

/**
 * The limit for what user code runs now (the waiting thread's side): loading a module reads and
 * compiles its packages and builds the simulated process's sandbox, work that grows with the
 * package and with the machine's load, so a load gets at least the default watchdog even where
 * a caller lowered the limit for calls (a test of a busy acquire, LOCK_SIM_USER_CODE_WATCHDOG_MS).
 */
export function limitForEntryMs(m: WatchMemory, callLimitMs: number, defaultLimitMs: number): number {
  const op = OPS[m.i32[3]] ?? 'load';
  const loading = op === 'load' || op === 'start-run' || op === 'probe' || op === 'probe-result';
  return loading ? Math.max(callLimitMs, defaultLimitMs) : callLimitMs;
}

/** The waiting thread's side: what was running, as a sentence (the file is the module). */
export function stuckDetail(m: WatchMemory, nameOf: (id: number) => string | undefined, limitMs: number): string {
  const [what, at] = whatRan(m, nameOf);
  return `${what} did not return control within ${limitMs / 1000} s of real time${at}: a busy loop (simulated time stands still while user code runs, so \`while (Date.now() < t)\` never ends) or a wait on real I/O`; // lock-sim: wall-clock ok (a message naming Date.now; reads no clock)
}

/** What user code was running at the last entry: the call and its client, and ', at simulated time T' (or ''). */
function whatRan(m: WatchMemory, nameOf: (id: number) => string | undefined): [string, string] {
  const op = OPS[m.i32[3]] ?? 'load';
  const key = JSON.stringify(nameOf(m.i32[5]) ?? '');
  const what: Record<WatchedOp, string> = {
    'start-run': 'loading the module',
    load: 'loading the module',
    probe: 'loading the module or calling its factory',
    'probe-result': 'loading the module or calling its factory',
    client: 'the factory',
    acquire: `acquire(${key})`,
    release: `release(handle, ${key})`,
    fire: 'a timer callback (setTimeout/setInterval)', // lock-sim: wall-clock ok (names the user's timer functions; reads no clock)
    reply: 'the code a command reply resumed',
    message: "a 'message' event handler",
    status: 'a connection event handler',
    retry: 'retryStrategy',
    kill: 'the end of a killed client',
  };
  const clientName = nameOf(m.i32[4]);
  const client = clientName === undefined ? '' : ` of ${clientName}`;
  const at = op === 'load' || op === 'probe' || op === 'probe-result' ? '' : `, at simulated time ${formatMicros(m.f64[0])}`;
  return [`${what[op]}${client}`, at];
}
