/**
 * The node-redis-compatible client (src/own-code/node-redis-client.ts): options objects of v4
 * and v5, camelCase commands, eval/evalSha with keys and arguments, scriptLoad, sendCommand,
 * multi, pub/sub listeners, duplicate; v4's boolean replies and `v4` property against v5's numbers.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function seen(client: string): Record<string, unknown> {
  const s = parseScenario(`
name: node-redis
seed: 1
duration: 2s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }] }
network: { redis-latency: 1ms }
variants:
  v: { lock: { module: ./modules/node-redis-surface.mjs, client: ${client} } }
`, join(HERE, 'node-redis.yaml'));
  const r = runSimulated(s, s.variants[0]);
  const op = r.history.find((o) => o.f === 'acquire' && o.type === 'fail');
  const detail = op && 'detail' in op ? String(op.detail) : '';
  return JSON.parse(detail.slice(detail.indexOf('RESULTS ') + 8).replace(/ \(at [^)]*\)$/, ''));
}

describe('a node-redis client', () => {
  it('v5: options objects, numbers for 0/1 replies, hGetAll an object, eval with keys, multi, pub/sub', () => {
    expect(seen('node-redis')).toEqual({
      v4: false, isOpen: true, setNxPx: 'OK', setV5: null, pTTL: true, get: 'a', setNX: 1, pExpire: 1, hSet: 2, hGetAll: { f: '1', g: '2' },
      eval: ['k1', 'a1'], evalSha: 'loaded', sendCommand: 'a', multi: ['OK', 2, '2'],
      multiError: { error: '1 commands failed, see .replies and .errorIndexes for more information', name: 'MultiErrorReply' },
      wrongType: { error: 'WRONGTYPE Operation against a key holding the wrong kind of value', name: 'ErrorReply' },
      setEx: 'OK', getDel: 'v', pubsub: 'ch:hello',
    });
  });

  it('v4 (node-redis@4): booleans for SETNX and PEXPIRE, and the v4 property libraries test for', () => {
    expect(seen('node-redis@4')).toMatchObject({ v4: true, setNX: true, pExpire: true, setNxPx: 'OK', hGetAll: { f: '1', g: '2' } });
  });
});
