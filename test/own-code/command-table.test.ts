/**
 * The simulated clients' command tables: the ioredis-compatible client has a method (lowercase
 * and uppercase, on the client and on a pipeline) for every command of @ioredis/commands (the
 * list ioredis 5.11.1 builds its methods from) but the ones whose messages it does not deliver;
 * the node-redis client's methods write node-redis' arguments and answer its reply shapes (v4
 * and v5: @redis/client 1.6.1 and 5.x lib/commands).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const IOREDIS_COMMANDS: string[] = createRequire(import.meta.url)('@ioredis/commands').list;
/** Commands whose replies or messages the simulated ioredis client does not deliver. */
const NOT_DELIVERED = ['psubscribe', 'punsubscribe', 'ssubscribe', 'sunsubscribe', 'monitor'];

function seen(client: string, options: object): Record<string, unknown> {
  const s = parseScenario(`
name: command-table
seed: 1
duration: 2s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }] }
network: { redis-latency: 1ms }
variants:
  v: { lock: { module: ./modules/command-table.mjs, client: ${client}, options: ${JSON.stringify(options)} } }
`, join(HERE, 'command-table.yaml'));
  const r = runSimulated(s, s.variants[0]);
  const op = r.history.find((o) => o.f === 'acquire' && o.type === 'fail');
  const detail = op && 'detail' in op ? String(op.detail) : '';
  return JSON.parse(detail.slice(detail.indexOf('RESULTS ') + 8).replace(/ \(at [^)]*\)$/, ''));
}

describe('the ioredis-compatible client', () => {
  it('has every command of @ioredis/commands as a method, on the client and on a pipeline', () => {
    const names = IOREDIS_COMMANDS.filter((n) => !NOT_DELIVERED.includes(n) && !n.includes('-'));
    expect(names.length).toBeGreaterThan(200);
    expect(seen('ioredis', { probe: 'methods', names })).toEqual({ missing: [], pipelineMissing: [], clientId: 'number', pipeline: [2, 2] });
  });

  it('does not have the commands whose messages it does not deliver', () => {
    expect(seen('ioredis', { probe: 'methods', names: NOT_DELIVERED }).missing).toEqual(NOT_DELIVERED);
  });
});

describe('the node-redis client command table', () => {
  const common = {
    lPush: 2, blPop: { key: 'l', element: 'b' }, sAdd: 2, zAdd: 2, zScore: 2.5,
    zRangeWithScores: [{ value: 'm1', score: 1 }, { value: 'm2', score: 2.5 }], zRangeByScore: ['m1'],
    zPopMin: { value: 'm1', score: 1 }, clientId: 'number',
  };
  it('v5: numbers for 0/1 replies, string cursors, scanIterator yields batches', () => {
    expect(seen('node-redis', {})).toEqual({ ...common, sIsMember: 1, scan: { cursor: '0', keys: ['l'] }, scanIterator: [['s']], multi: [2.5, 1] });
  });
  it('v4: booleans for 0/1 replies, numeric cursors, scanIterator yields keys', () => {
    expect(seen('node-redis@4', {})).toEqual({ ...common, sIsMember: true, scan: { cursor: 0, keys: ['l'] }, scanIterator: ['s'], multi: [2.5, true] });
  });
});
