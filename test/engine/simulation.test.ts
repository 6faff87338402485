import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine/simulation.js';
import { Signal, SignalWait, TIMED_OUT, Interrupt } from '../../src/engine/signal.js';

describe('Simulation', () => {
  it('runs events due at the same instant in the order they were scheduled', () => {
    const sim = new Simulation(1);
    const order: string[] = [];
    for (const name of ['a', 'b', 'c']) sim.schedule(10, () => order.push(name));
    sim.schedule(5, () => order.push('early'));
    sim.run();
    expect(order).toEqual(['early', 'a', 'b', 'c']);
    expect(sim.nowUs).toBe(10);
  });

  it('resumes processes in FIFO order when they wake at the same time', () => {
    const sim = new Simulation(1);
    const log: string[] = [];
    for (const name of ['p1', 'p2', 'p3']) {
      sim.spawn(name, (function* () {
        yield 100;
        log.push(`${name}@${sim.nowUs}`);
      })());
    }
    sim.run();
    expect(log).toEqual(['p1@100', 'p2@100', 'p3@100']);
  });

  it('holds the wake-ups of a paused group and delivers them, in order, on resume', () => {
    const sim = new Simulation(1);
    const group = sim.group('client-1');
    const log: string[] = [];
    sim.spawn('worker', (function* () {
      yield 10;
      log.push(`w1@${sim.nowUs}`);
      yield 10;
      log.push(`w2@${sim.nowUs}`);
    })(), group);
    sim.spawn('outside', (function* () {
      yield 15;
      log.push(`outside@${sim.nowUs}`);
    })());
    sim.schedule(5, () => group.pause());
    sim.schedule(50, () => group.resume());
    sim.run();
    // The worker's 10us timer fell due at 10 while paused: it runs at 50, then sleeps 10 more.
    expect(log).toEqual(['outside@15', 'w1@50', 'w2@60']);
  });

  it('a callback a paused group holds runs at the resume, in the order the callbacks fell due', () => {
    const sim = new Simulation(1);
    const group = sim.group('c');
    const log: string[] = [];
    sim.schedule(5, () => group.pause());
    for (const [at, name] of [[10, 'a'], [20, 'b']] as const) {
      sim.schedule(at, () => group.hold(() => log.push(`${name}@${sim.nowUs}`)));
    }
    sim.schedule(30, () => log.push(`outside@${sim.nowUs}`));
    sim.schedule(50, () => group.resume());
    sim.run();
    expect(log).toEqual(['outside@30', 'a@50', 'b@50']);
  });

  it('a callback a group holds is dropped when the group is killed during the pause', () => {
    const sim = new Simulation(1);
    const group = sim.group('c');
    const log: string[] = [];
    sim.schedule(5, () => group.pause());
    sim.schedule(10, () => group.hold(() => log.push('held')));
    sim.schedule(20, () => group.kill());
    sim.schedule(50, () => group.resume());
    sim.run();
    expect(log).toEqual([]);
  });

  it('a reply that arrived during a pause wins over a timeout that expired later in the pause', () => {
    const sim = new Simulation(1);
    const group = sim.group('c');
    const reply = new Signal<string>();
    let got: unknown;
    sim.spawn('w', (function* () {
      got = yield new SignalWait(reply, 100);
    })(), group);
    sim.schedule(1, () => group.pause());
    sim.schedule(50, () => reply.fire('OK'));
    sim.schedule(500, () => group.resume());
    sim.run();
    expect(got).toBe('OK');
  });

  it('a timeout that expired during a pause, with no reply, is noticed at the resume', () => {
    const sim = new Simulation(1);
    const group = sim.group('c');
    let got: unknown;
    let at = -1;
    sim.spawn('w', (function* () {
      got = yield new SignalWait(new Signal<string>(), 100);
      at = sim.nowUs;
    })(), group);
    sim.schedule(1, () => group.pause());
    sim.schedule(500, () => group.resume());
    sim.run();
    expect([got, at]).toEqual([TIMED_OUT, 500]);
  });

  it('a bounded wait that got its reply leaves no timeout behind for the next wait', () => {
    const sim = new Simulation(1);
    const first = new Signal<string>();
    const got: unknown[] = [];
    sim.spawn('w', (function* () {
      got.push(yield new SignalWait(first, 100), sim.nowUs);
      // The first deadline (at 100) falls due during this wait and must not end it.
      got.push(yield new SignalWait(new Signal<string>(), 150), sim.nowUs);
    })());
    sim.schedule(10, () => first.fire('OK'));
    sim.run();
    expect(got).toEqual(['OK', 10, TIMED_OUT, 160]);
  });

  it('times out a bounded wait', () => {
    const sim = new Simulation(1);
    let got: unknown;
    sim.spawn('w', (function* () {
      got = yield new SignalWait(new Signal(), 100);
    })());
    sim.run();
    expect(got).toBe(TIMED_OUT);
    expect(sim.nowUs).toBe(100);
  });

  it('interrupts a sleeping process with a cause it can catch', () => {
    const sim = new Simulation(1);
    const log: string[] = [];
    const p = sim.spawn('sleeper', (function* () {
      try {
        yield 1_000;
        log.push('woke normally');
      } catch (e) {
        log.push(`interrupted by ${(e as Interrupt).cause}@${sim.nowUs}`);
      }
      yield 5;
      log.push(`done@${sim.nowUs}`);
    })());
    sim.schedule(30, () => p.interrupt('failover'));
    sim.run();
    expect(log).toEqual(['interrupted by failover@30', 'done@35']);
  });

  it('kills a group without running finally blocks (kill -9)', () => {
    const sim = new Simulation(1);
    const group = sim.group('c');
    const log: string[] = [];
    sim.spawn('w', (function* () {
      try {
        yield 100;
        log.push('ran');
      } finally {
        log.push('finally');
      }
    })(), group);
    sim.schedule(10, () => group.kill());
    sim.run();
    expect(log).toEqual([]);
  });

  it('gives each named stream the same numbers whatever else draws', () => {
    const a = new Simulation(7);
    const b = new Simulation(7);
    b.random.fork('noise').next();
    b.random.fork('noise').next();
    const xs = [1, 2, 3].map(() => a.random.fork('client-1/arrivals').next());
    const ys = [1, 2, 3].map(() => b.random.fork('client-1/arrivals').next());
    expect(xs).toEqual(ys);
    expect(new Simulation(8).random.fork('client-1/arrivals').next()).not.toBe(xs[0]);
  });

  it('a signal wakes all its waiters, in the order they began to wait, with its value', () => {
    const sim = new Simulation(1);
    const signal = new Signal<string>();
    const log: string[] = [];
    for (const [name, startUs] of [['p1', 0], ['p2', 5], ['p3', 7]] as const) {
      sim.spawn(name, (function* () {
        yield startUs;
        log.push(`${name}:${String(yield signal)}@${sim.nowUs}`);
      })());
    }
    sim.schedule(10, () => signal.fire('go'));
    sim.run();
    expect(log).toEqual(['p1:go@10', 'p2:go@10', 'p3:go@10']);
  });

  it('a waiter that timed out is not woken by the signal; the one after it is', () => {
    const sim = new Simulation(1);
    const signal = new Signal<string>();
    const log: string[] = [];
    sim.spawn('short', (function* () {
      const r = yield new SignalWait(signal, 3);
      log.push(`short:${r === TIMED_OUT ? 'timeout' : String(r)}@${sim.nowUs}`);
    })());
    sim.spawn('long', (function* () {
      const r = yield new SignalWait(signal, 100);
      log.push(`long:${r === TIMED_OUT ? 'timeout' : String(r)}@${sim.nowUs}`);
    })());
    sim.schedule(10, () => signal.fire('go'));
    sim.run();
    expect(log).toEqual(['short:timeout@3', 'long:go@10']);
  });

  it('one SignalWait yielded again with new values (set) waits on the new signal and deadline', () => {
    const sim = new Simulation(1);
    const wait = new SignalWait<string>(new Signal<string>(), 0);
    const first = new Signal<string>();
    const second = new Signal<string>();
    const got: unknown[] = [];
    sim.spawn('p', (function* () {
      got.push(yield wait.set(first, 50), sim.nowUs);
      got.push(yield wait.set(second, 3), sim.nowUs);
    })());
    sim.schedule(10, () => first.fire('a'));
    sim.schedule(15, () => second.fire('b'));
    sim.run();
    // The second wait's own deadline (3 us after 10), not the first's 50.
    expect(got).toEqual(['a', 10, TIMED_OUT, 13]);
  });

  it('a process woken now runs after everything already due now, before what is queued for now after it (a 0 us wait\'s deadline)', () => {
    const sim = new Simulation(1);
    const signal = new Signal<string>();
    const log: string[] = [];
    sim.spawn('waiter', (function* () {
      yield signal;
      log.push(`waiter@${sim.nowUs}`);
    })());
    sim.spawn('zero-wait', (function* () {
      yield 10;
      const r = yield new SignalWait(new Signal<string>(), 0);
      log.push(`zero-wait:${r === TIMED_OUT ? 'timeout' : 'signal'}@${sim.nowUs}`);
    })());
    sim.schedule(10, () => {
      log.push('fire');
      signal.fire('go');
    });
    sim.schedule(10, () => log.push('same-instant'));
    sim.run();
    // The zero-wait process was due at 10 before the fire; its deadline was queued after the waiter's wake-up.
    expect(log).toEqual(['fire', 'same-instant', 'waiter@10', 'zero-wait:timeout@10']);
  });

  it('a process woken now runs before anything due later, whatever was queued first', () => {
    const sim = new Simulation(1);
    const signal = new Signal<string>();
    const log: string[] = [];
    sim.schedule(11, () => log.push('later'));
    sim.spawn('waiter', (function* () {
      yield signal;
      log.push(`waiter@${sim.nowUs}`);
    })());
    sim.schedule(10, () => signal.fire('go'));
    sim.run();
    expect(log).toEqual(['waiter@10', 'later']);
  });

  it('a fired signal, rearmed, is waited for again and wakes its waiter at the second fire', () => {
    const sim = new Simulation(1);
    const signal = new Signal<string>();
    const got: unknown[] = [];
    sim.spawn('p', (function* () {
      got.push(yield signal, sim.nowUs);
      signal.rearm();
      got.push(yield signal, sim.nowUs);
    })());
    sim.schedule(10, () => signal.fire('a'));
    sim.schedule(20, () => signal.fire('b'));
    sim.run();
    expect(got).toEqual(['a', 10, 'b', 20]);
  });

  it('a fired signal not rearmed wakes a later waiter at once with its first value', () => {
    const sim = new Simulation(1);
    const signal = new Signal<string>();
    const got: unknown[] = [];
    sim.spawn('p', (function* () {
      got.push(yield signal, sim.nowUs);
      got.push(yield signal, sim.nowUs);
    })());
    sim.schedule(10, () => signal.fire('a'));
    sim.schedule(20, () => signal.fire('b'));
    sim.run();
    expect(got).toEqual(['a', 10, 'a', 10]);
  });

  it('rearming a signal something waits for is refused', () => {
    const sim = new Simulation(1);
    const signal = new Signal<string>('work');
    sim.spawn('p', (function* () {
      yield signal;
    })());
    sim.run();
    expect(() => signal.rearm()).toThrow('work: rearmed while waited for');
  });

  it('startNow runs a process inside the current event, with no start event of its own', () => {
    const sim = new Simulation(1);
    const log: string[] = [];
    sim.schedule(7, () => {
      sim.startNow('now', (function* () {
        log.push(`started@${sim.nowUs}`);
        yield 5;
        log.push(`woke@${sim.nowUs}`);
      })());
      log.push('callback returns');
    });
    sim.run();
    expect(log).toEqual(['started@7', 'callback returns', 'woke@12']);
    // The callback and the wake-up: two events.
    expect(sim.eventCount).toBe(2);
  });

  it('spawn, unlike startNow, starts the process with an event of its own after the caller', () => {
    const sim = new Simulation(1);
    const log: string[] = [];
    sim.schedule(7, () => {
      sim.spawn('later', (function* () {
        log.push(`started@${sim.nowUs}`);
        yield 5;
        log.push(`woke@${sim.nowUs}`);
      })());
      log.push('callback returns');
    });
    sim.run();
    expect(log).toEqual(['callback returns', 'started@7', 'woke@12']);
    expect(sim.eventCount).toBe(3);
  });
});
