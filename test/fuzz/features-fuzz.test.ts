/**
 * Property-based fuzzing of what was added since the scenario fuzzer (features.ts): sweep
 * parameters and --find conditions, mixtures, empirical and histogram files of any content,
 * encoding and file type, merge of edited or foreign tallies, and outputs that name an input.
 * Each case runs the built CLI in a child process of its own under the contract of
 * contract.ts (exit 0/1 with a result, or exit 2 located; never exit 3, a trace, a hang, or
 * more than the documented CPU and memory), and besides:
 *   - merge never adds up tallies of different runs (another seed list, scenario, module
 *     code, version, variant list or shard count) and gives exactly the unsharded output
 *     for the shards of one run;
 *   - an output naming an input is refused (exit 2) and no input changes.
 * A fixed seed and a few cases in CI; `npm run fuzz` runs many more (LOCK_SIM_FUZZ_RUNS,
 * LOCK_SIM_FUZZ_SEED).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, ftruncateSync, linkSync, mkdirSync, mkdtempSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atScenario, RESULT, runCli, violation, type Outcome } from './contract.js';
import { BASE, encode, featureCase, HOSTILE_JSON, type CollisionCase, type FeatureCase, type FileType, type MergeCase, type SamplesCase, type SweepCase, type TallyBase, type TallyFile } from './features.js';

const RUNS = Number(process.env.LOCK_SIM_FUZZ_RUNS ?? 14);
/**
 * The test's time limit grows with its cases: each may take up to the contract's 600 s of wall
 * time before it counts as a hang (contract.ts), and `npm run fuzz` with 1,000 cases took
 * 2,374 s under load, over vitest's 20 minutes (the cases all kept the contract; vitest
 * reports a test that returns late as timed out).
 */
const caseTimeLimitMs = (runs: number): number => Math.max(20 * 60_000, runs * 600_000);
const SEED = Number(process.env.LOCK_SIM_FUZZ_SEED ?? 20261201);
const MAX_REQUESTS = ['--max-requests', '20000'];
const root = mkdtempSync(join(tmpdir(), 'lock-sim-fuzz-features-'));

const canFifo = (() => {
  try {
    execFileSync('mkfifo', [join(root, 'probe.fifo')]);
    return true;
  } catch {
    return false;
  }
})();

/** A hostile file at `path` (a FIFO, /dev/zero by a link, a folder, a sparse 300 MB file, ...). */
function hostile(path: string, type: Exclude<FileType, 'regular'> | 'utf16' | 'empty'): void {
  if (type === 'fifo' && canFifo) execFileSync('mkfifo', [path]);
  else if (type === 'fifo' || type === 'dev-zero' || type === 'link-dev-zero') {
    if (existsSync('/dev/zero')) symlinkSync('/dev/zero', path);
  } else if (type === 'folder') mkdirSync(path);
  else if (type === 'sparse-300MB') {
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 300 * 1024 * 1024);
    closeSync(fd);
  } else if (type === 'utf16') writeFileSync(path, Buffer.from('\ufeff{"format": 1}', 'utf16le'));
  else if (type === 'empty') writeFileSync(path, '');
  // 'missing': nothing there.
}

/** Exit 2 is located when its first line names the scenario file (with a position), an option, or lock-sim's own usage. */
const locatedAt = (scenario: string) => (err: string) => atScenario(scenario).test(err) || /^lock-sim: \S/.test(err) || /^error: \S/.test(err);

function sweepArgs(c: SweepCase, dir: string, scenario: string): string[] {
  // A command line cannot hold a NUL byte.
  const arg = (s: string): string => s.replace(/\u0000/g, '');
  const args = ['sweep', scenario, ...c.params.flatMap((p) => ['--param', arg(`${p.path}=${p.values}`)]), '--seeds', c.seeds, '--jobs', String(c.jobs), ...MAX_REQUESTS];
  if (c.find !== null) args.push('--find', arg(c.find));
  if (c.report) args.push('--report', join(dir, 'out.html'));
  if (c.output) args.push('--output', join(dir, 'out.json'));
  if (c.shard !== null) args.push('--shard', c.shard);
  return args;
}

