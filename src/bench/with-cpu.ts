/**
 * Runs a probe script (this build's or another build's sweep-probe.js) in this process and,
 * when it ends, adds a line {"cpuMs": ...} to its output: the process's user + system CPU
 * time, every thread's (workers and V8's GC helpers) included. On a shared machine CPU time
 * says more than wall time about a build's own cost. Usage:
 * `node dist/bench/with-cpu.js <probe.js> <args...>`. Wall-clock-free: it reads CPU time only.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [script, ...args] = process.argv.slice(2);
if (script === undefined) throw new Error('usage: with-cpu.js <probe.js> <args...>');
process.argv = [process.argv[0], resolve(script), ...args];
process.on('exit', () => {
  const cpu = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
});
await import(pathToFileURL(resolve(script)).href);
