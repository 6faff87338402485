/**
 * Runs an effect program without a world: Redis commands are answered by a function, sleeps
 * are recorded, client state persists across calls of one driver (a client process).
 */
import type { Effect, EffectProgram, RedisOutcome } from '../../../src/world/effects.js';
import type { RedisReply } from '../../../src/world/redis/reply.js';

export type Step =
  | { kind: 'send'; commands: string[][]; timeoutUs: number }
  | { kind: 'sleep'; us: number }
  /** SUBSCRIBE, UNSUBSCRIBE, or a wait for a pub/sub message: "subscribe <channel>", "await <ms>"... */
  | { kind: 'pubsub'; what: string };

export class Driver {
  readonly steps: Step[] = [];
  private readonly state = new Map<string, unknown>();

  constructor(
    /** A reply to a command, or undefined for none (a timeout). */
    private readonly reply: (command: string[]) => RedisReply | undefined,
    private readonly opts: { replicated: boolean; replicas?: number; commandTimeoutUs?: number; random?: number },
  ) {}

  run<T>(program: EffectProgram<T>): T {
    let input: unknown;
    for (;;) {
      const step = program.next(input);
      if (step.done) return step.value;
      input = this.answer(step.value);
    }
  }

  /** The commands sent, one line each ("EVAL <key>" for scripts). */
  get sent(): string[] {
    return this.steps.flatMap((s) => (s.kind === 'send' ? [s.commands.map(show).join(' | ')] : []));
  }

  /** The pub/sub steps, in order ("subscribe <channel>", "await <ms>", "unsubscribe <channel>"). */
  get pubsub(): string[] {
    return this.steps.flatMap((s) => (s.kind === 'pubsub' ? [s.what] : []));
  }

  get sleepsMs(): number[] {
    return this.steps.flatMap((s) => (s.kind === 'sleep' ? [s.us / 1000] : []));
  }

  private outcome(command: string[]): RedisOutcome {
    const r = this.reply(command);
    return r === undefined ? { status: 'timeout' } : { status: 'ok', reply: r };
  }

  private answer(e: Effect): unknown {
    switch (e.kind) {
      case 'redis':
        this.steps.push({ kind: 'send', commands: [e.command], timeoutUs: e.timeoutUs ?? this.opts.commandTimeoutUs ?? 3_000_000 });
        return this.outcome(e.command);
      case 'redis-pipeline':
        this.steps.push({ kind: 'send', commands: e.commands, timeoutUs: e.timeoutUs });
        return e.commands.map((c) => this.outcome(c));
      case 'redis-send':
        this.steps.push({ kind: 'send', commands: [e.command], timeoutUs: 0 });
        return undefined;
      case 'redis-setup':
        return { commandTimeoutUs: this.opts.commandTimeoutUs ?? 3_000_000, replicated: this.opts.replicated };
      case 'replicas':
        return this.opts.replicas ?? 1;
      case 'client-state': {
        if (!this.state.has(e.name)) this.state.set(e.name, e.create());
        return this.state.get(e.name);
      }
      case 'sleep':
        this.steps.push({ kind: 'sleep', us: e.us });
        return undefined;
      case 'random':
        return this.opts.random ?? 0.5;
      case 'current-request':
        return 'r1';
      case 'clock':
        return 0;
      case 'subscribe':
      case 'unsubscribe':
        this.steps.push({ kind: 'pubsub', what: `${e.kind} ${e.channel}` });
        return undefined;
      case 'await-message':
        // An unlock message comes at once.
        this.steps.push({ kind: 'pubsub', what: `await ${e.timeoutUs === null ? 'forever' : e.timeoutUs / 1000}` });
        return 'message';
      case 'note':
      case 'spawn':
      case 'cancel':
        return 0;
      default:
        throw new Error(`the test driver does not answer ${e.kind}`);
    }
  }
}

function show(c: string[]): string {
  if (c[0] === 'EVAL') return `EVAL ${c[3]}`;
  return c.join(' ');
}
