/**
 * How much CPU `lock-sim --version` and `lock-sim --help` cost: each started as a user starts
 * it (node and the bin), its own CPU time (user + system, process.cpuUsage at exit, read by a
 * preloaded hook, so the spawning is not counted) over a few runs, the median. The aim is
 * under 200 ms each (cli/commands/table.ts: only the command run loads its module).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/lock-sim.js', import.meta.url));
const HOOK = `data:text/javascript,${encodeURIComponent("process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`\\nlock-sim-bench-cpu-us ${u.user + u.system}\\n`); });")}`;

interface CliStart {
  args: string[];
  medianCpuMs: number;
  runs: number;
}

export function cliStart(args: string[], runs = 7): CliStart {
  const cpuMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], { encoding: 'utf8' });
    const m = /lock-sim-bench-cpu-us (\d+)/.exec(r.stderr);
    if (r.status !== 0 || m === null) throw new Error(`lock-sim ${args.join(' ')}: exit ${r.status}, ${r.stderr.slice(0, 200)}`);
    cpuMs.push(Number(m[1]) / 1000);
  }
  cpuMs.sort((a, b) => a - b);
  return { args, medianCpuMs: cpuMs[Math.floor(cpuMs.length / 2)], runs };
}

export function describeCliStart(s: CliStart): string {
  const aim = s.args.length === 1 ? 'aim: under 200 ms' : "a command's own help loads its module";
  return `cli start, lock-sim ${s.args.join(' ')}: ${s.medianCpuMs.toFixed(0)} ms CPU (median of ${s.runs}; ${aim})`;
}
