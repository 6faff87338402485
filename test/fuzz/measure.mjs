// Runs the built CLI in this process, then reports what it cost on stderr's last line:
// CPU time (user + system, this process alone) and peak resident memory. The fuzz test
// spawns one per case, so a crash, an abort or an out-of-memory death is seen as such.
import { main } from '../../dist/cli/program.js';

const code = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  progress: null,
  stdoutIsTTY: false,
});
const cpu = process.cpuUsage();
process.stderr.write(`\nFUZZ-COST cpu-ms=${Math.round((cpu.user + cpu.system) / 1000)} max-rss-mib=${Math.round(process.resourceUsage().maxRSS / 1024)}\n`);
process.exitCode = code;
