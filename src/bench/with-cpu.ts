/**
 * Runs a probe script (this build's or another build's sweep-probe.js) in this process and,
 * when it ends, adds a line {"cpuMs": ..., "mainThreadCpuMs": ...} to its output: the
 * process's user + system CPU time, every thread's (workers and V8's GC helpers) included,
 * and the main thread's alone. On a shared machine CPU time says more than wall time about a
 * build's own cost; the difference between the two, in a run on one thread, is what V8 does
 * beside it (optimizing compiles, parallel and concurrent GC), which a second job has to share
 * the cores with. Usage: `node dist/bench/with-cpu.js <probe.js> <args...>`. Wall-clock-free:
 * it reads CPU time only.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

/**
 * This thread's user + system CPU time in ms, from Linux's /proc/thread-self/stat (fields 14
 * and 15, utime and stime, in clock ticks of 1/100 s: proc(5)); null elsewhere. Node 20 has
 * no per-thread CPU clock (process.threadCpuUsage came in Node 23.9).
 */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

const [script, ...args] = process.argv.slice(2);
if (script === undefined) throw new Error('usage: with-cpu.js <probe.js> <args...>');
process.argv = [process.argv[0], resolve(script), ...args];
process.on('exit', () => {
  const cpu = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, mainThreadCpuMs: mainThreadCpuMs() })}\n`);
});
await import(pathToFileURL(resolve(script)).href);
