/**
 * Runs one command sequence on the model (a RedisNode on a simulated clock) and on a real
 * redis-server, and lists every disagreement: each reply, the pushes each connection received,
 * whether a blocked connection is still blocked, then the keyspace after each step (TYPE, the
 * value read by its type, OBJECT ENCODING, PTTL) of every key the sequence names.
 *
 * Connections: a step runs on connection "a" unless it names another (`on`); each is a real
 * socket on one side and a session (RedisNode.openSession) on the other, opened in the same
 * order, so CLIENT ID answers are compared by the connection they name ("@b"), and an argument
 * "@b" is replaced by connection b's id on each side. A step that may block (`async`) is not
 * awaited: after every step each pending command is checked, on the model by whether it was
 * answered, on the server by CLIENT LIST ID (flag b) once the server has read it. A subscribed
 * connection is drained after each step with a PING: what arrived before its "pong" are its
 * pushes, compared as a multiset (Redis walks its pattern dict in hash-seed order).
 *
 * Time, so the comparison cannot be flaky: the model's simulation is run up to the real
 * server's clock (TIME) before each step, read after the previous step's reply and once it has
 * moved on by a millisecond; so both sides see the steps at strictly increasing milliseconds,
 * in the same order, and the model's timers (a blocked pop's timeout, WAIT's) fall due as the
 * server's do. What still differs is how long the server took to receive a command: replies that
 * count time left (PTTL, TTL and scripts that answer a PTTL) agree within a tolerance (5 s; 5 for
 * TTL seconds), and the sequences never put a deadline within 30 s of the instant a step runs
 * (relative TTLs of 90, 150 or 210 s, absolute ones on whole minutes from the sequence's start,
 * or long past), so which keys are expired is the same on both sides. A blocking timeout is
 * answered at a serverCron tick (every 100 ms, at a phase the model cannot know): sequences
 * sleep well past one before they look.
 */
import { Simulation } from '../../src/engine/simulation.js';
import { LocalClock } from '../../src/world/clock.js';
import { RedisNode } from '../../src/world/redis/node.js';
import { RedisErrorReply, type RedisReply } from '../../src/world/redis/reply.js';
import type { ClientSession } from '../../src/world/redis/session.js';
import { luaScriptRunner } from '../../src/own-code/lua-runner.js';
import { type Resp, RespClient, ServerError } from './resp.js';

/** `ms`: an integer reply is a PTTL (within 5000); `s`: a TTL (within 5). */
export type Tolerance = 'ms' | 's';

interface StepBase {
  /** The connection (default "a"). */
  on?: string;
  tol?: Tolerance;
  /** Compare an array reply as a multiset (an order Redis takes from its hash seed). */
  unordered?: boolean;
}

export type Step =
  | (StepBase & { args: string[]; async?: boolean })
  | (StepBase & { multi: string[][] })
  /** Iterates a SCAN-family command from cursor 0 to 0 (args without the cursor: ['SCAN'], ['HSCAN', key, ...]), comparing what was seen. */
  | (StepBase & { scanAll: string[] })
  /** Waits (real time; the model's clock follows). */
  | { sleepMs: number }
  /**
   * The primary turns replica and back (the server: REPLICAOF of a port where nothing listens,
   * then REPLICAOF NO ONE; the model: demoteToReplicaOf an empty node, then promote). Only for
   * sequences without keys: a replica that never synced keeps its data, the model's copies the primary's.
   */
  | { demote: true };

export interface Disagreement {
  step: number;
  what: string;
  model: unknown;
  real: unknown;
}

const TOLERANCE: Record<Tolerance, bigint> = { ms: 5000n, s: 5n };

type Canon = null | string | { int: string } | { err: string } | Canon[];

function canonModel(r: RedisReply | undefined): Canon {
  if (r === undefined) return { err: '<no reply from the model>' };
  if (r instanceof RedisErrorReply) return { err: r.message };
  if (typeof r === 'number' || typeof r === 'bigint') return { int: String(r) };
  if (Array.isArray(r)) return r.map(canonModel);
  return r;
}

function canonReal(r: Resp): Canon {
  if (r instanceof ServerError) return { err: r.message };
  if (typeof r === 'number' || typeof r === 'bigint') return { int: String(r) };
  if (Array.isArray(r)) return r.map(canonReal);
  return r;
}

