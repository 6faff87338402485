/**
 * Property-based fuzzing of the CLI (fast-check): casebook scenarios mutated one to three
 * times (test/fuzz/mutate.ts), each run by the built CLI in a child process of its own. The
 * contract, whatever the file says:
 *   - exit 0 or 1 with a result (the verdict table or the check report), or exit 2 with a
 *     message that starts `file:line:col: field.path:`;
 *   - never exit 3, a crash or abort, an "internal error" or a stack trace;
 *   - at most CPU_LIMIT_S seconds of CPU and MAX_RSS_MIB of memory (measured by the child
 *     itself: CPU time, not wall time, so a loaded machine does not fail it).
 * Fixed seed and a bounded number of cases: the same cases on every machine. `npm run fuzz`
 * runs many more (LOCK_SIM_FUZZ_RUNS) with another seed (LOCK_SIM_FUZZ_SEED).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutate } from './mutate.js';

const RUNS = Number(process.env.LOCK_SIM_FUZZ_RUNS ?? 16);
const SEED = Number(process.env.LOCK_SIM_FUZZ_SEED ?? 20261130);
/** Generous: the costliest casebook file takes about 3 s of CPU for every variant on an idle machine. */
const CPU_LIMIT_S = 90;
const MAX_RSS_MIB = 1536;
/** The child's heap is capped above MAX_RSS_MIB, so a runaway dies of OOM instead of taking the machine. */
const HEAP_MIB = 2048;
/** Keeps each case small; a mutation that asks for more must be refused with exit 2. */
const MAX_REQUESTS = '20000';

const files = readdirSync('scenarios').filter((f) => f.endsWith('.yaml')).sort();
const dir = mkdtempSync(join(tmpdir(), 'lock-sim-fuzz-'));

const COMMANDS: Array<(file: string) => string[]> = [
  (file) => ['run', file, '--max-requests', MAX_REQUESTS],
  (file) => ['run', file, '--max-requests', MAX_REQUESTS, '--timeline', '--json'],
  (file) => ['check', file, '--seeds', '1..2', '--jobs', '1', '--reporter', 'junit', '--max-requests', MAX_REQUESTS],
];

interface Outcome {
  code: number | null;
  signal: string | null;
  out: string;
  err: string;
  cpuMs: number;
  rssMib: number;
}

function runCli(args: string[]): Outcome {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MIB}`, 'test/fuzz/measure.mjs', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 256 * 1024 * 1024,
  });
  const cost = /\nFUZZ-COST cpu-ms=(\d+) max-rss-mib=(\d+)\n$/.exec(r.stderr);
  return {
    code: r.status,
    signal: r.signal,
    out: r.stdout,
    err: cost ? r.stderr.slice(0, cost.index) : r.stderr,
    cpuMs: cost ? Number(cost[1]) : Number.NaN,
    rssMib: cost ? Number(cost[2]) : Number.NaN,
  };
}

/** What breaks the contract, or null. */
export function violation(file: string, o: Outcome): string | null {
  if (o.signal !== null || o.code === null) return `killed by ${o.signal}`;
  if (![0, 1, 2].includes(o.code)) return `exit ${o.code}`;
  if (/internal error|^\s+at .+:\d+:\d+\)?$/m.test(o.err + o.out)) return 'an internal error or a stack trace';
  if (!(o.cpuMs <= CPU_LIMIT_S * 1000)) return `${o.cpuMs} ms of CPU`;
  if (!(o.rssMib <= MAX_RSS_MIB)) return `${o.rssMib} MiB of memory`;
  if (o.code === 2) {
    const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (!new RegExp(`^${escaped}:\\d+:\\d+: \\S`).test(o.err)) return 'exit 2 without file:line:col';
  } else if (!/│ verdict +│|<testsuites|"variants"/.test(o.out)) return `exit ${o.code} without a result`;
  return null;
}

const mutation = fc.tuple(fc.nat(), fc.nat(), fc.nat());

describe('fuzzing the casebook', () => {
  it(`keeps the CLI contract on ${RUNS} mutated scenarios (seed ${SEED})`, () => {
    let n = 0;
    const seen = { 0: 0, 1: 0, 2: 0 } as Record<number, number>;
    fc.assert(
      fc.property(fc.nat(files.length - 1), fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.nat(COMMANDS.length - 1), (fileIndex, mutations, command) => {
        let text = readFileSync(join('scenarios', files[fileIndex]), 'utf8');
        for (const [op, where, what] of mutations) text = mutate(text, op, where, what);
        const file = join(dir, `case-${++n}.yaml`);
        writeFileSync(file, text);
        const o = runCli(COMMANDS[command](file));
        if (o.code !== null && o.code in seen) seen[o.code]++;
        const broken = violation(file, o);
        if (broken !== null) throw new Error(`${broken}\n--- ${file} (from ${files[fileIndex]}):\n${text}\n--- stderr:\n${o.err.slice(0, 2000)}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The cases reach both sides of the contract: some files still run, some are refused.
    expect(seen[2]).toBeGreaterThan(0);
    expect(seen[0] + seen[1]).toBeGreaterThan(0);
  });

  it('the contract is not vacuous: a crash, exit 3, a trace, an unlocated refusal and a silent exit 0 all break it', () => {
    const ok: Outcome = { code: 2, signal: null, out: '', err: 'f.yaml:3:7: duration: bad\n', cpuMs: 10, rssMib: 80 };
    expect(violation('f.yaml', ok)).toBeNull();
    expect(violation('f.yaml', { ...ok, code: 0, err: '', out: '│ variant │ verdict │' })).toBeNull();
    expect(violation('f.yaml', { ...ok, code: 1, err: '', out: '│ variant  │ verdict  │' })).toBeNull();
    expect(violation('f.yaml', { ...ok, code: null, signal: 'SIGABRT' })).toBe('killed by SIGABRT');
    expect(violation('f.yaml', { ...ok, code: 3 })).toBe('exit 3');
    expect(violation('f.yaml', { ...ok, err: 'TypeError: x\n    at f (/a/b.js:1:2)\n' })).toBe('an internal error or a stack trace');
    expect(violation('f.yaml', { ...ok, err: 'f.yaml: duration: bad\n' })).toBe('exit 2 without file:line:col');
    expect(violation('f.yaml', { ...ok, code: 0, out: '' })).toBe('exit 0 without a result');
    expect(violation('f.yaml', { ...ok, cpuMs: CPU_LIMIT_S * 1000 + 1 })).toBe(`${CPU_LIMIT_S * 1000 + 1} ms of CPU`);
    expect(violation('f.yaml', { ...ok, rssMib: Number.NaN })).toBe('NaN MiB of memory');
  });
});
