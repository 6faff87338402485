/**
 * Hand-written effect programs (src/variants/effect-machine.ts) must yield exactly what the
 * generators they replace yielded: the polling acquire as a machine (pollCommand) against the
 * generator loop it was written out from (pollUntilAcquired), driven by the same replies and
 * clock, and a machine's delegation to a generator.
 */
import { describe, expect, it } from 'vitest';
import { DELEGATED, DONE, EffectMachine } from '../../src/variants/effect-machine.js';
import type { AcquireResult, LockParams } from '../../src/variants/lock-protocol.js';
import { pollCommand, pollUntilAcquired, replyIsOk } from '../../src/variants/locks/polling.js';
import { redis, type Effect, type EffectProgram, type RedisOutcome } from '../../src/world/effects.js';

/** Runs a program: replies from the list in order (then 'OK'), a clock that moves only by sleeps. */
function drive<T>(program: EffectProgram<T>, replies: Array<string | null>): { result: T; trace: string[] } {
  const trace: string[] = [];
  let nowMs = 0;
  let sent = 0;
  let input: unknown;
  for (;;) {
    const step = program.next(input);
    if (step.done) return { result: step.value, trace };
    const e = step.value as Effect;
    trace.push(e.kind === 'redis' ? `redis ${e.command.join(' ')}` : e.kind === 'sleep' ? `sleep ${e.us}` : e.kind);
    if (e.kind === 'clock') input = nowMs;
    else if (e.kind === 'sleep') {
      nowMs += e.us / 1000;
      input = undefined;
    } else if (e.kind === 'redis') {
      const reply = sent < replies.length ? replies[sent] : 'OK';
      sent++;
      input = { status: 'ok', reply } satisfies RedisOutcome;
    } else throw new Error(`unexpected effect ${e.kind}`);
  }
}

const params = (waitMs: number): LockParams => ({ waitMs, retryIntervalMs: 100 }) as LockParams;
const command = ['SET', 'lock:stock:1', 't', 'NX', 'PX', '1000'];
/** The generator form of the same acquire, as pollUntilAcquired runs it. */
const asGenerator = (p: LockParams): EffectProgram<AcquireResult> =>
  pollUntilAcquired(function* () {
    const r = yield* redis(...command);
    return r.status === 'ok' && replyIsOk(r.reply) ? { acquired: true } : { acquired: false, reason: 'busy', detail: 'held by another' };
  }, p);

describe('pollCommand as a state machine', () => {
  it('acquires on the third attempt inside the wait budget, with the effects of the generator loop', () => {
    const machine = drive(pollCommand(params(250), command, replyIsOk), [null, null, 'OK']);
    const generator = drive(asGenerator(params(250)), [null, null, 'OK']);
    expect(machine.result).toEqual({ acquired: true });
    expect(machine.trace).toEqual(generator.trace);
    expect(machine.trace.filter((t) => t.startsWith('redis'))).toHaveLength(3);
  });

  it('gives up busy when the budget is spent before the lock frees, with the effects of the generator loop', () => {
    // 150 ms: one retry fits (0 + 100 <= 150), a second does not (100 + 100 > 150).
    const machine = drive(pollCommand(params(150), command, replyIsOk), [null, null, 'OK']);
    const generator = drive(asGenerator(params(150)), [null, null, 'OK']);
    expect(machine.result).toMatchObject({ acquired: false, reason: 'busy' });
    expect(machine.trace).toEqual(generator.trace);
    expect(machine.trace.filter((t) => t.startsWith('redis'))).toHaveLength(2);
  });
});

/** Yields a clock read, then runs a generator in its place, then returns what it returned plus one. */
class PlusOne extends EffectMachine<number> {
  private pc = 0;

  constructor(private readonly inner: () => EffectProgram<number>) {
    super();
  }

  protected step(input: unknown): Effect | typeof DONE | typeof DELEGATED {
    if (this.pc === 0) {
      this.pc = 1;
      return { kind: 'clock' };
    }
    if (this.pc === 1) {
      this.pc = 2;
      this.sub = this.inner();
      return DELEGATED;
    }
    this.result = (input as number) + 1;
    return DONE;
  }
}

describe('EffectMachine delegation', () => {
  it("passes a delegated generator's effects through and resumes with its return value", () => {
    const inner = function* (): EffectProgram<number> {
      yield { kind: 'sleep', us: 5 };
      yield { kind: 'sleep', us: 7 };
      return 41;
    };
    const { result, trace } = drive(new PlusOne(inner), []);
    expect(trace).toEqual(['clock', 'sleep 5', 'sleep 7']);
    expect(result).toBe(42);
  });

  it('runs inside a generator through yield*, as a protocol helper is called', () => {
    const outer = function* (): EffectProgram<number> {
      const machine: EffectProgram<number> = new PlusOne(function* () {
        return 1;
      });
      const a = yield* machine;
      return a * 10;
    };
    const { result, trace } = drive(outer(), []);
    expect(trace).toEqual(['clock']);
    expect(result).toBe(20);
  });
});
