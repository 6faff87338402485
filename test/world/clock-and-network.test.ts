/** Local clocks (steps, drift) and the network fabric (partitions, delays). */
import { describe, expect, it } from 'vitest';
import { constant } from '../../src/engine/distribution.js';
import { Simulation } from '../../src/engine/simulation.js';
import { LocalClock } from '../../src/world/clock.js';
import { Fabric, Link } from '../../src/world/network.js';

describe('LocalClock', () => {
  it('steps forward and backward by a jump', () => {
    const sim = new Simulation(1);
    const clock = new LocalClock(sim);
    sim.schedule(1_000_000, () => clock.jump(20_000_000));
    sim.run();
    expect(clock.nowUs()).toBe(21_000_000);
    clock.jump(-30_000_000);
    expect(clock.nowUs()).toBe(-9_000_000);
  });

  it('changes rate without a step, and keeps the error it gathered when the drift ends', () => {
    const sim = new Simulation(1);
    const clock = new LocalClock(sim);
    const readings: number[] = [];
    sim.schedule(10_000_000, () => {
      const before = clock.nowUs();
      clock.setDrift(100_000); // 10% fast
      readings.push(clock.nowUs() - before);
    });
    sim.schedule(20_000_000, () => {
      readings.push(clock.nowUs());
      clock.setDrift(0);
      readings.push(clock.nowUs());
    });
    sim.schedule(30_000_000, () => readings.push(clock.nowUs()));
    sim.run();
    expect(readings).toEqual([0, 21_000_000, 21_000_000, 31_000_000]);
  });

  it('finds the simulated instant a local reading is reached, under drift', () => {
    const sim = new Simulation(1);
    const clock = new LocalClock(sim, 5_000, 250_000);
    const t = clock.simTimeAt(1_000_000);
    sim.schedule(t, () => expect(clock.nowUs()).toBeGreaterThanOrEqual(1_000_000));
    sim.schedule(t - 1, () => expect(clock.nowUs()).toBeLessThan(1_000_000));
    sim.run();
  });
});

describe('Fabric and Link', () => {
  function link(fabric: Fabric, sim: Simulation) {
    return new Link('client-1', 'redis-0', sim, fabric, constant(1_000), sim.random.fork('l'));
  }

  it('drops what is sent across a cut, and what was in flight when the cut came', () => {
    const sim = new Simulation(1);
    const fabric = new Fabric();
    const l = link(fabric, sim);
    const got: number[] = [];
    l.send(() => got.push(1)); // due at 1000, cut at 500: lost in flight
    sim.schedule(500, () => fabric.cut([['redis-0', 'client-1']]));
    sim.schedule(600, () => l.send(() => got.push(2))); // sent across the cut
    sim.schedule(2_000, () => fabric.heal([['client-1', 'redis-0']]));
    sim.schedule(2_100, () => l.send(() => got.push(3)));
    sim.run();
    expect(got).toEqual([3]);
  });

  it('counts overlapping partitions: the pair is cut until both heal', () => {
    const fabric = new Fabric();
    fabric.cut([['a', 'b']]);
    fabric.cut([['b', 'a']]);
    fabric.heal([['a', 'b']]);
    expect(fabric.isCut('a', 'b')).toBe(true);
    fabric.heal([['a', 'b']]);
    expect(fabric.isCut('b', 'a')).toBe(false);
  });

  it('adds a host\'s extra delay to every message on its links, keeping FIFO order', () => {
    const sim = new Simulation(1);
    const fabric = new Fabric();
    const l = link(fabric, sim);
    const got: Array<[number, number]> = [];
    l.send(() => got.push([1, sim.nowUs]));
    fabric.addDelay('redis-0', 5_000);
    l.send(() => got.push([2, sim.nowUs]));
    fabric.addDelay('redis-0', -5_000);
    l.send(() => got.push([3, sim.nowUs])); // may not overtake message 2
    sim.run();
    expect(got).toEqual([[1, 1_000], [2, 6_000], [3, 6_000]]);
  });

  it('delivers a link that is never empty in sending order, at each message\'s own time, and loses none', () => {
    const sim = new Simulation(1);
    const fabric = new Fabric();
    const l = link(fabric, sim);
    const got: Array<[number, number]> = [];
    // One message every 10 us with 1 ms latency: about 100 in flight at any time, 5000 in all.
    for (let i = 0; i < 5_000; i++) sim.schedule(i * 10, () => l.send(() => got.push([i, sim.nowUs])));
    sim.run();
    expect(got.length).toBe(5_000);
    expect(got.findIndex(([i, t]) => t !== i * 10 + 1_000)).toBe(-1);
  });

  it('delivers the messages sent after a link emptied, not one delivered before', () => {
    const sim = new Simulation(1);
    const l = link(new Fabric(), sim);
    const got: number[] = [];
    l.send(() => got.push(1));
    sim.schedule(5_000, () => l.send(() => got.push(2)));
    sim.schedule(5_000, () => l.send(() => got.push(3)));
    sim.run();
    expect(got).toEqual([1, 2, 3]);
  });
});
