/** The CLI end to end, through the built bin (npm test builds first). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('lock-sim run', () => {
  it('prints the verdict table and holds the failover expectations', () => {
    const r = cli('run', 'scenarios/failover.yaml');
    expect(r.code).toBe(0);
    expect(r.out).toContain('variant');
    expect(r.out).toContain('UNSAFE');
    expect(r.out).toMatch(/all \d+ expectations held/);
    expect(r.out).not.toMatch(/\u001b\[/); // NO_COLOR
  });

  it('--json is byte-identical for the same seed and differs for another seed', () => {
    const a = cli('run', 'scenarios/failover.yaml', '--json');
    const b = cli('run', 'scenarios/failover.yaml', '--json');
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    const parsed = JSON.parse(a.out);
    expect(parsed.variants.map((v: { name: string }) => v.name)).toEqual(['lua', 'watchdog-nosync', 'watchdog', 'lua+guard']);
    const c = cli('run', 'scenarios/failover.yaml', '--json', '--seed', '99');
    expect(JSON.parse(c.out).variants[0].metrics).not.toEqual(parsed.variants[0].metrics);
  });

  it('exits 1 with the failing expectation when one does not hold', () => {
    const r = cli('run', 'scenarios/failover.yaml', '--seed', '1', '--variant', 'watchdog-nosync');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}watchdog-nosync: double-holders >= 1 {2}\(measured 0\) {2}at scenarios\/failover\.yaml:\d+:\d+/);
  });

  it('reports a broken scenario with file:line:col, field path, did-you-mean, exit 2 and no stack', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-sim-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      ['name: bad', 'duration: 10s', 'stock: { sku: 1, available: 10 }', 'workload:', '  arival: 10/s', 'variants:', '  a: { lock: lua-unlok, lease: -5s }', ''].join('\n'),
    );
    const r = cli('run', file);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${file}:5:3: workload.arival: unknown field "arival" (did you mean "arrival"?)`);
    expect(r.err).toContain(`${file}:7:14: variants.a.lock: unknown lock "lua-unlok" (did you mean "lua-unlock"?)`);
    expect(r.err).toContain('variants.a.lease: a duration cannot be negative, found "-5s"');
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('rejects YAML syntax errors, missing files and bad flags with exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-sim-'));
    const file = join(dir, 'syntax.yaml');
    writeFileSync(file, 'name: x\nstock: [1, 2\n');
    const y = cli('run', file);
    expect(y.code).toBe(2);
    expect(y.err).toMatch(/syntax\.yaml:\d+:\d+: \(top level\): YAML:/);
    expect(cli('run', join(dir, 'missing.yaml')).code).toBe(2);
    expect(cli('run', 'scenarios/failover.yaml', '--seed', 'abc').code).toBe(2);
    expect(cli('run', 'scenarios/failover.yaml', '--variant', 'nope').code).toBe(2);
  });
});
