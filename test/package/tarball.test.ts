/**
 * The package as a user gets it: `npm pack` (prepack builds dist/ from scratch) on a copy of
 * this repository, `npm install <tarball>` into an empty project, and there `npx lock-sim`,
 * the programmatic API with its types, and the files the tarball holds. Packing a copy keeps
 * the prepack's clean rebuild away from the dist/ that the other test files run in parallel.
 *
 * The install resolves lock-sim's dependencies from the npm cache first (--prefer-offline):
 * after `npm ci` (CI, a fresh clone) every one of them is there.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** Not part of a checkout: build output, installs, reports. */
const SKIP = new Set(['node_modules', 'dist', '.git', 'coverage', 'reports', 'test-output', '.stryker-tmp', '.vitest']);

let work: string;
let consumer: string;
let installed: string;
let packOutput: SpawnSyncReturns<string>;
let quickStart: SpawnSyncReturns<string>;
let hadDistBeforePrepare: boolean;
let installOutput: SpawnSyncReturns<string>;

function run(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  // npm lifecycle variables of an enclosing `npm test` must not leak into the nested npm.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_(lifecycle|package|config_(prefix|global|local_prefix))/i.test(k)));
  return spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...env, NO_COLOR: '1' } });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'lock-sim-pack-'));
  const copy = join(work, 'repo');
  cpSync(ROOT, copy, { recursive: true, filter: (src) => !SKIP.has(relative(ROOT, src).split(/[\\/]/)[0]) });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'junction');
  // The README's quick start on a fresh clone: `npm install` installs the dependencies (here:
  // the ones already installed, linked) and then runs the package's own `prepare` lifecycle,
  // which must build dist/ so that the second command runs.
  hadDistBeforePrepare = existsSync(join(copy, 'dist'));
  const prepare = run(npm, ['run', 'prepare'], copy);
  if (prepare.status !== 0) throw new Error(`npm run prepare failed:\n${prepare.stdout}\n${prepare.stderr}`);
  quickStart = run(npx, ['lock-sim', 'run', 'scenarios/failover.yaml'], copy);
  const out = join(work, 'out');
  mkdirSync(out);
  packOutput = run(npm, ['pack', '--pack-destination', out], copy);
  if (packOutput.status !== 0) throw new Error(`npm pack failed:\n${packOutput.stdout}\n${packOutput.stderr}`);
  const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball');

  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2));
  installOutput = run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(out, tarball)], consumer);
  if (installOutput.status !== 0) throw new Error(`npm install of the tarball failed:\n${installOutput.stdout}\n${installOutput.stderr}`);
  installed = join(consumer, 'node_modules', 'lock-sim');
});

