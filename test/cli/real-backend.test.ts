/** run --backend redis and agree through the built CLI: refusals (exit 2) and a real run's output. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasRedis } from '../backends/real/redis-available.js';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'lock-sim-real-cli-'));
const serverClock = join(dir, 'server-clock.yaml');
writeFileSync(serverClock, `name: server-clock
duration: 2s
stock: { sku: 1, available: 5 }
workload: { arrival: 1/s }
faults:
  - { kind: clock-jump, target: redis-0, at: 1s, by: +20s }
variants:
  a: { lock: lua-unlock }
`);
const CVD = 'scenarios/real/constant-value-del.yaml';

describe('run --backend redis and agree: refusals', () => {
  it('a missing redis-server is exit 2 with the install hint', () => {
    const r = cli('run', CVD, '--backend', 'redis', '--redis-server', '/nonexistent/redis-server');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/redis-server not found .*apt-get install -y redis-server/);
    const a = cli('agree', CVD, '--repeat', '1', '--redis-server', '/nonexistent/redis-server');
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/apt-get install -y redis-server/);
  });

  it('an unknown backend, a repeat without the real backend and a zero repeat are exit 2', () => {
    expect(cli('run', CVD, '--backend', 'mongo').code).toBe(2);
    const r = cli('run', CVD, '--repeat', '2');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--repeat needs --backend redis');
    expect(cli('agree', CVD, '--repeat', '0').code).toBe(2);
  });

  it('agree: more repeats than seeds is refused with the reason; without --repeat it runs as many as the seeds (no refusal)', () => {
    const refused = cli('agree', CVD, '--seeds', '1..2', '--repeat', '3', '--redis-server', '/nonexistent/redis-server');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/replays seed i/);
    // Past the repeat check, the missing server is what stops it.
    const defaulted = cli('agree', CVD, '--seeds', '1..2', '--redis-server', '/nonexistent/redis-server');
    expect(defaulted.code).toBe(2);
    expect(defaulted.err).toMatch(/apt-get install -y redis-server/);
    expect(cli('agree', CVD, '--help').out).not.toMatch(/\(default: 20\)/);
  });

  it.skipIf(!hasRedis)('a fault on a Redis server\'s clock is exit 2, naming the fault', () => {
    const r = cli('run', serverClock, '--backend', 'redis');
    expect(r.code).toBe(2);
    expect(r.err).toContain('clock-jump on redis-0 cannot be made real');
  });

  it.skipIf(!hasRedis)('the simulator-only flags are refused with the real backend', () => {
    const r = cli('run', CVD, '--backend', 'redis', '--check-determinism');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--check-determinism is not available with --backend redis');
  });
});

describe.skipIf(!hasRedis)('run --backend redis', () => {
  it('prints each repeat marked as a real run; --json says it is not deterministic', () => {
    const text = cli('run', CVD, '--backend', 'redis', '--variant', 'token+lua');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^REAL RUN 1\/1 against redis-server 7\./);
    expect(text.out).toContain('not deterministic');
    const json = cli('run', CVD, '--backend', 'redis', '--variant', 'token+lua', '--repeat', '2', '--json');
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.out) as { backend: string; deterministic: boolean; repeats: Array<{ variants: Array<{ metrics: { doubleHolders: number } }> }> };
    expect(parsed.backend).toBe('redis');
    expect(parsed.deterministic).toBe(false);
    expect(parsed.repeats).toHaveLength(2);
    for (const r of parsed.repeats) expect(r.variants[0].metrics.doubleHolders).toBe(0);
  });
});
