/**
 * Outputs never overwrite an input, never share a file, and never leave a truncated file
 * where a good one was (output-files.ts). `--output` equal to the scenario file overwrote
 * it with exit 0 before.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  return { ...real, writeSync: vi.fn(real.writeSync) };
});

const { outputCollision, writeAtomically } = await import('../../src/cli/output-files.js');

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'lock-sim-outputs-'));
const at = (name: string) => join(dir, name);
const TEXT = `name: small
duration: 2s
stock: { sku: 1, available: 5 }
workload: { users: 1, think: 1ms, steps: [lock, read, risk, deduct, order, unlock] }
dependencies: { risk: "empirical(risk.csv)" }
variants:
  a: { lock: lua-unlock }
`;
writeFileSync(at('small.yaml'), TEXT);
writeFileSync(at('risk.csv'), '1ms\n2ms\n');
const MAX = ['--max-requests', '5000000'];
const JOBS = ['--jobs', '1'];
const unchanged = () => {
  expect(readFileSync(at('small.yaml'), 'utf8')).toBe(TEXT);
  expect(readFileSync(at('risk.csv'), 'utf8')).toBe('1ms\n2ms\n');
};

afterEach(() => vi.mocked(fs.writeSync).mockRestore?.());

describe('an output that is an input', () => {
  it('is refused before anything runs: the scenario, a sample file, a link to the scenario, a tally being merged', () => {
    symlinkSync(at('small.yaml'), at('link.yaml'));
    const refusals = [
      cli('compare', at('small.yaml'), '--seeds', '1', '--output', at('small.yaml'), ...MAX, ...JOBS),
      cli('run', at('small.yaml'), '--report', at('risk.csv'), ...MAX),
      cli('run', at('small.yaml'), '--report', at('link.yaml'), ...MAX),
      cli('shrink', at('small.yaml'), '--seed', '1', '--variant', 'a', '--output', at('small.yaml'), ...MAX),
      cli('check', dir, '--output', at('small.yaml'), ...MAX, ...JOBS),
      cli('sweep', at('small.yaml'), '--param', 'variants.a.lease=1s,2s', '--seeds', '1', '--report', at('small.yaml'), ...MAX, ...JOBS),
    ];
    for (const r of refusals) expect(r).toMatchObject({ code: 2, out: '' });
    expect(refusals[0].err).toBe(`lock-sim: --output ${at('small.yaml')} is an input of this command: writing it would destroy it; give another file\n`);
    expect(refusals[2].err).toBe(`lock-sim: --report ${at('link.yaml')} is the input ${at('small.yaml')} of this command: writing it would destroy it; give another file\n`);
    unchanged();
  });

  it('refuses two outputs that are one file, and writes two that are not', () => {
    const same = cli('compare', at('small.yaml'), '--seeds', '1', '--output', at('out.json'), '--report', at('out.json'), ...MAX, ...JOBS);
    expect(same).toMatchObject({ code: 2, err: `lock-sim: --report ${at('out.json')} is the same file as --output ${at('out.json')}: give each output its own file\n` });
    const two = cli('compare', at('small.yaml'), '--seeds', '1', '--output', at('out.json'), '--report', at('out.html'), ...MAX, ...JOBS);
    expect(two.code).toBe(0);
    expect(readFileSync(at('out.json'), 'utf8')).toMatch(/^\{"format":"lock-sim-compare-tally\/2"/);
    expect(readFileSync(at('out.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    const merge = cli('merge', at('out.json'), '--report', at('out.json'));
    expect(merge).toMatchObject({ code: 2, err: `lock-sim: --report ${at('out.json')} is an input of this command: writing it would destroy it; give another file\n` });
    unchanged();
  });
});

describe('writing a file', () => {
  it('replaces a good file only once the new one is whole: a failed write (a full disk) leaves it as it was and no temporary file', () => {
    const file = at('kept.txt');
    writeFileSync(file, 'the good file\n');
    vi.mocked(fs.writeSync).mockImplementationOnce(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    expect(writeAtomically(file, 'x'.repeat(100_000))).toBe(`cannot write ${file}: ENOSPC: no space left on device, write`);
    expect(readFileSync(file, 'utf8')).toBe('the good file\n');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writes the whole text, keeps the mode of the file it replaces, and writes through a link to its target', () => {
    const file = at('mode.txt');
    writeFileSync(file, 'old');
    chmodSync(file, 0o640);
    expect(writeAtomically(file, 'new text')).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe('new text');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    symlinkSync(file, at('mode-link.txt'));
    expect(writeAtomically(at('mode-link.txt'), 'through the link')).toBeNull();
    expect(fs.lstatSync(at('mode-link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('through the link');
  });

  it('says why a folder cannot be written', () => {
    mkdirSync(at('sub'));
    expect(writeAtomically(at('sub/missing/x.txt'), 'x')).toMatch(/^cannot write .*x\.txt: ENOENT/);
  });

  it('finds one file by any name: a hard link, a path with .., a new file in a linked folder', () => {
    fs.linkSync(at('risk.csv'), at('hard.csv'));
    symlinkSync(dir, at('linked-dir'));
    expect(outputCollision([['--report', at('hard.csv')]], [at('risk.csv')])).toContain('is the input');
    expect(outputCollision([['--report', `${dir}/sub/../risk.csv`]], [at('risk.csv')])).toContain('is the input');
    expect(outputCollision([['--output', at('new.json')], ['--report', join(at('linked-dir'), 'new.json')]], [])).toContain('is the same file as --output');
    expect(outputCollision([['--output', at('new.json')], ['--report', at('new.html')]], [at('risk.csv')])).toBeNull();
  });
});
