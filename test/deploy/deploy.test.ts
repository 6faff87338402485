/**
 * The shipped GitHub Actions workflow, Kubernetes manifests and Dockerfile, run as their
 * engines would run them (as far as this machine can): every lock-sim command in them is
 * executed with the engine's variables and folders, the artifacts moved between jobs as the
 * upload and download actions move them, and the verdict compared with an unsharded check.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { sweepWorld } from '../helpers.js';

const BIN = resolve('bin/lock-sim.js');
const VARIANTS = ['  short: { lock: lua-unlock, lease: 1s, wait: 3s, retry-interval: 10ms }', '  long:  { lock: lua-unlock, lease: 5s, wait: 3s, retry-interval: 10ms }'].join('\n');
const HOLDS = sweepWorld(VARIANTS, '  long: { double-holders: 0, "p(orders > 0)": 1 }', '1..4');
const FAILS = sweepWorld(VARIANTS, '  short: { double-holders: 0 }', '1..4');

const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['JOB_COMPLETION_INDEX', 'AWS_BATCH_JOB_ARRAY_INDEX', 'FORCE_COLOR'].includes(k)));

/** A project folder with scenarios/ holding these files. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'lock-sim-deploy-'));
  mkdirSync(join(dir, 'scenarios'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'scenarios', name), text);
  return dir;
}

/** `npx lock-sim` as the project's installed bin: this checkout's. */
function shell(command: string, cwd: string, env: Record<string, string> = {}): number {
  const r = spawnSync('sh', ['-c', command.replaceAll('npx lock-sim', `"${process.execPath}" "${BIN}"`)], { cwd, encoding: 'utf8', env: { ...cleanEnv, NO_COLOR: '1', ...env } });
  return r.status ?? -1;
}

function uncheckedCheck(dir: string): number {
  return spawnSync(process.execPath, [BIN, 'check', 'scenarios/', '--jobs', '1'], { cwd: dir, env: { ...cleanEnv, NO_COLOR: '1' } }).status ?? -1;
}

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string;
  strategy?: { matrix: { index: number[] } };
  steps: Step[];
}

/**
 * Runs a job's steps: `run` through sh (npm ci and checkout are this checkout), upload and
 * download-artifact as v4 moves files (each artifact downloaded to path/<name>/ when a
 * pattern matches several). A failed step fails the job; later steps run only with if: always().
 */
function runJob(job: Job, cwd: string, store: string, vars: Record<string, string>): { ok: boolean; ran: string[] } {
  let ok = true;
  const ran: string[] = [];
  const expand = (s: string): string => s.replace(/\$\{\{\s*matrix\.index\s*\}\}/g, vars.index ?? '');
  for (const step of job.steps) {
    if (!ok && step.if !== 'always()') continue;
    const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v))]));
    if (step.run !== undefined) {
      const command = expand(step.run);
      ran.push(command);
      if (command.trim() === 'npm ci') continue;
      if (shell(command, cwd, { GITHUB_STEP_SUMMARY: join(cwd, 'summary.md') }) !== 0) ok = false;
    } else if (step.uses?.startsWith('actions/upload-artifact@')) {
      const file = join(cwd, w.path);
      if (!existsSync(file)) {
        if (w['if-no-files-found'] === 'error') ok = false;
        continue;
      }
      mkdirSync(join(store, w.name), { recursive: true });
      cpSync(file, join(store, w.name, basename(file)));
    } else if (step.uses?.startsWith('actions/download-artifact@')) {
      const names = readdirSync(store).filter((n) => picomatch(w.pattern)(n));
      for (const n of names) cpSync(join(store, n), join(cwd, w.path, names.length > 1 ? n : ''), { recursive: true });
    } else expect(step.uses, 'a step the emulation knows').toMatch(/^actions\/(checkout|setup-node)@v\d+$/);
  }
  return { ok, ran };
}

const workflow = parse(readFileSync('deploy/github-actions/lock-sim.yml', 'utf8')) as { jobs: { check: Job; merge: Job } };

describe('the GitHub Actions workflow', () => {
  it('has a matrix of shard indices 0..n-1 that its --shard-count matches, and a merge job after it', () => {
    const indices = workflow.jobs.check.strategy!.matrix.index;
    expect(indices).toEqual(indices.map((_, i) => i));
    const checkLine = workflow.jobs.check.steps.find((s) => s.run?.includes('lock-sim check'))!.run!;
    expect(checkLine).toContain(`--shard-count ${indices.length}`);
    expect(workflow.jobs.merge.needs).toBe('check');
  });

  for (const [what, files, expected] of [
    ['every expectation holds: the build passes', { 'a.yaml': HOLDS }, true],
    ['an expectation fails: the merge job fails the build, and still writes the summary and the JUnit file', { 'a.yaml': HOLDS, 'b.yaml': FAILS }, false],
  ] as const) {
    it(`runs as Actions would: ${what}`, () => {
      const store = mkdtempSync(join(tmpdir(), 'lock-sim-artifacts-'));
      const machines = workflow.jobs.check.strategy!.matrix.index.map((index) => {
        const dir = project(files);
        return runJob(workflow.jobs.check, dir, store, { index: String(index) });
      });
      expect(machines.every((m) => m.ok)).toBe(true);
      const mergeDir = project(files);
      const merge = runJob(workflow.jobs.merge, mergeDir, store, {});
      expect(uncheckedCheck(project(files)) === 0).toBe(expected);
      expect(merge.ok).toBe(expected);
      expect(readFileSync(join(mergeDir, 'summary.md'), 'utf8')).toContain('|');
      expect(readFileSync(join(mergeDir, 'lock-sim.xml'), 'utf8')).toContain(`failures="${expected ? 0 : 1}"`);
    });
  }
});