function samplesScenario(c: SamplesCase, dir: string): string {
  const name = c.shape === 'histogram' ? 'risk.prom' : 'risk.csv';
  let file = name;
  if (c.type === 'dev-zero') file = '/dev/zero';
  else if (c.type === 'regular') writeFileSync(join(dir, name), encode(c.lines.map((l) => l + c.ending).join(''), c.encoding));
  else hostile(join(dir, name), c.type);
  const value = { empirical: `empirical(${file})`, 'empirical-ms': `empirical(${file}, ms)`, histogram: `histogram(${file})`, 'in-mixture': `mixture(50%: empirical(${file}), 50%: 1ms)` }[c.shape];
  return BASE.replace('risk: "uniform(1ms, 30ms)"', `risk: ${JSON.stringify(value)}`);
}

// ---- merge: real shards, made once ----

interface Shards {
  dir: string;
  /** What `merge --json` of each complete set must print: the unsharded run's output. */
  whole: { compare: string; sweep: string };
}
let shards: Shards | null = null;

function makeShards(): Shards {
  if (shards) return shards;
  const dir = join(root, 'shards');
  mkdirSync(dir);
  const scenario = join(dir, 'fz.yaml');
  writeFileSync(scenario, BASE);
  const run = (args: string[]): string => {
    const o = runCli(args);
    if (o.code !== 0) throw new Error(`setting up the shards: ${args.join(' ')}: exit ${o.code}\n${o.err}`);
    return o.out;
  };
  const compare = ['compare', scenario, '--seeds', '1..4', '--jobs', '1', ...MAX_REQUESTS];
  const sweep = ['sweep', scenario, '--param', 'variants.a.lease=100ms,1s', '--seeds', '1..4', '--jobs', '1', ...MAX_REQUESTS];
  run([...compare, '--shard', '1/2', '--output', join(dir, 'c1.json')]);
  run([...compare, '--shard', '2/2', '--output', join(dir, 'c2.json')]);
  run(['compare', scenario, '--seeds', '2,4,6,8', '--jobs', '1', ...MAX_REQUESTS, '--shard', '2/2', '--output', join(dir, 'codd.json')]);
  run([...sweep, '--shard', '1/2', '--output', join(dir, 'w1.json')]);
  run([...sweep, '--shard', '2/2', '--output', join(dir, 'w2.json')]);
  shards = { dir, whole: { compare: run([...compare, '--json']), sweep: run([...sweep, '--json']) } };
  return shards;
}

type Json = Record<string, unknown> | unknown[];

/** Every path to a value of `data`, in document order. */
function jsonPaths(data: unknown, at: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (at.length > 0) out.push(at);
  if (Array.isArray(data)) data.forEach((v, i) => jsonPaths(v, [...at, i], out));
  else if (data !== null && typeof data === 'object') for (const [k, v] of Object.entries(data)) jsonPaths(v, [...at, k], out);
  return out;
}

function setAt(data: Json, path: ReadonlyArray<string | number>, value: unknown): void {
  let node = data as Record<string | number, unknown>;
  for (const p of path.slice(0, -1)) node = node[p] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
}

const GROUP: Record<TallyBase, string> = { c1: 'compare 1..4', c2: 'compare 1..4', codd: 'compare 2,4,6,8', w1: 'sweep', w2: 'sweep' };

