/**
 * The CLI contract of the fuzz tests, whatever the input:
 *   - exit 0 or 1 with a result, or exit 2 with a located message (what "located" means
 *     depends on the case: `file:line:col: field:` for a scenario, the file and the field
 *     for a tally, the flag for an option);
 *   - never exit 3, a crash or abort, an "internal error" or a stack trace;
 *   - never a hang (HANG_S seconds of wall time: a FIFO that is read blocks forever), at
 *     most CPU_LIMIT_S seconds of CPU and MAX_RSS_MIB of memory (measured by the child
 *     itself: CPU time, not wall time, so a loaded machine does not fail it).
 */
import { spawnSync } from 'node:child_process';

/** Generous: the costliest casebook file takes about 3 s of CPU for every variant on an idle machine. */
export const CPU_LIMIT_S = 90;
/** The memory a command may take on any input (docs/reference/limits.md). */
export const MAX_RSS_MIB = 1536;
/** The child's heap is capped above MAX_RSS_MIB, so a runaway dies of OOM instead of taking the machine. */
const HEAP_MIB = 2048;
/** Wall time after which a case is a hang: far above the CPU limit, so only a wait that never ends reaches it. */
export const HANG_S = 600;

export interface Outcome {
  code: number | null;
  signal: string | null;
  out: string;
  err: string;
  cpuMs: number;
  rssMib: number;
}

export function runCli(args: string[], cwd?: string): Outcome {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MIB}`, `${process.cwd()}/test/fuzz/measure.mjs`, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 256 * 1024 * 1024,
    timeout: HANG_S * 1000,
    cwd,
  });
  const cost = /\nFUZZ-COST cpu-ms=(\d+) max-rss-mib=(\d+)\n$/.exec(r.stderr ?? '');
  return {
    code: r.status,
    signal: r.signal,
    out: r.stdout ?? '',
    err: cost ? r.stderr.slice(0, cost.index) : (r.stderr ?? ''),
    cpuMs: cost ? Number(cost[1]) : Number.NaN,
    rssMib: cost ? Number(cost[2]) : Number.NaN,
  };
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A scenario refusal: `file:line:col: ` (or `file: ` for the file as a whole: not a regular file, too big). */
export const atScenario = (file: string): RegExp => new RegExp(`^${escape(file)}(:\\d+:\\d+)?: \\S`);

/** Results the commands print: a verdict table, JUnit, JSON, a compare or sweep table, a shard note. */
export const RESULT = /│ verdict +│|<testsuites|"variants"|^variant +(worst verdict +)?P\(oversell\)|^P\(oversell\)|^shard \d+\/\d+: |: boundary between |: no boundary inside the range|"format"/m;

/** What breaks the contract, or null. `located` judges exit 2's message; `result` exit 0 and 1's output. */
export function violation(o: Outcome, located: (err: string) => boolean, result: RegExp = RESULT): string | null {
  if (o.signal !== null || o.code === null) return `killed by ${o.signal}${o.signal === 'SIGTERM' ? ` (a hang: over ${HANG_S} s)` : ''}`;
  if (![0, 1, 2].includes(o.code)) return `exit ${o.code}`;
  if (/internal error|^\s+at .+:\d+:\d+\)?$/m.test(o.err + o.out)) return 'an internal error or a stack trace';
  if (!(o.cpuMs <= CPU_LIMIT_S * 1000)) return `${o.cpuMs} ms of CPU`;
  if (!(o.rssMib <= MAX_RSS_MIB)) return `${o.rssMib} MiB of memory`;
  if (o.code === 2) {
    if (!located(o.err)) return 'exit 2 without a located message';
  } else if (!result.test(o.out)) return `exit ${o.code} without a result`;
  return null;
}