/**
 * INFO: the model prints the replication lines lock clients read (role, connected_slaves);
 * the server prints many more. Both are cut to those lines, wherever an INFO text appears
 * (also inside an EXEC reply).
 */
function infoLines(c: Canon): Canon {
  if (Array.isArray(c)) return c.map(infoLines);
  if (typeof c !== 'string' || !c.startsWith('# ')) return c;
  return c
    .split('\r\n')
    .filter((l) => /^(role|connected_slaves):/.test(l))
    .join('\n');
}

const sortedCanon = (c: Canon): Canon => (Array.isArray(c) ? [...c].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1)) : c);

/** An array of field / value pairs as a sorted list of pairs (a hashtable's HGETALL, ZSCAN pairs). */
const sortedPairs = (c: Canon): Canon => {
  if (!Array.isArray(c)) return c;
  const pairs: Canon[] = [];
  for (let i = 0; i + 1 < c.length; i += 2) pairs.push([c[i], c[i + 1]]);
  return sortedCanon(pairs);
};

function agree(model: Canon, real: Canon, tol: Tolerance | undefined): boolean {
  if (Array.isArray(model) && Array.isArray(real)) {
    return model.length === real.length && model.every((m, i) => agree(m, real[i], tol));
  }
  if (tol !== undefined && model !== null && real !== null && typeof model === 'object' && typeof real === 'object' && 'int' in model && 'int' in real) {
    const a = BigInt(model.int);
    const b = BigInt(real.int);
    // -1 / -2 (no TTL, no key) must match exactly; a time left within the tolerance.
    if (a < 0n || b < 0n) return a === b;
    return (a > b ? a - b : b - a) <= TOLERANCE[tol];
  }
  return JSON.stringify(model) === JSON.stringify(real);
}

/** One connection, on both sides. */
interface Connection {
  session: ClientSession;
  modelPushes: RedisReply[];
  real: RespClient;
  modelId: number;
  realId: number;
  /** Async commands not yet compared, oldest first (the later ones wait behind a blocked one on both sides). */
  pending: Pending[];
}

interface Pending {
  label: string;
  step: number;
  model: RedisReply | undefined;
  modelDone: boolean;
  real: Promise<Resp>;
  realDone: boolean;
  realValue: Resp;
}

const isPong = (r: Resp): boolean => r === 'PONG' || (Array.isArray(r) && r[0] === 'pong');

export class Conformance {
  private sim = new Simulation(1);
  private clock = new LocalClock(this.sim);
  // User scripts (EVAL of anything but the built-in scripts) run in the own-code Lua VM.
  private node = new RedisNode('model', this.sim, this.clock, luaScriptRunner);
  private lastMs = 0;
  private connections = new Map<string, Connection>();

  constructor(
    /** The control connection (TIME, FLUSHALL, the keyspace reads, CLIENT LIST). */
    private readonly real: RespClient,
    /** Opens one more connection to the server. */
    private readonly connect: () => Promise<RespClient>,
  ) {}

  /** The real server's clock in ms (TIME). */
  async serverMs(): Promise<number> {
    const [s, us] = (await this.real.send(['TIME'])) as string[];
    return Number(s) * 1000 + Math.floor(Number(us) / 1000);
  }

  /** Empties both sides (keys, script caches, connections); returns the server's time then. */
  async reset(): Promise<number> {
    for (const c of this.connections.values()) c.real.close();
    this.connections.clear();
    await this.real.send(['FLUSHALL']);
    await this.real.send(['SCRIPT', 'FLUSH']);
    this.sim = new Simulation(1);
    this.clock = new LocalClock(this.sim);
    this.node = new RedisNode('model', this.sim, this.clock, luaScriptRunner);
    this.lastMs = await this.serverMs();
    // The simulation starts at the server's clock; it then runs along with it (syncClock).
    this.clock.offsetUs = this.lastMs * 1000;
    return this.lastMs;
  }

  private async connection(name: string): Promise<Connection> {
    const known = this.connections.get(name);
    if (known !== undefined) return known;
    const real = await this.connect();
    const realId = Number(await real.send(['CLIENT', 'ID']));
    const session = this.node.openSession();
    const c: Connection = { session, modelPushes: [], real, modelId: session.id, realId, pending: [] };
    session.onPush = (p) => c.modelPushes.push(p);
    this.connections.set(name, c);
    return c;
  }

