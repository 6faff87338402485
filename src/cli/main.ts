/** The executable entry: wires the program to the real process. */
import { main } from './program.js';

process.exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  progress: process.stderr.isTTY ? process.stderr : null,
  stdoutIsTTY: process.stdout.isTTY,
});
