/**
 * A client thread interpreting its effect program (ClientHost.run, world/thread-run.ts): the
 * outcomes its program reads, and the commands and statements refilled once their reply was
 * read (never one still on its way).
 */
import { describe, expect, it } from 'vitest';
import { constant } from '../../src/engine/distribution.js';
import type { Signal } from '../../src/engine/signal.js';
import { Simulation } from '../../src/engine/simulation.js';
import { ClientHost, type ThreadContext } from '../../src/world/client-host.js';
import { LocalClock } from '../../src/world/clock.js';
import { Database, type DbResult, type DbStatement } from '../../src/world/database.js';
import { primaryCommand, type Effect, type EffectProgram, type RedisOutcome } from '../../src/world/effects.js';
import { CLIENT_MODELS } from '../../src/world/client-model.js';
import { Fabric } from '../../src/world/network.js';
import { SimTransport } from '../../src/world/sim-transport.js';
import { RedisNode } from '../../src/world/redis/node.js';
import type { RedisReply } from '../../src/world/redis/reply.js';

const MS = 1_000;

/** One client 1 ms from redis-0 each way, 3 s command timeout, statements of 2 ms; every command's signal noted. */
function setup() {
  const sim = new Simulation(1);
  const node = new RedisNode('redis-0', sim, new LocalClock(sim));
  const database = new Database({ statementTime: constant(2 * MS) }, sim.random.fork('db'));
  database.addStock(1, 10);
  const hooks = { note: () => undefined, crashPoint: () => false };
  const host = new ClientHost('client-1', sim, { poolSize: 2, commandTimeoutUs: 3_000 * MS, replicated: false, redisPoolSize: 8 }, (h) => new SimTransport(h, sim, new Fabric(), constant(1 * MS), node, [], CLIENT_MODELS.jedis), database, new Map(), hooks);
  const sent: Signal<RedisReply>[] = [];
  const transport = host.transport;
  const send = transport.send.bind(transport);
  transport.send = (target, command, tag) => {
    const s = send(target, command, tag);
    sent.push(s);
    return s;
  };
  const statements: Signal<DbResult>[] = [];
  const statement = host.statement.bind(host);
  host.statement = (st, owner) => {
    const s = statement(st, owner);
    statements.push(s);
    return s;
  };
  const thread: ThreadContext = { name: 'client-1/worker-1', rng: sim.random.fork('t'), requestTag: 'r1' };
  const start = (program: EffectProgram<unknown>) => host.startThread(thread, host.run(program, thread));
  return { sim, node, host, sent, statements, start };
}

const db = (statement: DbStatement): Effect => ({ kind: 'db', statement });

describe('ClientHost.run', () => {
  it("a command whose reply the thread read is refilled for the thread's next command", () => {
    const { sim, sent, start } = setup();
    const seen: RedisOutcome[] = [];
    start(
      (function* () {
        seen.push((yield primaryCommand(['SET', 'k', 'v'])) as RedisOutcome);
        seen.push((yield primaryCommand(['GET', 'k'])) as RedisOutcome);
      })(),
    );
    sim.run();
    expect(seen).toEqual([{ status: 'ok', reply: 'OK' }, { status: 'ok', reply: 'v' }]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
  });

  it('a command that timed out is not refilled: its late reply answers nothing of the next command', () => {
    const { sim, sent, start } = setup();
    const seen: RedisOutcome[] = [];
    start(
      (function* () {
        // 1 ms out, 1 ms back: a 1.5 ms timeout passes first.
        seen.push((yield { kind: 'redis', target: 'primary', command: ['SET', 'k', 'v'], timeoutUs: 1.5 * MS }) as RedisOutcome);
        seen.push((yield primaryCommand(['GET', 'k'])) as RedisOutcome);
      })(),
    );
    sim.run();
    expect(seen).toEqual([{ status: 'timeout' }, { status: 'ok', reply: 'v' }]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).not.toBe(sent[0]);
    expect(sent[0].value).toBe('OK');
  });

  it('a pipeline: each reply until the common deadline, in order; only the answered commands are refilled', () => {
    const { sim, sent, start } = setup();
    let outcomes: RedisOutcome[] = [];
    let after: RedisOutcome | null = null;
    start(
      (function* () {
        // WAIT 1 50 blocks 50 ms (no replica): past the 10 ms deadline.
        outcomes = (yield { kind: 'redis-pipeline', commands: [['SET', 'k', 'v'], ['WAIT', '1', '50'], ['GET', 'k']], timeoutUs: 10 * MS }) as RedisOutcome[];
        after = (yield primaryCommand(['GET', 'k'])) as RedisOutcome;
      })(),
    );
    sim.run();
    expect(outcomes).toEqual([{ status: 'ok', reply: 'OK' }, { status: 'timeout' }, { status: 'ok', reply: 'v' }]);
    expect(after).toEqual({ status: 'ok', reply: 'v' });
    expect(sent).toHaveLength(4);
    expect([sent[0], sent[2]]).toContain(sent[3]);
    expect(sent[3]).not.toBe(sent[1]);
  });

  it('a statement whose result the thread read is refilled for its next statement; a transaction keeps its connection', () => {
    const { sim, host, statements, start } = setup();
    const seen: DbResult[] = [];
    start(
      (function* () {
        seen.push((yield db({ kind: 'begin', requestTag: 'r1' })) as DbResult);
        seen.push((yield db({ kind: 'select-stock', sku: 1 })) as DbResult);
        seen.push((yield db({ kind: 'commit' })) as DbResult);
      })(),
    );
    sim.run();
    expect(seen.map((r) => r.kind)).toEqual(['begun', 'row', 'affected']);
    expect(seen[1]).toEqual({ kind: 'row', row: { available: 10, version: 0, maxFence: 0 } });
    expect(statements).toHaveLength(3);
    expect(statements[1]).toBe(statements[0]);
    expect(statements[2]).toBe(statements[0]);
    // Both connections free again: two statements at once do not wait for each other.
    expect(host.pool.acquire()).toBeNull();
    expect(host.pool.acquire()).toBeNull();
    expect(host.pool.acquire()).not.toBeNull();
  });

  it('a thread killed while its statement runs never reads it: the statement is not refilled', () => {
    const { sim, host, statements, start } = setup();
    const p = start(
      (function* () {
        yield db({ kind: 'select-stock', sku: 1 });
      })(),
    );
    sim.schedule(1 * MS, () => p.kill());
    sim.run();
    const next = start(
      (function* () {
        yield db({ kind: 'select-stock', sku: 1 });
      })(),
    );
    sim.run();
    expect(next.done).toBe(true);
    expect(statements).toHaveLength(2);
    expect(statements[1]).not.toBe(statements[0]);
    expect(statements[0].fired).toBe(true);
    void host;
  });
});