afterAll(() => {
  // The copy's node_modules is a link to this repository's: remove the link, not what it points at.
  if (work) rmSync(join(work, 'repo', 'node_modules'), { force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Every file under a folder, relative to it, with / separators. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(dir, `${prefix}${d.name}/`) : d.isFile() ? [`${prefix}${d.name}`] : [],
  );
}

describe("the README's quick start on a fresh clone", () => {
  it('is still the two commands', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
    const blocks = [...section.matchAll(/```sh\n([^`]*)```/g)].map((m) => m[1].trim());
    expect(blocks).toEqual(['npm install && npx lock-sim run scenarios/failover.yaml', 'npm test']);
  });

  it('works: prepare builds the missing dist/, then npx lock-sim runs the scenario file', () => {
    expect(hadDistBeforePrepare).toBe(false);
    expect(quickStart.stderr).toBe('');
    expect(quickStart.status).toBe(0);
    expect(quickStart.stdout).toMatch(/all \d+ expectations held/);
  });
});

describe('the packed tarball', () => {
  it('leaves the packed checkout as it was: package.json back byte for byte, no backup left', () => {
    const copy = join(work, 'repo');
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(existsSync(join(copy, '.package.json.prepack'))).toBe(false);
  });

  it('installs without an install-script warning: the tarball carries no prepare script ...', () => {
    expect(`${installOutput.stdout}${installOutput.stderr}`).not.toMatch(/install-scripts|prepare/);
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(pkg.scripts.prepare).toBeUndefined();
    expect(pkg.license).toBe('MIT');
  });

  it('... while the repository keeps prepare for a git install or a fresh clone (no dist/ there)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.prepare).toBe('npm run build');
  });

  it('holds the LICENSE, README, docs, the schema, every scenario (own-code examples too) and the declarations; no source maps, no benchmark, no sources', () => {
    const files = filesUnder(installed);
    expect(files).toContain('LICENSE');
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(files).toContain('README.md');
    expect(files).toContain('docs/sources.md');
    expect(files).toContain('docs/tutorial/shop-1.yaml');
    expect(files).toContain('schema/scenario.schema.json');
    expect(files).toContain('dist/index.d.ts');
    // Every file of scenarios/: the casebook, the real backend's scenarios/real/ and the own-code
    // examples with their lock modules (docs/guides/own-code.md runs them from an install).
    const scenarios = filesUnder(join(ROOT, 'scenarios')).map((f) => `scenarios/${f}`);
    expect(scenarios.some((f) => f.startsWith('scenarios/own-code/locks/'))).toBe(true);
    expect(files.filter((f) => f.startsWith('scenarios/')).sort()).toEqual(scenarios.sort());
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('dist/bench/'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    const js = files.filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(installed, f), 'utf8'));
    expect(js.filter((text) => text.includes('sourceMappingURL'))).toEqual([]);
  });

  it('runs `npx lock-sim run failover` there, the built-in scenario by name', () => {
    const r = run(npx, ['lock-sim', 'run', 'failover'], consumer);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/all \d+ expectations held/);
  });

  it('runs `npx lock-sim --help` there', () => {
    const r = run(npx, ['lock-sim', '--help'], consumer);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: lock-sim [options] [command]');
    expect(r.stdout).toContain('init [options]');
  });

  it('type-checks a consumer of the programmatic API (tsc --noEmit), and the types are real: a misuse fails', () => {
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [] }, files: ['consumer.ts'] }),
    );
    writeFileSync(
      join(consumer, 'consumer.ts'),
      [
        "import { loadScenario, runScenario, compare, LOCKS, VERSION, type Scenario, type ScenarioResult } from 'lock-sim';",
        "const scenario: Scenario = loadScenario('node_modules/lock-sim/scenarios/failover-lag-race.yaml');",
        'const result: ScenarioResult = runScenario(scenario, { seed: 1 });',
        'const oversold: number = result.runs[0].metrics.oversold;',
        'const locks: string[] = [...LOCKS.keys()];',
        'export const summary = { version: VERSION, oversold, locks, passed: result.passed, compare };',
        '',
      ].join('\n'),
    );
    const ok = run(process.execPath, [TSC, '-p', 'tsconfig.json'], consumer);
    expect(ok.stdout).toBe('');
    expect(ok.status).toBe(0);

    writeFileSync(join(consumer, 'consumer.ts'), "import { runScenario } from 'lock-sim';\nexport const n: number = runScenario('failover').seed;\n");
    const bad = run(process.execPath, [TSC, '-p', 'tsconfig.json'], consumer);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/consumer\.ts\(2,\d+\): error TS2345: Argument of type 'string' is not assignable to parameter of type 'Scenario'/);
  });

  it('imports and runs the API at run time from the installed package', () => {
    writeFileSync(
      join(consumer, 'use.mjs'),
      [
        "import { createRequire } from 'node:module';",
        "import { loadScenario, runScenario } from 'lock-sim';",
        "const file = createRequire(import.meta.url).resolve('lock-sim/scenarios/failover-lag-race.yaml');",
        'const r = runScenario(loadScenario(file));',
        'console.log(JSON.stringify({ name: r.scenario.name, passed: r.passed }));',
        '',
      ].join('\n'),
    );
    const r = run(process.execPath, ['use.mjs'], consumer);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ name: 'failover-lag-race', passed: true });
  });
});