  /** Runs the model up to the server's clock, once that has passed the last step's millisecond. */
  private async syncClock(): Promise<void> {
    let ms = await this.serverMs();
    while (ms <= this.lastMs) {
      await new Promise((r) => setTimeout(r, 1));
      ms = await this.serverMs();
    }
    const targetUs = ms * 1000 - this.clock.offsetUs;
    if (targetUs > this.sim.nowUs) this.sim.run(targetUs);
    else this.clock.offsetUs = ms * 1000 - this.sim.nowUs;
  }

  /** A command on the model without a connection of its own (the keyspace reads). */
  private modelCommand(args: readonly string[], session?: ClientSession): RedisReply | undefined {
    let out: RedisReply | undefined;
    this.node.execute(args, 'conformance', (r) => (out = r), session);
    // A blocked WAIT answers once its timeout has passed on the simulated clock.
    for (let i = 0; out === undefined && i < 10_000 && args[0].toUpperCase() === 'WAIT'; i++) this.sim.run(this.sim.nowUs + 1000);
    return out;
  }

  private modelTransaction(commands: readonly string[][], session: ClientSession): Canon {
    let out: Canon = { err: '<no reply from the model>' };
    this.node.executeTransaction(commands, 'conformance', (r) => {
      out = [canonModel(r.multi), ...r.queued.map(canonModel), canonModel(r.exec)];
    }, session);
    return out;
  }

  private async realTransaction(commands: readonly string[][], real: RespClient): Promise<Canon> {
    const replies: Canon[] = [canonReal(await real.send(['MULTI']))];
    for (const c of commands) replies.push(canonReal(await real.send(c)));
    replies.push(canonReal(await real.send(['EXEC'])));
    return replies;
  }

  /** "@b" is connection b's id on that side. */
  private async resolveIds(args: readonly string[], side: 'model' | 'real'): Promise<string[]> {
    const out: string[] = [];
    for (const a of args) {
      if (/^@[a-z]$/.test(a)) {
        const c = await this.connection(a.slice(1));
        out.push(String(side === 'model' ? c.modelId : c.realId));
      } else out.push(a);
    }
    return out;
  }

  /** A CLIENT ID answer as the connection it names. */
  private idAsName(c: Canon, side: 'model' | 'real'): Canon {
    if (c === null || typeof c !== 'object' || Array.isArray(c) || !('int' in c)) return c;
    for (const [name, conn] of this.connections) if (String(side === 'model' ? conn.modelId : conn.realId) === c.int) return `@${name}`;
    return c;
  }

  /** SCAN-family from cursor 0 to 0 on one side: the elements seen (pairs for HSCAN / ZSCAN), in the order seen. */
  private async scanAll(args: readonly string[], side: 'model' | 'real', c: Connection): Promise<Canon> {
    const keyed = args[0].toUpperCase() !== 'SCAN';
    const seen: Canon[] = [];
    let cursor = '0';
    for (let calls = 0; calls < 1000; calls++) {
      const full = keyed ? [args[0], args[1], cursor, ...args.slice(2)] : [args[0], cursor, ...args.slice(1)];
      const r = side === 'model' ? canonModel(this.modelCommand(full, c.session)) : canonReal(await c.real.send(full));
      if (!Array.isArray(r) || r.length !== 2 || typeof r[0] !== 'string' || !Array.isArray(r[1])) return r;
      seen.push(...r[1]);
      cursor = r[0];
      if (cursor === '0') break;
    }
    const pairs = ['HSCAN', 'ZSCAN'].includes(args[0].toUpperCase());
    return pairs ? sortedPairs(seen) : sortedCanon(seen);
  }

  /**
   * Whether the server holds a connection's command blocked (CLIENT LIST ID: flag b). Until
   * the server has read the command it is neither blocked nor answered: ask again until it is one
   * or the other.
   */
  private async realBlocked(c: Connection, p: Pending): Promise<boolean> {
    for (let tries = 0; tries < 2000; tries++) {
      if (p.realDone) return false;
      const line = String(await this.real.send(['CLIENT', 'LIST', 'ID', String(c.realId)]));
      if ((/flags=(\S+)/.exec(line)?.[1] ?? '').includes('b')) return true;
      await Promise.race([p.real, new Promise((r) => setTimeout(r, 1))]);
    }
    return false;
  }

