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

export type WorkerAction =
  | { kind: 'cmd'; id: number; client: number; conn: number; args: string[]; timeoutMs: number | null; tag: string }
  | { kind: 'batch'; id: number; client: number; conn: number; commands: string[][]; timeoutMs: number | null; tag: string }
  | { kind: 'timer'; id: number; client: number; ms: number }
  | { kind: 'clear'; id: number }
  | { kind: 'settled'; call: number; ok: true; value: number | boolean | null }
  | { kind: 'settled'; call: number; ok: false; error: { message: string; name: string; timeout: boolean } }
  | { kind: 'subscribe'; client: number; conn: number; channel: string; sub: number }
  | { kind: 'unsubscribe'; client: number; sub: number; channel: string }
  | { kind: 'uncaught'; client: number; error: { message: string; name: string } };

/**
 * A thread that does not answer within this many milliseconds of real time is taken to be
 * stuck (user code in a busy loop, or waiting on real I/O). lock-sim: wall-clock ok, a
 * watchdog on the user's code, not part of any result.
 */
const ANSWER_TIMEOUT_MS = 60_000;

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
    const deadline = Date.now() + ANSWER_TIMEOUT_MS; // lock-sim: wall-clock ok, a watchdog on user code, not part of any result
    for (;;) {
      const seen = Atomics.load(this.flag, 0);
      if (seen === seq) break;
      if (Date.now() > deadline) { // lock-sim: wall-clock ok, the same watchdog
        throw new Error(`user lock code did not return control within ${ANSWER_TIMEOUT_MS / 1000} s of real time (a busy loop, or waiting on real I/O?)`);
      }
      Atomics.wait(this.flag, 0, seen, 1000);
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
