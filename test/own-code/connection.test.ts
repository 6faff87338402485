/**
 * Connection loss in the user client, as ioredis 5.11.1 handles it (lib/redis/event_handler.ts
 * closeHandler/readyHandler, lib/Redis.ts sendCommand/flushQueue, RedisOptions.ts defaults):
 * 'close' and 'reconnecting' events, reconnects per retryStrategy in simulated time,
 * MaxRetriesPerRequestError, "Connection is closed." when retryStrategy gives up, the offline
 * queue, and commands kept for the next connection.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';

const HERE = dirname(fileURLToPath(import.meta.url));

interface Outcome { value?: unknown; name?: string; error?: string; at: number }
interface Seen {
  events: string[]; before: Outcome; during: Outcome; after: Outcome; status: string; messages?: string[];
  refused?: Outcome; read?: Outcome; again?: Outcome; eventsAfterRefusal?: string[];
}

/** The probe's view; the primary dies at 1.5 s (the probe's first command runs at 1 s), restarted `restartAfter` later if given (else at 40 s, the end of the faults). */
function seen(probe: string, restartAfter?: string, topology = 'topology: standalone', faults?: string): Seen {
  const restart = restartAfter ? `, restart-after: ${restartAfter}` : '';
  const scenario = parseScenario(`
name: connection
seed: 1
duration: 40s
drain: 5s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }] }
network: { redis-latency: 1ms }
redis: { ${topology} }
faults: ${faults ?? `[{ kind: primary-crash, at: 1500ms${restart} }]`}
variants:
  v: { lock: { module: ./modules/connection.mjs, options: { probe: ${probe} } } }
`, join(HERE, 'connection.yaml'));
  const r = runSimulated(scenario, scenario.variants[0]);
  const op = r.history.find((o) => o.f === 'acquire' && o.type === 'fail');
  const detail = op && 'detail' in op ? String(op.detail) : '';
  const s = JSON.parse(detail.slice(detail.indexOf('RESULTS ') + 'RESULTS '.length).replace(/ \(at [^)]*\)$/, '')) as Seen;
  // Times from when the command after the death was sent (the probe's first command took a round trip).
  const sentAt = s.before?.at + 1000;
  for (const o of [s.during, s.after]) if (o) o.at -= sentAt;
  return s;
}

describe('a user client whose server dies', () => {
  it('emits close, then reconnecting with ioredis default delays (50, 100, 150 ms ...)', () => {
    const s = seen('default');
    expect(s.before.value).toBe('OK');
    expect(s.events.slice(0, 4)).toEqual(['close', 'reconnecting 50', 'close', 'reconnecting 100']);
  });

  it('fails a command with MaxRetriesPerRequestError at the 21st close (about 10.5 s: 50 + 100 + ... + 1000 ms of delays)', () => {
    const s = seen('default');
    expect(s.during).toMatchObject({ name: 'MaxRetriesPerRequestError', error: 'Reached the max retries per request limit (which is 20). Refer to "maxRetriesPerRequest" option for details.' });
    // Sent 0.5 s after the death: the reconnects before it count too.
    expect(s.during.at).toBeGreaterThan(9500);
    expect(s.during.at).toBeLessThan(10_500);
  });

  it('... with maxRetriesPerRequest: 1, at the second close after it was queued', () => {
    const s = seen('max-retries-1');
    expect(s.during).toMatchObject({ name: 'MaxRetriesPerRequestError', error: 'Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.' });
    expect(s.during.at).toBeLessThan(1000);
  });

  it('... and runs it on the restarted server when that comes back before the retries run out (the offline queue)', () => {
    const s = seen('default', '2s');
    expect(s.during.value).toBeNull(); // restarted empty: the key is gone, but the GET ran
    // The server is back 1.5 s after the command was sent; the next reconnect is within 0.5 s of that.
    expect(s.during.at).toBeGreaterThan(1500);
    expect(s.during.at).toBeLessThan(2100);
    expect(s.events).toContain('ready');
    expect(s.status).toBe('ready');
  });

  it('with maxRetriesPerRequest: null, waits through every reconnect until the server is back', () => {
    const s = seen('max-retries-null', '15s');
    expect(s.during.value).toBeNull();
    expect(s.during.at).toBeGreaterThan(14_500);
  });

  it('gives up when retryStrategy returns a non-number: "end", "Connection is closed." now and for every later command', () => {
    const s = seen('retry-null');
    expect(s.events).toEqual(['close', 'end']);
    expect(s.during).toMatchObject({ name: 'Error', error: 'Connection is closed.', at: 0 });
    expect(s.after).toMatchObject({ name: 'Error', error: 'Connection is closed.' });
    expect(s.status).toBe('end');
  });

  it('reconnects after the delays a custom retryStrategy returns, in simulated time', () => {
    const s = seen('retry-fixed');
    expect(s.events).toEqual(['close', 'reconnecting 300', 'close', 'reconnecting 300', 'close', 'reconnecting 300', 'close', 'end']);
    expect(s.during).toMatchObject({ error: 'Connection is closed.' });
    // The fourth close comes about 3 x 300 ms after the death, 0.4 s after the command was sent.
    expect(s.during.at).toBeGreaterThan(350);
    expect(s.during.at).toBeLessThan(450);
  });

  it('with enableOfflineQueue: false, fails a command sent while reconnecting at once', () => {
    const s = seen('no-offline-queue');
    expect(s.during).toMatchObject({ name: 'Error', error: "Stream isn't writeable and enableOfflineQueue options is false", at: 0 });
  });
});