/** Writes one tally file of a merge case; returns its path and what run it claims to be of (null: not a readable tally). */
function tallyAt(dir: string, i: number, f: TallyFile, s: Shards): { path: string; identity: string | null } {
  const path = join(dir, `t${i}.json`);
  if (f.as === 'hostile') {
    hostile(path, f.type);
    return { path, identity: null };
  }
  const text = readFileSync(join(s.dir, `${f.base}.json`), 'utf8');
  if (f.as === 'base') {
    copyFileSync(join(s.dir, `${f.base}.json`), path);
    return { path, identity: GROUP[f.base] };
  }
  if (f.as === 'cut') {
    writeFileSync(path, text.slice(0, f.at % text.length));
    return { path, identity: null };
  }
  const data = JSON.parse(text) as Record<string, any>;
  let identity: string | null = GROUP[f.base];
  if (f.as === 'old-format') data.format = String(data.format).replace(/\/2$/, '/1');
  else if (f.as === 'identity') {
    identity = `${identity} with ${f.field} changed`;
    if (f.field === 'version') data.version = '9.9.9';
    else if (f.field === 'seeds.sha256') data.seeds.sha256 = 'f'.repeat(64);
    else if (f.field === 'seeds.count') data.seeds.count += 1;
    else if (f.field === 'scenario.fingerprint') data.scenario.fingerprint = '0'.repeat(16);
    else if (f.field === 'scenario.code') data.scenario.code = 'c'.repeat(64);
    else if (f.field === 'shard.n') data.shard = { k: 1, n: 3 };
    else data.variants = [...data.variants].reverse();
  } else {
    for (const [where, what] of f.edits) {
      // The paths of the data as edited so far (an edit may have replaced a whole branch).
      const paths = jsonPaths(data);
      setAt(data, paths[where % paths.length], HOSTILE_JSON[what % HOSTILE_JSON.length]);
    }
    identity = null; // an edited count may still be a tally of the same run: judged by the contract alone
  }
  writeFileSync(path, JSON.stringify(data));
  return { path, identity };
}

/** What a merge's outcome breaks: the contract, a merge of different runs, or an answer other than the unsharded one. */
export function mergeVerdict(c: MergeCase, files: ReadonlyArray<{ path: string; identity: string | null }>, o: Outcome, whole: Shards['whole']): string | null {
  const paths = files.map((f) => f.path);
  const lineLocated = (line: string) => line === '' || paths.some((p) => line.startsWith(`${p}: `)) || /^lock-sim: \S/.test(line) || /^error: \S/.test(line) || /^\.\.\. and [\d,]+ more lines$/.test(line);
  const broken = violation(o, (err) => err.split('\n').every(lineLocated));
  if (broken !== null) return broken;
  const identities = new Set(files.map((f) => f.identity));
  if (o.code === 0 && files.every((f) => f.identity !== null) && identities.size > 1) return `merged tallies of different runs: ${[...identities].join(' / ')}`;
  const bases = c.files.map((f) => (f.as === 'base' ? f.base : null));
  const complete = (a: TallyBase, b: TallyBase) => bases.length === 2 && bases.includes(a) && bases.includes(b);
  if (c.json && (complete('c1', 'c2') || complete('w1', 'w2'))) {
    const expected = complete('c1', 'c2') ? whole.compare : whole.sweep;
    if (o.code !== 0 || o.out !== expected) return `the shards of one run did not merge into the unsharded output (exit ${o.code})`;
  }
  return null;
}

function runMerge(c: MergeCase, dir: string): { broken: string | null; outcome: Outcome } {
  const s = makeShards();
  const files = c.files.map((f, i) => tallyAt(dir, i, f, s));
  const outcome = runCli(['merge', ...files.map((f) => f.path), ...(c.json ? ['--json'] : [])]);
  return { broken: mergeVerdict(c, files, outcome, s.whole), outcome };
}

// ---- outputs that name an input ----

/** What an outcome breaks when the output named an input (`collides`) or not; `changed`: the inputs whose bytes changed. */
export function collisionVerdict(collides: boolean, changed: readonly string[], o: Outcome, scenario: string): string | null {
  if (changed.length > 0) return `an input changed: ${changed.join(', ')}`;
  if (collides) {
    if (o.code !== 2 || !/^lock-sim: --(output|report) \S+ is (an input|the input|the same file)/.test(o.err)) return `an output naming an input was not refused (exit ${o.code}): ${o.err.split('\n')[0]}`;
    return null;
  }
  return violation(o, locatedAt(scenario), new RegExp(`${RESULT.source}|^report written to|written to |expectations|^name: `, 'm'));
}