interface Container {
  args: string[];
  volumeMounts: Array<{ name: string; mountPath: string }>;
}
interface JobSpec {
  completionMode?: string;
  completions?: number;
  parallelism?: number;
  backoffLimitPerIndex?: number;
  template: { spec: { containers: Container[]; volumes: Array<{ name: string }> } };
}
const manifests = (file: string) => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as { kind: string; metadata: { name: string }; spec: JobSpec });

describe('the Kubernetes Indexed Job', () => {
  const check = manifests('deploy/kubernetes/check-job.yaml').find((m) => m.kind === 'Job')!.spec;
  const merge = manifests('deploy/kubernetes/merge-job.yaml').find((m) => m.kind === 'Job')!.spec;

  it('is Indexed, retried per index, one pod per shard', () => {
    expect(check.completionMode).toBe('Indexed');
    expect(check.backoffLimitPerIndex).toBeGreaterThanOrEqual(0);
    const args = check.template.spec.containers[0].args;
    expect(args.slice(args.indexOf('--shard-index'), args.indexOf('--shard-index') + 4)).toEqual(['--shard-index', 'env', '--shard-count', String(check.completions)]);
    expect(check.parallelism).toBe(check.completions);
  });

  /** A pod's args run with its mounts as folders here, $(VAR) expanded as Kubernetes expands a container's env. */
  function pod(spec: JobSpec, mounts: Record<string, string>, env: Record<string, string>): number {
    const container = spec.template.spec.containers[0];
    const args = container.args.map((a) => {
      let s = a.replace(/\$\(([A-Z_]+)\)/g, (_, v: string) => env[v] ?? `$(${v})`);
      for (const m of container.volumeMounts) if (s.startsWith(m.mountPath)) s = mounts[m.name] + s.slice(m.mountPath.length);
      return s;
    });
    return spawnSync(process.execPath, [BIN, ...args], { env: { ...cleanEnv, NO_COLOR: '1', ...env } }).status ?? -1;
  }

  /** The scenarios as a ConfigMap volume lays them out: files in a ..<timestamp> folder, linked from the top through ..data. */
  function configMap(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'lock-sim-configmap-'));
    mkdirSync(join(dir, '..2026_12_02_00_00_00.1'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, '..2026_12_02_00_00_00.1', name), text);
    symlinkSync('..2026_12_02_00_00_00.1', join(dir, '..data'));
    for (const name of Object.keys(files)) symlinkSync(join('..data', name), join(dir, name));
    return dir;
  }

  for (const [what, files, code] of [
    ['the merge Job succeeds when every expectation holds', { 'a.yaml': HOLDS }, 0],
    ['the merge Job fails (exit 1) when one does not', { 'a.yaml': HOLDS, 'b.yaml': FAILS }, 1],
  ] as const) {
    it(`runs as the Job controller would: ${what}`, () => {
      const mounts = { scenarios: configMap(files), tallies: mkdtempSync(join(tmpdir(), 'lock-sim-pvc-')) };
      for (let index = 0; index < check.completions!; index++) expect(pod(check, mounts, { JOB_COMPLETION_INDEX: String(index) })).toBe(0);
      expect(readdirSync(mounts.tallies).filter((f) => f.endsWith('.json'))).toHaveLength(check.completions!);
      expect(pod(merge, mounts, {})).toBe(code);
      expect(uncheckedCheck(project(files))).toBe(code);
      expect(readFileSync(join(mounts.tallies, 'lock-sim.xml'), 'utf8')).toContain('<testsuites');
    });
  }
});

describe('the Dockerfile', () => {
  const text = readFileSync('Dockerfile', 'utf8');
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; bin: Record<string, string>; engines: { node: string } };
  // No container engine runs here: what the file names is checked against the package instead.
  it('packs this checkout and installs the tarball the package name gives, with its bin as the entrypoint', () => {
    expect(text).toMatch(/^FROM node:(\d+)-\S+ AS pack$/m);
    const major = Number(/^FROM node:(\d+)/m.exec(text)![1]);
    expect(major).toBeGreaterThanOrEqual(Number(/\d+/.exec(pkg.engines.node)![0]));
    expect(text).toContain('RUN npm ci && mkdir /pkg && npm pack --pack-destination /pkg');
    expect(text).toContain(`npm install --global /pkg/${pkg.name}-*.tgz`);
    expect(text).toContain(`ENTRYPOINT ["${Object.keys(pkg.bin)[0]}"]`);
    const ignored = readFileSync('.dockerignore', 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist']));
  });
});
