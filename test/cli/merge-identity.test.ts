/**
 * merge adds up only shards of one run: the same scenario content, module code, seed list and
 * lock-sim version (tally-identity.ts). Shards of `--seeds 1,3,5,7` and `--seeds 2,4,6,8`,
 * both labelled "4 seeds", merged with exit 0 before. Through the built bin.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleCodeHash } from '../../src/scenario/module-files.js';
import { identityProblems, scenarioIdentity, seedsIdentity, type TallyHeader } from '../../src/sweep/tally-identity.js';
import { loadScenario } from '../../src/scenario/load.js';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'lock-sim-merge-'));
const small = join(dir, 'small.yaml');
const TEXT = `name: small
duration: 2s
stock: { sku: 1, available: 5 }
workload: { users: 1, think: 1ms }
variants:
  a: { lock: lua-unlock }
  b: { lock: lua-unlock, guard: conditional }
`;
writeFileSync(small, TEXT);
const at = (name: string) => join(dir, name);
const MAX = ['--max-requests', '5000000', '--jobs', '1'];

describe('merge of compare shards', () => {
  it('refuses shards that ran different seed lists of one size, naming the file and the field', () => {
    expect(cli('compare', small, '--seeds', '1,3,5,7', '--shard', '1/2', '--output', at('odd.json'), ...MAX).code).toBe(0);
    expect(cli('compare', small, '--seeds', '2,4,6,8', '--shard', '2/2', '--output', at('even.json'), ...MAX).code).toBe(0);
    const r = cli('merge', at('odd.json'), at('even.json'));
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^${at('even.json')}: seeds: ran 4 seeds \\(4 seeds, list [0-9a-f]{12}\\), ${at('odd.json')} 4 seeds \\(4 seeds, list [0-9a-f]{12}\\): shards of one compare run the same --seeds\\n$`));
  });

  it('merges the shards of one seed list into exactly the unsharded output', () => {
    expect(cli('compare', small, '--seeds', '1,3,5,7', '--shard', '2/2', '--output', at('odd2.json'), ...MAX).code).toBe(0);
    const merged = cli('merge', at('odd.json'), at('odd2.json'), '--json');
    expect(merged.code).toBe(0);
    expect(merged.out).toBe(cli('compare', small, '--seeds', '1,3,5,7', '--json', ...MAX).out);
  });

  it('refuses another scenario, another version, an older format and a shard given twice', () => {
    writeFileSync(at('other.yaml'), TEXT.replace('available: 5', 'available: 6'));
    expect(cli('compare', at('other.yaml'), '--seeds', '1,3,5,7', '--shard', '2/2', '--output', at('other.json'), ...MAX).code).toBe(0);
    expect(cli('merge', at('odd.json'), at('other.json')).err).toMatch(/other\.json: scenario\.fingerprint: a tally of another scenario \(small, content [0-9a-f]{16}\) than .*odd\.json \(small, content [0-9a-f]{16}\): shards of one compare run the same file/);
    const tally = JSON.parse(readFileSync(at('odd2.json'), 'utf8'));
    writeFileSync(at('v2.json'), JSON.stringify({ ...tally, version: '9.9.9' }));
    expect(cli('merge', at('odd.json'), at('v2.json')).err).toContain('v2.json: version: written by lock-sim 9.9.9');
    writeFileSync(at('old.json'), JSON.stringify({ ...tally, format: 'lock-sim-compare-tally/1' }));
    expect(cli('merge', at('odd.json'), at('old.json')).err).toContain('old.json: written by an older lock-sim (format lock-sim-compare-tally/1), which did not record the seed list');
    const twice = cli('merge', at('odd.json'), at('odd.json'));
    expect(twice).toMatchObject({ code: 2, err: `lock-sim: shards must be 1..2 once each; missing 2/2; given twice 1/2 (${at('odd.json')}, ${at('odd.json')})\n` });
  });

  it('refuses a tally that is not JSON, or a folder with no tally in it, at its name', () => {
    // A folder is read as a folder of tallies (merge tallies/): one with none in it is named.
    mkdirSync(at('folder.json'));
    expect(cli('merge', at('folder.json'), at('odd.json')).err).toContain('folder.json: a folder with no .json tally files in it');
    writeFileSync(at('junk.json'), '{ not json');
    expect(cli('merge', at('junk.json'), at('odd.json')).err).toContain('junk.json: cannot read a tally');
  });
});

describe('merge of sweep shards', () => {
  it('refuses shards of other seeds, and merges the shards of one sweep', () => {
    const sweep = (seeds: string, shard: string, out: string) => cli('sweep', small, '--param', 'variants.a.lease=1s,2s', '--seeds', seeds, '--shard', shard, '--output', at(out), ...MAX).code;
    expect([sweep('1..4', '1/2', 'w1.json'), sweep('2..5', '2/2', 'w2.json'), sweep('1..4', '2/2', 'w3.json')]).toEqual([0, 0, 0]);
    expect(cli('merge', at('w1.json'), at('w2.json')).err).toMatch(/w2\.json: seeds: ran 4 seeds \(2\.\.5, list [0-9a-f]{12}\), .*w1\.json 4 seeds \(1\.\.4, list [0-9a-f]{12}\): shards of one sweep run the same --seeds/);
    const merged = cli('merge', at('w1.json'), at('w3.json'), '--json');
    expect(merged.code).toBe(0);
    expect(merged.out).toBe(cli('sweep', small, '--param', 'variants.a.lease=1s,2s', '--seeds', '1..4', '--json', ...MAX).out);
    expect(cli('merge', at('w1.json'), at('odd.json')).err).toContain('odd.json: format: a compare tally');
  });

  it('refuses a sweep tally whose cells were edited out of the grid', () => {
    const tally = JSON.parse(readFileSync(at('w3.json'), 'utf8'));
    writeFileSync(at('w4.json'), JSON.stringify({ ...tally, cells: tally.cells.slice(0, 1) }));
    expect(cli('merge', at('w1.json'), at('w4.json')).err).toContain('w4.json: cells: 1 cells, but the axes make 2');
  });
});

describe('identities', () => {
  const header = (over: Partial<TallyHeader> = {}): TallyHeader => ({
    version: '0.1.0',
    scenario: { name: 's', file: 's.yaml', fingerprint: 'f'.repeat(16), code: null },
    seeds: seedsIdentity([1, 2, 3]),
    shard: { k: 1, n: 2 },
    variants: ['a'],
    baseline: null,
    ...over,
  });

  it('name every field that differs, and nothing when the shards agree', () => {
    expect(identityProblems(['a', 'b'], [header(), header({ shard: { k: 2, n: 2 } })], 'compare')).toEqual([]);
    const other = header({ version: '0.2.0', scenario: { name: 's', file: 's.yaml', fingerprint: 'f'.repeat(16), code: 'c'.repeat(64) }, seeds: seedsIdentity([1, 2, 4]), variants: ['b'], baseline: 'b', shard: { k: 1, n: 3 } });
    expect(identityProblems(['a', 'b'], [header(), other], 'compare').map((p) => p.split(':').slice(0, 2).join(':'))).toEqual(['b: version', 'b: scenario.code', 'b: seeds', 'b: variants', 'b: baseline', 'b: shard']);
  });

  it('hash a seed list exactly: order and every seed count, the label does not', () => {
    expect(seedsIdentity([1, 3, 5, 7]).label).toBe(seedsIdentity([2, 4, 6, 8]).label);
    expect(seedsIdentity([1, 3, 5, 7]).sha256).not.toBe(seedsIdentity([2, 4, 6, 8]).sha256);
    expect(seedsIdentity([1, 2]).sha256).not.toBe(seedsIdentity([2, 1]).sha256);
    expect(seedsIdentity([12, 3]).sha256).not.toBe(seedsIdentity([1, 23]).sha256);
    const many = Array.from({ length: 25_000 }, (_, i) => i + 1);
    expect(seedsIdentity(many).sha256).toBe(seedsIdentity([...many]).sha256);
    expect(seedsIdentity(many).sha256).not.toBe(seedsIdentity([...many.slice(0, -1), 25_001]).sha256);
  });

  it("hash a module's code with the user's files it imports, wherever the folder lies, and not node_modules", () => {
    const tree = (root: string, helper: string) => {
      mkdirSync(join(root, 'locks', 'node_modules', 'pkg'), { recursive: true });
      writeFileSync(join(root, 'locks', 'lock.mjs'), "import { h } from './helper.mjs';\nimport pkg from 'pkg';\nconst x = require('./data.json');\nexport default () => h;\n");
      writeFileSync(join(root, 'locks', 'helper.mjs'), helper);
      writeFileSync(join(root, 'locks', 'data.json'), '{}');
      writeFileSync(join(root, 'locks', 'node_modules', 'pkg', 'index.js'), 'module.exports = 1;');
      return moduleCodeHash([join(root, 'locks', 'lock.mjs')], join(root, 'scenario.yaml'));
    };
    const a = tree(join(dir, 'tree-a'), 'export const h = 1;\n');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(tree(join(dir, 'tree-b'), 'export const h = 1;\n')).toBe(a);
    expect(tree(join(dir, 'tree-c'), 'export const h = 2;\n')).not.toBe(a);
    writeFileSync(join(dir, 'tree-b', 'locks', 'node_modules', 'pkg', 'index.js'), 'module.exports = 2;');
    expect(moduleCodeHash([join(dir, 'tree-b', 'locks', 'lock.mjs')], join(dir, 'tree-b', 'scenario.yaml'))).toBe(a);
    writeFileSync(join(dir, 'tree-b', 'locks', 'data.json'), '{"changed":1}');
    expect(moduleCodeHash([join(dir, 'tree-b', 'locks', 'lock.mjs')], join(dir, 'tree-b', 'scenario.yaml'))).not.toBe(a);
    expect(moduleCodeHash([], join(dir, 'scenario.yaml'))).toBeNull();
  });

  it('are the same for an own-code scenario in two checkouts (the module\'s absolute path does not count), and differ when its code does', () => {
    const checkout = (name: string) => {
      const root = join(dir, name);
      cpSync('scenarios/own-code/locks', join(root, 'locks'), { recursive: true });
      cpSync('scenarios/own-code/constant-value-del.yaml', join(root, 's.yaml'));
      return root;
    };
    const [a, b] = [checkout('checkout-a'), checkout('checkout-b')];
    const id = (root: string) => scenarioIdentity(loadScenario(join(root, 's.yaml')));
    expect({ ...id(b), file: '' }).toEqual({ ...id(a), file: '' });
    expect(id(a).code).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(b, 'locks', 'token-lock.mjs'), `${readFileSync(join(b, 'locks', 'token-lock.mjs'), 'utf8')}\n// edited\n`);
    expect(id(b).fingerprint).toBe(id(a).fingerprint);
    expect(id(b).code).not.toBe(id(a).code);
  });
});
