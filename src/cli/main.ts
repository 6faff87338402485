/** The executable entry: wires the program to the real process. */
import { main } from './program.js';

// How long user lock code may keep control (docs/guides/own-code.md): the default 60 s,
// or LOCK_SIM_USER_CODE_WATCHDOG_MS (a positive number of milliseconds of real time).
const watchdog = Number(process.env.LOCK_SIM_USER_CODE_WATCHDOG_MS);
// Loaded only when set: --version and --help start without the own-code machinery.
if (Number.isFinite(watchdog) && watchdog > 0) (await import('../own-code/user-thread.js')).setUserCodeWatchdogMs(watchdog);

/**
 * A reader that goes away (`lock-sim run ... | head -1`) closes the pipe: the next write
 * fails with EPIPE. Like a program killed by SIGPIPE, lock-sim then prints nothing more, and
 * the run still finishes (a --report or --output file is still written) with its exit code.
 */
let stdoutClosed = false;
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  stdoutClosed = true;
});
process.stderr.on('error', () => {
  // Nowhere left to report to.
});

process.exitCode = await main(process.argv.slice(2), {
  out: (text) => {
    if (!stdoutClosed) process.stdout.write(`${text}\n`);
  },
  err: (text) => process.stderr.write(`${text}\n`),
  progress: process.stderr,
  progressIsTTY: process.stderr.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY,
});
