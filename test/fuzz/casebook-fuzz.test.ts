/**
 * Property-based fuzzing of the CLI (fast-check): casebook scenarios mutated one to three
 * times (test/fuzz/mutate.ts), each run by the built CLI in a child process of its own, under
 * the contract of contract.ts: exit 0 or 1 with a result (the verdict table or the check
 * report), or exit 2 with a message that starts `file:line:col: field.path:`; never exit 3,
 * a trace, a hang or more than the CPU and memory limits. The features the generator of
 * features-fuzz.test.ts knows are fuzzed there.
 * Fixed seed and a bounded number of cases: the same cases on every machine. `npm run fuzz`
 * runs many more (LOCK_SIM_FUZZ_RUNS) with another seed (LOCK_SIM_FUZZ_SEED).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CPU_LIMIT_S, runCli, violation as broken, type Outcome } from './contract.js';
import { mutate } from './mutate.js';

const RUNS = Number(process.env.LOCK_SIM_FUZZ_RUNS ?? 16);
const SEED = Number(process.env.LOCK_SIM_FUZZ_SEED ?? 20261130);
/** Keeps each case small; a mutation that asks for more must be refused with exit 2. */
const MAX_REQUESTS = '20000';

const files = readdirSync('scenarios').filter((f) => f.endsWith('.yaml')).sort();
const dir = mkdtempSync(join(tmpdir(), 'lock-sim-fuzz-'));

const COMMANDS: Array<(file: string) => string[]> = [
  (file) => ['run', file, '--max-requests', MAX_REQUESTS],
  (file) => ['run', file, '--max-requests', MAX_REQUESTS, '--timeline', '--json'],
  (file) => ['check', file, '--seeds', '1..2', '--jobs', '1', '--reporter', 'junit', '--max-requests', MAX_REQUESTS],
];

/** What breaks the contract for a scenario file, or null: exit 2 must start `file:line:col: `. */
export function violation(file: string, o: Outcome): string | null {
  const v = broken(o, (err) => new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: \\S`).test(err), /│ verdict +│|<testsuites|"variants"/);
  return v === 'exit 2 without a located message' ? 'exit 2 without file:line:col' : v;
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
    // Each case may take up to the contract's 600 s before it counts as a hang (contract.ts): a long `npm run fuzz` needs more than vitest's 20 minutes.
  }, Math.max(20 * 60_000, RUNS * 600_000));

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