  /** Compares each pending command: answered on both sides (then the replies), or blocked on both. */
  private async checkPending(out: Disagreement[], step: number): Promise<void> {
    for (const [name, c] of this.connections) {
      while (c.pending.length > 0) {
        const p = c.pending[0];
        let blocked = await this.realBlocked(c, p);
        // Answered on the model but blocked on the server: the server may have answered it and
        // blocked on the next queued command already, its reply still on the way.
        if (p.modelDone && blocked) {
          await Promise.race([p.real, new Promise((r) => setTimeout(r, 1000))]);
          blocked = !p.realDone;
        }
        if (!p.modelDone && blocked) {
          // Those behind it wait on both sides; the model must not have answered them either.
          for (const later of c.pending.slice(1)) {
            if (later.modelDone) out.push({ step, what: `${name}: ${later.label} (sent at step ${later.step})`, model: canonModel(later.model), real: '<waiting behind a blocked command>' });
          }
          break;
        }
        if (p.modelDone && blocked) {
          out.push({ step, what: `${name}: ${p.label} (sent at step ${p.step})`, model: canonModel(p.model), real: '<still blocked>' });
          break;
        }
        await Promise.race([p.real, new Promise((r) => setTimeout(r, 3000))]);
        const real = p.realDone ? canonReal(p.realValue) : '<no reply>';
        const model = p.modelDone ? canonModel(p.model) : '<still blocked>';
        if (!agree(model, real, undefined)) out.push({ step, what: `${name}: ${p.label} (sent at step ${p.step})`, model, real });
        c.pending.shift();
      }
    }
  }

  /** Unblocks (CLIENT UNBLOCK, on connection a) every connection still waiting, and compares what each then answers. */
  private async unblockAll(out: Disagreement[], step: number): Promise<void> {
    for (let round = 0; round < 100; round++) {
      const waiting = [...this.connections].filter(([, c]) => c.pending.length > 0);
      if (waiting.length === 0) return;
      for (const [name] of waiting) {
        const a = await this.connection('a');
        const m = this.modelCommand(await this.resolveIds(['CLIENT', 'UNBLOCK', `@${name}`], 'model'), a.session);
        const r = await a.real.send(await this.resolveIds(['CLIENT', 'UNBLOCK', `@${name}`], 'real'));
        if (!agree(canonModel(m), canonReal(r), undefined)) out.push({ step, what: `CLIENT UNBLOCK @${name} (at the end)`, model: canonModel(m), real: canonReal(r) });
        await this.checkPending(out, step);
      }
    }
  }

  /** Drains the pushes of subscribed connections (a PING answers after them) and compares them as multisets. */
  private async checkPushes(out: Disagreement[], step: number): Promise<void> {
    for (const [name, c] of this.connections) {
      if (c.pending.length > 0) continue;
      if (!c.session.subscribed && c.modelPushes.length === 0 && c.real.pushes.length === 0) continue;
      await c.real.send(['PING'], isPong);
      const model = sortedCanon(c.modelPushes.splice(0).map(canonModel));
      const real = sortedCanon(c.real.pushes.splice(0).map(canonReal));
      if (!agree(model, real, undefined)) out.push({ step, what: `${name}: pushes`, model, real });
    }
  }

