/** The executable entry: wires the program to the real process. */
import { main } from './program.js';

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
  progress: process.stderr.isTTY ? process.stderr : null,
  stdoutIsTTY: process.stdout.isTTY,
});
