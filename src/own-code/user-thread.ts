/**
 * The one thread per process that runs user lock modules (worker-main.ts), and the
 * synchronous call into it: post a message, block on a shared flag until the thread has
 * run everything the message set off, read its answer. The simulation stays synchronous;
 * user code runs only inside these calls, one at a time.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { ownCodeWorkerMain } from './worker-main.js';

/** What the thread answers: the result of the message, and what user code asked for meanwhile. */
export interface ThreadAnswer {
  result: unknown;
  actions: WorkerAction[];
}

/**
 * The ioredis options of a user client that the connection model reads (ioredis 5.11.1
 * RedisOptions.ts): `retry` is 'default' for ioredis' own retryStrategy (computed here, no
 * call into the thread), 'custom' for the user's (called in the thread), 'none' when it is
 * not a function (no reconnect).
 */
export interface ClientConfig {
  maxRetries: number | null;
  offlineQueue: boolean;
  retry: 'default' | 'custom' | 'none';
  /** ioredis' Sentinel `failoverDetector` (default false): reconnect when the Sentinels announce a new master. */
  failoverDetector: boolean;
}

export type WorkerAction =
  | { kind: 'cmd'; id: number; client: number; conn: number; args: string[]; timeoutMs: number | null; tag: string; cfg: ClientConfig }
  | { kind: 'batch'; id: number; client: number; conn: number; commands: string[][]; timeoutMs: number | null; tag: string; cfg: ClientConfig }
  | { kind: 'reconnect'; client: number; conn: number }
  | { kind: 'timer'; id: number; client: number; ms: number }
  | { kind: 'clear'; id: number }
  | { kind: 'settled'; call: number; ok: true; value: number | boolean | null }
  | { kind: 'settled'; call: number; ok: false; error: { message: string; name: string; timeout: boolean } }
  | { kind: 'subscribe'; client: number; conn: number; channel: string; sub: number }
  | { kind: 'unsubscribe'; client: number; sub: number; channel: string }
  | { kind: 'uncaught'; client: number; error: { message: string; name: string } };

/**
 * A thread that does not answer within this many milliseconds of real time is taken to be
 * stuck (user code in a busy loop, or waiting on real I/O). The slowest call of the shipped
 * scenarios is the first, which loads the module and its packages (fengari, redlock: well under
 * a second on the project's machine); 60 s is far above any honest call even on a loaded CI
 * machine, and short enough that a stuck run ends while someone still waits for it.
 * lock-sim: wall-clock ok, a watchdog on the user's code, not part of any result.
 */
export const USER_CODE_WATCHDOG_MS = 60_000;
let watchdogMs = USER_CODE_WATCHDOG_MS;

/** Sets the watchdog (tests lower it to keep a busy-loop test fast); returns the previous limit. */
export function setUserCodeWatchdogMs(ms: number): number {
  const previous = watchdogMs;
  watchdogMs = ms;
  return previous;
}

/** The thread did not answer within the watchdog: user code is stuck. The thread is gone; the next call starts a new one. */
export class UserThreadStuck extends Error {
  constructor(readonly limitMs: number) {
    super(`user lock code did not return control within ${limitMs / 1000} s of real time`);
    this.name = 'UserThreadStuck';
  }
}

export class UserThread {
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private seq = 0;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    // Self-contained source (see worker-main.ts); `__name` covers a bundler's keep-names helper,
    // and import() is defined here, in a string no bundler rewrites.
    const source = `const __name = (f) => f;\nglobalThis.__ownCodeImport = (url) => import(url);\n(${ownCodeWorkerMain.toString()})();`;
    this.worker = new Worker(source, { eval: true, workerData: { sab: this.flag.buffer, port: port2 }, transferList: [port2] });
    this.worker.unref();
    this.port.unref();
  }

  call(message: object): ThreadAnswer {
    const seq = ++this.seq;
    this.port.postMessage({ ...message, seq });
    // The thread writes each answer's sequence number into the flag after posting it.
    const limitMs = watchdogMs;
    const deadline = Date.now() + limitMs; // lock-sim: wall-clock ok, a watchdog on user code, not part of any result
    for (;;) {
      const seen = Atomics.load(this.flag, 0);
      if (seen === seq) break;
      if (Date.now() > deadline) { // lock-sim: wall-clock ok, the same watchdog
        // The thread is spinning: end it (terminate stops even a busy loop); the next run gets a new one.
        if (shared === this) shared = null;
        void this.worker.terminate();
        throw new UserThreadStuck(limitMs);
      }
      Atomics.wait(this.flag, 0, seen, Math.min(1000, limitMs));
    }
    for (;;) {
      const got = receiveMessageOnPort(this.port);
      if (!got) continue; // posted before the flag was written: it is on its way
      const answer = got.message as ThreadAnswer & { seq: number };
      if (answer.seq === seq) return answer;
    }
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

let shared: UserThread | null = null;

/** The process's user-code thread, started on first use. */
export function userThread(): UserThread {
  shared ??= new UserThread();
  return shared;
}