  /** The keyspace after a step: TYPE, then the value read by its type, OBJECT ENCODING, PTTL. */
  private async checkKeys(out: Disagreement[], step: number, keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      const read = async (args: string[], tol?: Tolerance, shape: (c: Canon) => Canon = (c) => c): Promise<Canon> => {
        const m = shape(canonModel(this.modelCommand(args)));
        const r = shape(canonReal(await this.real.send(args)));
        if (!agree(m, r, tol)) out.push({ step, what: `after it: ${args.join(' ')}`, model: m, real: r });
        return r;
      };
      const type = await read(['TYPE', key]);
      const encoding = await read(['OBJECT', 'ENCODING', key]);
      const hashtable = encoding === 'hashtable';
      if (type === 'string') await read(['GET', key]);
      else if (type === 'hash') await read(['HGETALL', key], undefined, hashtable ? sortedPairs : undefined);
      else if (type === 'list') await read(['LRANGE', key, '0', '-1']);
      else if (type === 'set') await read(['SMEMBERS', key], undefined, hashtable ? sortedCanon : undefined);
      else if (type === 'zset') await read(['ZRANGE', key, '0', '-1', 'WITHSCORES']);
      await read(['PTTL', key], 'ms');
    }
  }

  /**
   * Runs `steps` on both sides from empty; compares every reply and `keys` after each step.
   * Steps given as a function get the server's time at the start (for absolute deadlines).
   */
  async run(sequence: readonly Step[] | ((startMs: number) => readonly Step[]), keys: readonly string[], options: { unblockAtEnd?: boolean } = {}): Promise<Disagreement[]> {
    const startMs = await this.reset();
    const steps = typeof sequence === 'function' ? sequence(startMs) : sequence;
    const out: Disagreement[] = [];
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      if ('demote' in step) {
        await this.real.send(['REPLICAOF', '127.0.0.1', '1']);
        await this.real.send(['REPLICAOF', 'NO', 'ONE']);
        this.node.demoteToReplicaOf(new RedisNode('empty', this.sim, this.clock));
        this.node.promote();
        await this.syncClock();
        await this.checkPending(out, i);
        continue;
      }
      if ('sleepMs' in step) {
        await new Promise((r) => setTimeout(r, step.sleepMs));
        await this.syncClock();
        await this.checkPending(out, i);
        continue;
      }
      const c = await this.connection(step.on ?? 'a');
      await this.syncClock();
      let model: Canon;
      let real: Canon;
      let label: string;
      if ('multi' in step) {
        label = `MULTI ${step.multi.map((x) => x.join(' ')).join(' / ')} EXEC`;
        model = infoLines(this.modelTransaction(step.multi, c.session));
        real = infoLines(await this.realTransaction(step.multi, c.real));
      } else if ('scanAll' in step) {
        label = `${step.scanAll.join(' ')} (every cursor)`;
        model = await this.scanAll(step.scanAll, 'model', c);
        real = await this.scanAll(step.scanAll, 'real', c);
      } else {
        label = step.args.join(' ');
        const modelArgs = await this.resolveIds(step.args, 'model');
        const realArgs = await this.resolveIds(step.args, 'real');
        if (step.async === true) {
          const pending: Pending = { label, step: i, model: undefined, modelDone: false, real: c.real.send(realArgs), realDone: false, realValue: null };
          this.node.execute(modelArgs, 'conformance', (r) => {
            pending.model = r;
            pending.modelDone = true;
          }, c.session);
          pending.real.then((v) => {
            pending.realDone = true;
            pending.realValue = v;
          });
          c.pending.push(pending);
          await this.checkPending(out, i);
          this.lastMs = await this.serverMs();
          await this.checkPushes(out, i);
          await this.checkKeys(out, i, keys);
          this.lastMs = await this.serverMs();
          continue;
        }
        const m = this.modelCommand(modelArgs, c.session);
        model = canonModel(m);
        real = canonReal(await c.real.send(realArgs));
        if (step.args[0].toUpperCase() === 'CLIENT' && step.args[1]?.toUpperCase() === 'ID') {
          model = this.idAsName(model, 'model');
          real = this.idAsName(real, 'real');
        }
        model = infoLines(model);
        real = infoLines(real);
      }
      if (step.unordered === true) {
        model = sortedCanon(model);
        real = sortedCanon(real);
      }
      this.lastMs = await this.serverMs();
      if (!agree(model, real, step.tol)) out.push({ step: i, what: label, model, real });
      await this.checkPending(out, i);
      await this.syncClock();
      await this.checkPushes(out, i);
      await this.checkKeys(out, i, keys);
      this.lastMs = await this.serverMs();
    }
    if (options.unblockAtEnd === true) await this.unblockAll(out, steps.length);
    for (const c of this.connections.values()) {
      for (const p of c.pending) out.push({ step: steps.length, what: `${p.label}: still pending at the end (unblock it in the sequence)`, model: null, real: null });
    }
    return out;
  }

}