function runCollision(c: CollisionCase, dir: string): { broken: string | null; outcome: Outcome } {
  const scenario = join(dir, 'fz.yaml');
  writeFileSync(scenario, BASE.replace('risk: "uniform(1ms, 30ms)"', 'risk: "empirical(risk.csv)"'));
  writeFileSync(join(dir, 'risk.csv'), '1ms\n5ms\n20ms\n');
  mkdirSync(join(dir, 'sub'));
  const inputs = [scenario, join(dir, 'risk.csv')];
  let merged: string[] = [];
  if (c.command === 'merge') {
    const s = makeShards();
    merged = ['c1', 'c2'].map((b) => {
      const p = join(dir, `${b}.json`);
      copyFileSync(join(s.dir, `${b}.json`), p);
      return p;
    });
  }
  const twoOutputs = c.command === 'compare' || c.command === 'sweep';
  const fresh = join(dir, 'out.file');
  let target = fresh;
  let collides = c.command !== 'merge';
  if (c.target === 'scenario') target = scenario;
  else if (c.target === 'sample') target = join(dir, 'risk.csv');
  else if (c.target === 'link-to-scenario') symlinkSync(scenario, (target = join(dir, 'link.yaml')));
  else if (c.target === 'hard-link-to-sample') linkSync(join(dir, 'risk.csv'), (target = join(dir, 'hard.csv')));
  else if (c.target === 'dot-dot-scenario') target = `${dir}/sub/../fz.yaml`;
  else if (c.target === 'tally-input' && c.command === 'merge') {
    target = merged[0];
    collides = true;
  } else collides = c.target === 'other-output' && twoOutputs;
  const watched = c.command === 'merge' ? merged : inputs;
  const before = watched.map((f) => readFileSync(f));
  const flag = c.command === 'run' || c.command === 'merge' ? '--report' : '--output';
  const second = c.target === 'other-output' && twoOutputs ? ['--report', target] : [];
  const base = ['--seeds', '1', '--jobs', '1', ...MAX_REQUESTS];
  const args = {
    run: ['run', scenario, ...MAX_REQUESTS],
    compare: ['compare', scenario, ...base],
    sweep: ['sweep', scenario, '--param', 'variants.a.lease=100ms,1s', ...base],
    shrink: ['shrink', scenario, '--seed', '1', '--variant', 'a', ...MAX_REQUESTS],
    check: ['check', scenario, ...base],
    merge: ['merge', ...merged],
  }[c.command];
  const o = runCli([...args, flag, target, ...second]);
  const changed = watched.filter((f, i) => !readFileSync(f).equals(before[i]));
  return { broken: collisionVerdict(collides, changed, o, scenario), outcome: o };
}

/** Runs one case in a folder of its own; what broke the contract, or null. */
export function runCase(c: FeatureCase, dir: string): { broken: string | null; outcome?: Outcome } {
  mkdirSync(dir, { recursive: true });
  const scenario = join(dir, 'fz.yaml');
  if (c.kind === 'merge') return runMerge(c, dir);
  if (c.kind === 'collision') return runCollision(c, dir);
  if (c.kind === 'sweep') writeFileSync(scenario, BASE);
  else if (c.kind === 'mixture') writeFileSync(scenario, BASE.replace('risk: "uniform(1ms, 30ms)"', `risk: ${JSON.stringify(c.distribution)}`));
  else writeFileSync(scenario, samplesScenario(c, dir));
  const args =
    c.kind === 'sweep'
      ? sweepArgs(c, dir, scenario)
      : c.kind === 'mixture' && c.command === 'compare'
        ? ['compare', scenario, '--seeds', '1..2', '--jobs', '1', ...MAX_REQUESTS]
        : ['run', scenario, ...MAX_REQUESTS];
  const outcome = runCli(args);
  return { broken: violation(outcome, locatedAt(scenario)), outcome };
}

