/** The same-instant ordering hook (engine/same-instant.ts) and PCT (engine/pct.ts). */
import { describe, expect, it } from 'vitest';
import { PctPolicy } from '../../src/engine/pct.js';
import type { EventThread, SameInstantPolicy } from '../../src/engine/same-instant.js';
import { Simulation } from '../../src/engine/simulation.js';
import { loadScenario } from '../../src/scenario/load.js';
import { runVariant } from '../../src/runner/run.js';

/** Every thread the same priority: ties go to the earliest due item, the scheduling order. */
class Flat implements SameInstantPolicy {
  threads = 0;
  steps = 0;
  started(t: EventThread): void {
    t.priority = 0;
    this.threads++;
  }
  stepped(step: number): void {
    this.steps = step;
  }
}

/** Threads by a given order of creation: the later, the higher (runs first). */
class Reversed implements SameInstantPolicy {
  private n = 0;
  started(t: EventThread): void {
    t.priority = ++this.n;
  }
  stepped(): void {}
}

function world(sim: Simulation, log: string[]): void {
  for (const name of ['a', 'b', 'c']) sim.schedule(10, () => log.push(`${name}@${sim.nowUs}`));
  sim.spawn('p', (function* () {
    yield 10;
    log.push(`p@${sim.nowUs}`);
    sim.schedule(0, () => log.push(`p-child@${sim.nowUs}`));
    yield 0;
    log.push(`p-again@${sim.nowUs}`);
  })());
}

describe('same-instant ordering', () => {
  it('with equal priorities runs exactly the scheduling order', () => {
    const plain: string[] = [];
    const flat: string[] = [];
    const a = new Simulation(1);
    world(a, plain);
    a.run();
    const policy = new Flat();
    const b = new Simulation(1, policy);
    world(b, flat);
    b.run();
    expect(flat).toEqual(plain);
    expect(b.eventCount).toBe(a.eventCount);
    expect(b.orderStats()).toEqual({ threads: 4, steps: policy.steps });
    expect(a.orderStats()).toBeNull();
  });

  it('reorders threads at one instant and keeps each thread in its own order', () => {
    const log: string[] = [];
    const sim = new Simulation(1, new Reversed());
    world(sim, log);
    sim.run();
    // The process began last, so it runs first; what it schedules stays in its thread, after it.
    expect(log).toEqual(['p@10', 'p-child@10', 'p-again@10', 'c@10', 'b@10', 'a@10']);
  });

  it('never moves an event to another instant', () => {
    const log: string[] = [];
    const sim = new Simulation(1, new Reversed());
    sim.schedule(5, () => log.push('early'));
    sim.schedule(6, () => log.push('late'));
    sim.run();
    expect(log).toEqual(['early', 'late']);
  });

  it('keeps the events still due when a run stops, and runs them next', () => {
    const log: string[] = [];
    const sim = new Simulation(1, new Flat());
    sim.schedule(10, () => {
      log.push('first');
      sim.stop();
    });
    sim.schedule(10, () => log.push('second'));
    sim.run(100);
    expect(log).toEqual(['first']);
    expect(sim.nextEventUs()).toBe(10);
    sim.run(100);
    expect(log).toEqual(['first', 'second']);
    expect(sim.nowUs).toBe(100);
  });

  it('holds a paused group\'s events and runs them on resume', () => {
    const log: string[] = [];
    const sim = new Simulation(1, new Flat());
    const group = sim.group('client-1');
    sim.spawn('w', (function* () {
      yield 10;
      log.push(`w@${sim.nowUs}`);
    })(), group);
    sim.schedule(5, () => group.pause());
    sim.schedule(20, () => group.resume());
    sim.run();
    expect(log).toEqual(['w@20']);
  });
});

describe('PctPolicy', () => {
  it('draws d - 1 distinct change points in 1..k, the i-th drawn with priority i', () => {
    for (const seed of ['1', '2', '3']) {
      const p = new PctPolicy({ seed, depth: 4, steps: 10 });
      const points = p.changePoints();
      expect(points).toHaveLength(3);
      expect(new Set(points).size).toBe(3);
      for (const k of points) expect(k >= 1 && k <= 10).toBe(true);
      const thread = { id: 0, priority: 0 } as EventThread;
      p.started(thread);
      expect(thread.priority >= 4 && thread.priority < 5).toBe(true);
      points.forEach((k, i) => {
        p.stepped(k, thread);
        expect(thread.priority).toBe(i + 1);
      });
    }
    expect(new PctPolicy({ seed: '1', depth: 3, steps: 1 }).changePoints()).toEqual([1]);
    expect(new PctPolicy({ seed: '1', depth: 1, steps: 100 }).changePoints()).toEqual([]);
  });

  it('is a function of its seed', () => {
    const order = (seed: string): string[] => {
      const log: string[] = [];
      const sim = new Simulation(1, new PctPolicy({ seed, depth: 2, steps: 20 }));
      world(sim, log);
      sim.run();
      return log;
    };
    expect(order('7')).toEqual(order('7'));
    const orders = new Set(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].map((s) => order(s).join(' ')));
    expect(orders.size).toBeGreaterThan(1);
  });

  it('gives a casebook run the same history for the same schedule', () => {
    const s = loadScenario('scenarios/failover-lag-race.yaml');
    const v = s.variants[0];
    const plain = runVariant(s, v, s.seed);
    const again = runVariant(s, v, s.seed, { order: { seed: 'x', depth: 2, steps: plain.events } });
    const twice = runVariant(s, v, s.seed, { order: { seed: 'x', depth: 2, steps: plain.events } });
    expect(JSON.stringify(twice.history)).toBe(JSON.stringify(again.history));
    expect(again.ordering?.threads).toBeGreaterThan(1);
    expect(again.ordering?.steps).toBeLessThanOrEqual(again.events);
  });
});
