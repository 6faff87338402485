/**
 * What a call into user code answers (user-code.ts), the actions user code can ask for, and
 * the watchdog on user code that does not return control (backends/worker/run-worker.ts and dispatch.ts
 * enforce it).
 */

/** What a call into user code answers: the result of the message, and what user code asked for meanwhile. */
export interface ThreadAnswer {
  result: unknown;
  actions: WorkerAction[];
}

/**
 * The ioredis options of a user client that the connection model reads (ioredis 5.11.1
 * RedisOptions.ts): `retry` is 'default' for ioredis' own retryStrategy (computed here, no
 * call into user code), 'custom' for the user's (called in user code), 'none' when it is
 * not a function (no reconnect).
 */
export interface ClientConfig {
  maxRetries: number | null;
  offlineQueue: boolean;
  retry: 'default' | 'custom' | 'none';
  /** ioredis' Sentinel `failoverDetector` (default false): reconnect when the Sentinels announce a new master. */
  failoverDetector: boolean;
}

/** A command's continuation in user code: it goes out with the command and comes back with the reply ('reply' message). */
export type ReplyContinuation = (outcome: unknown) => void;

/**
 * A user timer as the realm hands it to the host with a 'timer' action and gets it back in
 * the 'fire' message: `arming` is the host's number of the arming its wake-up belongs to (0:
 * none); the realm sets it to -1 when user code clears the timer, which makes a wake-up
 * stale and keeps the host from arming it again (an interval cleared in its own callback).
 */
export interface TimerHandle {
  arming: number;
}

export type WorkerAction =
  | { kind: 'cmd'; done: ReplyContinuation; client: number; conn: number; args: string[]; timeoutMs: number | null; tag: string; cfg: ClientConfig }
  | { kind: 'batch'; done: ReplyContinuation; client: number; conn: number; commands: string[][]; timeoutMs: number | null; tag: string; cfg: ClientConfig }
  | { kind: 'reconnect'; client: number; conn: number }
  | { kind: 'timer'; timer: TimerHandle; client: number; ms: number }
  | { kind: 'settled'; call: number; ok: true; value: number | boolean | null }
  | { kind: 'settled'; call: number; ok: false; error: { message: string; name: string; timeout: boolean; frame: string | null } }
  | { kind: 'subscribe'; client: number; conn: number; channel: string; sub: number }
  | { kind: 'unsubscribe'; client: number; sub: number; channel: string }
  | { kind: 'diagnostic'; diagnostic: 'uncaught' | 'unhandled-rejection' | 'refused-call' | 'watchdog-stop'; error: { message: string; name: string; frame: string | null } };

/**
 * User code that does not return within this many milliseconds of real time is taken to be
 * stuck (user code in a busy loop, or waiting on real I/O). The slowest call of the shipped
 * scenarios is the first, which loads the module and its packages (fengari, redlock: well under
 * a second on the project's machine); 60 s is far above any honest call even on a loaded CI
 * machine, and short enough that a stuck run ends while someone still waits for it.
 * lock-sim: wall-clock ok, a watchdog on the user's code, not part of any result.
 */
export const USER_CODE_WATCHDOG_MS = 60_000;
export let watchdogMs = USER_CODE_WATCHDOG_MS;

/** Sets the watchdog (tests lower it to keep a busy-loop test fast); returns the previous limit. */
export function setUserCodeWatchdogMs(ms: number): number {
  const previous = watchdogMs;
  watchdogMs = ms;
  return previous;
}

/** User code did not return within the watchdog: it is stuck. Its worker is gone; the next run starts a new one. */
export class UserThreadStuck extends Error {
  constructor(readonly limitMs: number, readonly detail: string = `user lock code did not return control within ${limitMs / 1000} s of real time`) {
    super(`user lock code did not return control within ${limitMs / 1000} s of real time`);
    this.name = 'UserThreadStuck';
  }
}

/** The own-code run worker ended (process.exit in user code) while a caller waited for it; the next run starts a new one. */
export class UserThreadEnded extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'UserThreadEnded';
  }
}
