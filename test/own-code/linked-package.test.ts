/**
 * A dependency reached through a symbolic link (a linked `node_modules`, `npm link`, a
 * workspace package kept outside the project) reads its own files while it loads, as
 * node-redis-warlock reads its Lua scripts: Node resolves the package to its real path, outside
 * the project's folder, and the sandbox lets it read there because the loader loaded a file
 * of that package. Its neighbour: the same package reading a file of another package that
 * nothing loaded is refused.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';

/** A project whose node_modules/linked-lock is a link to a package in a folder beside it. */
function linkedProject(readTarget: string): string {
  const root = mkdtempSync(join(tmpdir(), 'lock-sim-linked-'));
  const store = join(root, 'store', 'linked-lock');
  mkdirSync(store, { recursive: true });
  writeFileSync(join(store, 'package.json'), JSON.stringify({ name: 'linked-lock', version: '1.0.0', main: 'index.cjs' }));
  writeFileSync(join(store, 'unlock.lua'), "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end\n");
  mkdirSync(join(root, 'store', 'other'), { recursive: true });
  writeFileSync(join(root, 'store', 'other', 'secret.txt'), 'not a file of a loaded package\n');
  writeFileSync(
    join(store, 'index.cjs'),
    `const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const UNLOCK = readFileSync(join(__dirname, ${JSON.stringify(readTarget)}), 'utf8');
module.exports = function linkedLock([redis], { leaseMs }) {
  return {
    async acquire(key) { return (await redis.set(key, 'me', 'NX', 'PX', leaseMs)) === 'OK' ? { key } : null; },
    async release(_lock, key) { return (await redis.eval(UNLOCK, 1, key, 'me')) === 1; },
  };
};
`,
  );
  const project = join(root, 'project');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'project', version: '1.0.0', type: 'module' }));
  symlinkSync(store, join(project, 'node_modules', 'linked-lock'), 'dir');
  writeFileSync(join(project, 'lock.mjs'), "export { default } from 'linked-lock';\n");
  return project;
}

function runIn(project: string) {
  const scenario = parseScenario(
    `
name: linked
seed: 1
duration: 2s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }] }
network: { redis-latency: 1ms }
variants:
  v: { lock: { module: ./lock.mjs }, lease: 5s }
`,
    join(project, 'linked.yaml'),
  );
  return runSimulated(scenario, scenario.variants[0]!);
}

describe('a lock package reached through a symbolic link', () => {
  it('reads its own files while it loads, and its one request sells', () => {
    const result = runIn(linkedProject('unlock.lua'));
    expect(result.metrics.orders).toBe(1);
    expect(result.failures.requests).toEqual([]);
  });

  it('does not read a file of a package nothing loaded', () => {
    expect(() => runIn(linkedProject('../other/secret.txt'))).toThrow(/lock-sim refused node:fs readFileSync\(\)/);
  });
});