describe('fuzzing the newer features', () => {
  it(`keeps the CLI contract on ${RUNS} generated cases (seed ${SEED})`, () => {
    let n = 0;
    const seen: Record<string, number> = {};
    fc.assert(
      fc.property(featureCase, (c) => {
        const dir = join(root, `case-${++n}`);
        const { broken, outcome } = runCase(c, dir);
        seen[c.kind] = (seen[c.kind] ?? 0) + 1;
        const exit = `${c.kind} exit ${outcome?.code ?? outcome?.signal}`;
        seen[exit] = (seen[exit] ?? 0) + 1;
        if (broken !== null) {
          const shown = JSON.stringify(c, (_k, v) => (typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}... (${v.length} characters)` : v), 2);
          throw new Error(`${broken}\n--- case (${dir}):\n${shown}\n--- stderr:\n${(outcome?.err ?? '').slice(0, 2000)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The cases reach every kind.
    expect(Object.keys(seen).filter((k) => !k.includes(' exit ')).sort()).toEqual(RUNS >= 10 ? ['collision', 'merge', 'mixture', 'samples', 'sweep'] : expect.any(Array));
    // Both sides of the contract are reached: some cases run, some are refused.
    const exits = Object.entries(seen).filter(([k]) => k.includes(' exit '));
    expect(exits.some(([k]) => k.endsWith(' exit 2'))).toBe(true);
    expect(exits.some(([k]) => k.endsWith(' exit 0') || k.endsWith(' exit 1'))).toBe(true);
    if (process.env.LOCK_SIM_FUZZ_REPORT) writeFileSync(process.env.LOCK_SIM_FUZZ_REPORT, `${JSON.stringify({ runs: RUNS, seed: SEED, seen }, null, 2)}\n`);
  }, caseTimeLimitMs(RUNS));
});

describe('the checks of the fuzz test', () => {
  const ok: Outcome = { code: 0, signal: null, out: 'variant    P(oversell) %  oversold\n', err: '', cpuMs: 10, rssMib: 80 };
  const files = (identities: Array<string | null>) => identities.map((identity, i) => ({ path: `/t${i}.json`, identity }));
  const merge = (...bases: TallyBase[]): MergeCase => ({ kind: 'merge', files: bases.map((base) => ({ as: 'base' as const, base })), json: true });
  const whole = { compare: '{"variants":1}', sweep: '{"variants":2}' };

  it('are not vacuous: a merge of two runs, a merge off the unsharded answer, an unlocated refusal, an input overwritten', () => {
    expect(mergeVerdict(merge('c1', 'codd'), files(['compare 1..4', 'compare 2,4,6,8']), ok, whole)).toMatch(/^merged tallies of different runs/);
    expect(mergeVerdict(merge('c1', 'c2'), files(['compare 1..4', 'compare 1..4']), { ...ok, out: '{"variants":3}' }, whole)).toMatch(/did not merge into the unsharded output/);
    expect(mergeVerdict(merge('c1', 'c2'), files(['compare 1..4', 'compare 1..4']), { ...ok, out: '{"variants":1}' }, whole)).toBeNull();
    expect(mergeVerdict(merge('c1', 'codd'), files(['compare 1..4', 'compare 2,4,6,8']), { ...ok, code: 2, out: '', err: '/t1.json: seeds: ran 4 seeds\n' }, whole)).toBeNull();
    expect(mergeVerdict(merge('c1', 'codd'), files(['compare 1..4', 'compare 2,4,6,8']), { ...ok, code: 2, out: '', err: 'seeds differ\n' }, whole)).toBe('exit 2 without a located message');
    expect(collisionVerdict(true, [], { ...ok, code: 0 }, '/fz.yaml')).toMatch(/^an output naming an input was not refused/);
    expect(collisionVerdict(true, ['/fz.yaml'], { ...ok, code: 2, err: 'lock-sim: --output /fz.yaml is an input' }, '/fz.yaml')).toBe('an input changed: /fz.yaml');
    expect(collisionVerdict(true, [], { ...ok, code: 2, err: 'lock-sim: --output /fz.yaml is an input of this command' }, '/fz.yaml')).toBeNull();
    expect(violation({ ...ok, code: null, signal: 'SIGTERM' }, () => true)).toMatch(/^killed by SIGTERM \(a hang/);
    expect(violation({ ...ok, rssMib: 4000 }, () => true)).toBe('4000 MiB of memory');
    expect(locatedAt('/d/fz.yaml')('/d/fz.yaml:3:7: workload: x')).toBe(true);
    expect(locatedAt('/d/fz.yaml')('/d/fz.yaml: (top level): is a named pipe')).toBe(true);
    expect(locatedAt('/d/fz.yaml')('Error: boom')).toBe(false);
  });
});

