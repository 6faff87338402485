/**
 * The ioredis-compatible client user modules get: commands by name and by call(), callbacks,
 * errors as ReplyError, scripts (EVAL, NOSCRIPT, SCRIPT LOAD, defineCommand), MULTI/EXEC,
 * INFO, WAIT, pub/sub message events, and commandTimeout on the client's clock.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function seen(probe: string, faults = 'faults: []', redis = ''): Record<string, unknown> {
  const scenario = parseScenario(`
name: client
seed: 1
duration: 2s
drain: 5s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }] }
network: { redis-latency: 1ms }
${redis}
${faults}
variants:
  v: { lock: { module: ./modules/surface.mjs, options: { probe: ${probe} } } }
`, join(HERE, 'client.yaml'));
  const r = runSimulated(scenario, scenario.variants[0]);
  const op = r.history.find((o) => o.f === 'acquire' && o.type === 'fail');
  const detail = op && 'detail' in op ? String(op.detail) : '';
  const json = detail.slice(detail.indexOf('RESULTS ') + 'RESULTS '.length).replace(/ \(at [^)]*\)$/, '');
  return JSON.parse(json) as Record<string, unknown>;
}

describe('the simulated ioredis client', () => {
  const s = seen('commands');

  it("hands user code its replies and options as its own realm's arrays, objects and errors", () => {
    // Made by the simulation, in another realm: \`instanceof Array\` was false, and their constructor led to the host's Function.
    const r = seen('realm');
    expect(r.arrays).toEqual([true, true, true, true]);
    expect(r.nested).toEqual([true, 'ReplyError', 'nested']);
    expect(r.objects).toEqual([true, true, true]);
    expect(r.functionOfRealm).toBe(true);
  });

  it('answers commands by name, by call() and through a callback, as ioredis shapes them', () => {
    expect(s.set).toBe('OK');
    expect(s.setAgain).toBeNull();
    expect(s.get).toBe('v1');
    expect(s.exists).toBe(1);
    expect(s.pexpire).toBe(1);
    expect(s.pttlAbove59s).toBe(true);
    expect(s.call).toBe('v1');
    expect(s.callback).toBe('cb:v1');
    expect(s.incr).toBe(1);
    expect(s.hset).toBe(2);
    expect(s.hincrby).toBe(5);
    expect(s.del).toBe(2);
  });

  it('rejects with a ReplyError carrying the server error text', () => {
    expect(s.wrongtype).toEqual({ name: 'ReplyError', error: 'WRONGTYPE Operation against a key holding the wrong kind of value' });
    expect(s.evalshaUnknown).toEqual({ name: 'ReplyError', error: 'NOSCRIPT No matching script. Please use EVAL.' });
  });

  it('runs user scripts as Lua: EVAL, SCRIPT LOAD + EVALSHA, defineCommand (EVALSHA, then EVAL on NOSCRIPT)', () => {
    expect(s.eval).toEqual(['k1', 'a1', 7]);
    expect(s.scriptLoad).toBe('loaded');
    expect(s.defineCommand).toBe('key=kk arg=aa');
  });

  it('runs MULTI/EXEC as one batch with a reply or a run-time error per command (no rollback)', () => {
    expect(s.multi).toEqual([[null, 'OK'], [null, 2], [null, '2'], [{ name: 'ReplyError' }, null]]); // an Error serialises as its own fields
  });

  it('aborts a transaction with a command refused when queued: EXECABORT, with the refusal in previousErrors, and nothing of it runs', () => {
    expect(s.execabort).toEqual({
      name: 'ReplyError',
      error: 'EXECABORT Transaction discarded because of previous errors.',
      previous: ["ERR wrong number of arguments for 'incr' command"],
    });
    expect(s.m2AfterAbort).toBe(0);
  });

  it('answers INFO and WAIT, and delivers published messages to a subscriber as message events', () => {
    expect(s.info).toBe('role:master');
    expect(s.wait).toBe(0);
    expect(s.subscribe).toBe(1);
    expect(s.publish).toBe(1);
    expect(s.messages).toEqual(['news:hello']);
  });
});

describe('MULTI/EXEC on independent masters', () => {
  it('runs through each master\'s transaction too: EXECABORT on a queued refusal, a reply per command otherwise', () => {
    const s = seen('commands', 'faults: []', 'redis: { topology: independent, masters: 3 }');
    expect((s.execabort as { error: string }).error).toBe('EXECABORT Transaction discarded because of previous errors.');
    expect(s.multi).toEqual([[null, 'OK'], [null, 2], [null, '2'], [{ name: 'ReplyError' }, null]]);
  });
});

describe('commandTimeout', () => {
  it('fails a command with "Command timed out" after 200 ms of the client clock when the server sleeps ...', () => {
    const s = seen('timeout', 'faults: [{ kind: redis-pause, node: redis-0, at: 900ms, duration: 2s }]');
    expect(s.get).toEqual({ name: 'Error', error: 'Command timed out' });
    expect(s.afterMs).toBe(200);
  });

  it('... and answers it when the server is awake', () => {
    const s = seen('timeout');
    expect(s.get).toBeNull();
    expect(s.afterMs).toBeLessThan(10);
  });
});
