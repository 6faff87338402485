/**
 * Runs one command sequence on the model (a RedisNode on a simulated clock) and on a real
 * redis-server, and lists every disagreement: each reply, then the keyspace after each step
 * (TYPE, the value by GET or HGETALL, PTTL) of every key the sequence names.
 *
 * Time, so the comparison cannot be flaky: before each step the model's clock is set to the
 * real server's clock (TIME), read after the previous step's reply and once it has moved on
 * by a millisecond; so both sides see the steps at strictly increasing milliseconds, in the
 * same order, and the model runs each step no later than the server does. What still differs
 * is how long the server took to receive a command: replies that count time left (PTTL, TTL
 * and scripts that answer a PTTL) agree within a tolerance (5 s; 5 for TTL seconds), and the
 * sequences never put a deadline within 30 s of the instant a step runs (relative TTLs of
 * 90, 150 or 210 s, absolute ones on whole minutes from the sequence's start, or long past),
 * so which keys are expired is the same on both sides.
 */
import { Simulation } from '../../src/engine/simulation.js';
import { LocalClock } from '../../src/world/clock.js';
import { RedisNode } from '../../src/world/redis/node.js';
import { RedisErrorReply, type RedisReply } from '../../src/world/redis/reply.js';
import { type Resp, type RespClient, ServerError } from './resp.js';

/** `ms`: an integer reply is a PTTL (within 5000); `s`: a TTL (within 5). */
export type Tolerance = 'ms' | 's';

export type Step = { args: string[]; tol?: Tolerance } | { multi: string[][]; tol?: Tolerance };

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

export class Conformance {
  private sim = new Simulation(1);
  private clock = new LocalClock(this.sim);
  private node = new RedisNode('model', this.sim, this.clock);
  private lastMs = 0;

  constructor(private readonly real: RespClient) {}

  /** The real server's clock in ms (TIME). */
  async serverMs(): Promise<number> {
    const [s, us] = (await this.real.send(['TIME'])) as string[];
    return Number(s) * 1000 + Math.floor(Number(us) / 1000);
  }

  /** Empties both sides (keys and script caches); returns the server's time then. */
  async reset(): Promise<number> {
    await this.real.send(['FLUSHALL']);
    await this.real.send(['SCRIPT', 'FLUSH']);
    this.sim = new Simulation(1);
    this.clock = new LocalClock(this.sim);
    this.node = new RedisNode('model', this.sim, this.clock);
    this.lastMs = await this.serverMs();
    return this.lastMs;
  }

  /** Sets the model's clock to the server's, once that has passed the last step's millisecond. */
  private async syncClock(): Promise<void> {
    let ms = await this.serverMs();
    while (ms <= this.lastMs) {
      await new Promise((r) => setTimeout(r, 1));
      ms = await this.serverMs();
    }
    this.clock.offsetUs = ms * 1000 - this.sim.nowUs;
  }

  private modelCommand(args: readonly string[]): RedisReply | undefined {
    let out: RedisReply | undefined;
    this.node.execute(args, 'conformance', (r) => (out = r));
    // A blocked WAIT answers once its timeout has passed on the simulated clock.
    for (let i = 0; out === undefined && i < 10_000; i++) this.sim.run(this.sim.nowUs + 1000);
    return out;
  }

  private modelTransaction(commands: readonly string[][]): Canon {
    let out: Canon = { err: '<no reply from the model>' };
    this.node.executeTransaction(commands, 'conformance', (r) => {
      out = [canonModel(r.multi), ...r.queued.map(canonModel), canonModel(r.exec)];
    });
    return out;
  }

  private async realTransaction(commands: readonly string[][]): Promise<Canon> {
    const replies: Canon[] = [canonReal(await this.real.send(['MULTI']))];
    for (const c of commands) replies.push(canonReal(await this.real.send(c)));
    replies.push(canonReal(await this.real.send(['EXEC'])));
    return replies;
  }

  /**
   * Runs `steps` on both sides from empty; compares every reply and `keys` after each step.
   * Steps given as a function get the server's time at the start (for absolute deadlines).
   */
  async run(sequence: readonly Step[] | ((startMs: number) => readonly Step[]), keys: readonly string[]): Promise<Disagreement[]> {
    const startMs = await this.reset();
    const steps = typeof sequence === 'function' ? sequence(startMs) : sequence;
    const out: Disagreement[] = [];
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      await this.syncClock();
      let model: Canon;
      let real: Canon;
      let label: string;
      if ('multi' in step) {
        label = `MULTI ${step.multi.map((c) => c.join(' ')).join(' / ')} EXEC`;
        model = infoLines(this.modelTransaction(step.multi));
        real = infoLines(await this.realTransaction(step.multi));
      } else {
        label = step.args.join(' ');
        model = canonModel(this.modelCommand(step.args));
        real = canonReal(await this.real.send(step.args));
        model = infoLines(model);
        real = infoLines(real);
      }
      this.lastMs = await this.serverMs();
      if (!agree(model, real, step.tol)) out.push({ step: i, what: label, model, real });
      await this.syncClock();
      for (const key of keys) {
        const read = async (args: string[], tol?: Tolerance): Promise<void> => {
          const m = canonModel(this.modelCommand(args));
          const r = canonReal(await this.real.send(args));
          if (!agree(m, r, tol)) out.push({ step: i, what: `after it: ${args.join(' ')}`, model: m, real: r });
        };
        await read(['TYPE', key]);
        await read(['GET', key]);
        await read(['HGETALL', key]);
        await read(['PTTL', key], 'ms');
      }
      this.lastMs = await this.serverMs();
    }
    return out;
  }
}
