/** The CLI under hostile use: closed pipes, bad flags, budgets, edited tallies. Through the built bin. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** `lock-sim ARGS | head ...` in bash: lock-sim's exit status, what head printed, lock-sim's stderr. */
function piped(args: string, head: string) {
  const r = spawnSync('bash', ['-c', `node bin/lock-sim.js ${args} 2>"$ERR" | ${head}; echo "status \${PIPESTATUS[0]}"`], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ERR: join(dir, 'stderr.txt') },
  });
  return { out: r.stdout, err: readFileSync(join(dir, 'stderr.txt'), 'utf8') };
}

const dir = mkdtempSync(join(tmpdir(), 'lock-sim-robust-'));
const small = join(dir, 'small.yaml');
writeFileSync(small, `name: small
duration: 2s
stock: { sku: 1, available: 5 }
workload: { users: 1, think: 1us }
variants:
  a: { lock: lua-unlock }
  b: { lock: lua-unlock, guard: conditional }
`);

describe('a closed pipe', () => {
  it('ends lock-sim quietly, with no EPIPE trace', () => {
    const list = piped('list', 'head -c 0');
    expect(list.err).toBe('');
    expect(list.out).toBe('status 0\n');
    const run = piped(`run ${small} --max-requests 5000000 --timeline --from 0s --to 1s`, 'head -1');
    expect(run.err).toBe('');
    expect(run.out).toBe('small  seed 1, 2s simulated\nstatus 0\n');
  });

  it('still gets everything when the reader reads everything', () => {
    const list = piped('list', 'wc -l');
    expect(list.err).toBe('');
    expect(Number(list.out.split('\n')[0])).toBe(cli('list').out.split('\n').length - 1);
  });
});

describe('flags checked before anything runs', () => {
  it('refuses an empty --report, an unwritable --output, a variant named twice and a key that does not exist', () => {
    expect(cli('run', small, '--report', '')).toMatchObject({ code: 2, err: 'lock-sim: --report needs a file name\n' });
    expect(cli('check', small, '--output', join(dir, 'nowhere', 'x.xml'))).toMatchObject({ code: 2, out: '' });
    expect(cli('compare', small, '--variants', 'a,a', '--seeds', '1', '--max-requests', '5000000')).toMatchObject({ code: 2, err: 'lock-sim: --variants names "a" more than once\n' });
    expect(cli('run', small, '--variant', 'a', '--variant', 'a').code).toBe(2);
    const key = cli('run', small, '--timeline', '--key', 'nope', '--max-requests', '5000000');
    expect(key).toMatchObject({ code: 2, err: 'lock-sim: --key nope: no such lock key in this scenario; its keys are lock:stock:1\n', out: '' });
  });

  it('runs with the same flags given right', () => {
    const report = join(dir, 'r.html');
    const r = cli('run', small, '--variant', 'a', '--timeline', '--key', 'lock:stock:1', '--from', '0s', '--to', '1s', '--report', report, '--max-requests', '5000000');
    expect(r.code).toBe(0);
    expect(r.out).toContain('timeline of lock:stock:1, 0us to 1s');
    expect(existsSync(report)).toBe(true);
  });
});

describe('--max-requests', () => {
  it('refuses a run over the budget at the field that sets the load, and says how to raise it', () => {
    const r = cli('run', small);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${small}:4:20: workload\\.users: about 2,000,000 requests per run .* raise the budget with --max-requests N\\n$`));
    expect(cli('run', small, '--max-requests', '-5').code).toBe(2);
  });

  it('runs it once the budget is raised', () => {
    const r = cli('run', small, '--max-requests', '4000000', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).variants[1].metrics.oversold).toBe(0);
  });
});

describe('merge of an edited tally', () => {
  it('names the file and the field', () => {
    const shard = join(dir, 'shard.json');
    expect(cli('compare', small, '--seeds', '1..2', '--shard', '1/2', '--output', shard, '--jobs', '1', '--max-requests', '5000000').code).toBe(0);
    const tally = JSON.parse(readFileSync(shard, 'utf8'));
    tally.shard = { k: 1, n: 1 };
    const edited = join(dir, 'edited.json');
    writeFileSync(edited, JSON.stringify(tally));
    const r = cli('merge', edited);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`${edited}: tally.variants[0].runs: 1 runs, but shard 1/1 of 2 seeds runs 2\n${edited}: tally.variants[1].runs: 1 runs, but shard 1/1 of 2 seeds runs 2\n`);
  });
});