describe('a user client on a Sentinel primary that dies', () => {
  const s = seen('subscribe', undefined, 'topology: sentinel, replicas: 1, down-after: 1s');

  it('reconnects to the promoted replica once the process knows it, and the waiting command runs there', () => {
    expect(s.during.value).toBe('v'); // replicated before the death
    expect(s.events.filter((e) => e === 'ready').length).toBeGreaterThan(0);
    expect(s.status).toBe('ready');
  });

  it('renews its subscriptions there (ioredis autoResubscribe): a message published after the failover arrives, as one before it did', () => {
    expect(s.messages).toEqual(['before', 'after']);
  });
});

/**
 * The primary and client-1 are cut off from the Sentinels and the replica for 20 s; the replica
 * is promoted. After the heal Sentinel makes the old primary a replica, with CLIENT KILL: the
 * client reconnects to the primary it knows, which it learns of only 60 s later (rediscover),
 * so it is connected to a replica.
 */
describe('READONLY after a failover: a user client connected to the demoted primary', () => {
  const world = 'topology: sentinel, replicas: 1, down-after: 1s, rediscover: 60s';
  const cut = '[{ kind: partition, at: 1500ms, duration: 20s, isolate: [redis-0, client-1] }]';

  it('gets ioredis ReplyError "READONLY You can\'t write against a read only replica." for a write', () => {
    const s = seen('readonly', undefined, world, cut);
    expect(s.refused).toMatchObject({ name: 'ReplyError', error: "READONLY You can't write against a read only replica." });
    expect(s.events).toContain('close'); // Sentinel's CLIENT KILL with the REPLICAOF
  });

  it('... reads still work there, and with reconnectOnError unset (the default) the connection stays: every write is refused', () => {
    const s = seen('readonly', undefined, world, cut);
    expect(s.read).toMatchObject({ value: expect.stringMatching(/^w\d+$/) });
    expect(s.again).toMatchObject({ name: 'ReplyError', error: "READONLY You can't write against a read only replica." });
    expect(s.eventsAfterRefusal).toEqual([]);
    expect(s.status).toBe('ready');
  });

  it('with reconnectOnError answering true, the client closes and reconnects after the refusal', () => {
    const s = seen('readonly-reconnect', undefined, world, cut);
    expect(s.refused).toMatchObject({ name: 'ReplyError', error: "READONLY You can't write against a read only replica." });
    expect(s.eventsAfterRefusal?.slice(0, 2)).toEqual(['close', 'reconnecting 50']);
  });
});
