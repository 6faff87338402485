/**
 * The deciders' timer: a Redis timer's gap (redis 7.0.15 ae.c processTimeEvents sets the next
 * run from the end of this one; ae_epoll.c rounds epoll_wait's timeout up to a whole
 * millisecond), and SkippableTimer, which skips idle runs without moving the others.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine/simulation.js';
import { SkippableTimer, timerGapUs } from '../../../src/world/redis/failover.js';

describe('timerGapUs', () => {
  it('is the period plus 0 to 999 us, both ends reached', () => {
    const rng = new Simulation(1).random.fork('t');
    const gaps = Array.from({ length: 5000 }, () => timerGapUs(100, rng));
    expect(Math.min(...gaps)).toBe(100_000);
    expect(Math.max(...gaps)).toBe(100_999);
    expect(gaps.every((g) => Number.isInteger(g))).toBe(true);
  });
});

/** A timer whose gaps are 100, 101, 102, ... us, first run at 1000 us. */
function timer(o: { due?: () => number; everyRun?: boolean } = {}) {
  const sim = new Simulation(1);
  let gap = 100;
  const runs: Array<[number, number]> = [];
  const t = new SkippableTimer(
    sim,
    1000,
    () => gap++,
    (index) => runs.push([sim.nowUs, index]),
    o.due ?? (() => sim.nowUs),
    o.everyRun ?? false,
  );
  return { sim, t, runs };
}

describe('SkippableTimer', () => {
  it('runs at every drawn time, with its index, while something is due', () => {
    const { sim, t, runs } = timer();
    t.plan();
    sim.run(1400);
    expect(runs).toEqual([
      [1000, 0],
      [1100, 1],
      [1201, 2],
      [1303, 3],
    ]);
  });

  it('skips the runs before the due time, keeping the times and indices of the ones after', () => {
    const { sim, t, runs } = timer({ due: () => 1250 });
    t.plan();
    sim.run(1450);
    expect(runs).toEqual([
      [1303, 3],
      [1406, 4],
    ]);
  });

  it('runs nothing while nothing is due, and picks up at the next drawn time when re-planned', () => {
    let dueUs = Infinity;
    const { sim, t, runs } = timer({ due: () => dueUs });
    t.plan();
    sim.run(1250);
    expect(runs).toEqual([]);
    dueUs = 0;
    t.plan();
    sim.run(1310);
    expect(runs).toEqual([[1303, 3]]);
  });

  it('every run, when asked to keep them all, whatever is due', () => {
    const { sim, t, runs } = timer({ due: () => Infinity, everyRun: true });
    t.plan();
    sim.run(1210);
    expect(runs.map(([, i]) => i)).toEqual([0, 1, 2]);
  });

  it('re-planning for an earlier due time moves the next run earlier; for a later one keeps the planned run', () => {
    let dueUs = 1300;
    const { sim, t, runs } = timer({ due: () => dueUs });
    t.plan();
    dueUs = 1050;
    t.plan();
    dueUs = 1300;
    t.plan();
    sim.run(1150);
    expect(runs).toEqual([[1100, 1]]);
  });

  it('a run planned again for the time of a superseded one happens once, in the place of the later plan among that instant\'s events', () => {
    const sim = new Simulation(1);
    let gap = 100;
    let dueUs = 1300;
    const runs: Array<[number, number]> = [];
    const t = new SkippableTimer(
      sim,
      1000,
      () => gap++,
      (index) => {
        runs.push([sim.nowUs, index]);
        dueUs = 1300;
      },
      () => dueUs,
      false,
    );
    t.plan(); // the run at 1303
    sim.scheduleAt(1303, () => runs.push([sim.nowUs, -1]));
    dueUs = 1050;
    t.plan(); // the run at 1100 supersedes it; that run plans 1303 again, after the event above
    sim.run(1400);
    expect(runs).toEqual([
      [1100, 1],
      [1303, -1],
      [1303, 3],
    ]);
  });

  it('a run whose due time is exactly a drawn time happens at it', () => {
    const { sim, t, runs } = timer({ due: () => 1201 });
    t.plan();
    sim.run(1201);
    expect(runs).toEqual([[1201, 2]]);
  });

  it('keeps every run in place over thousands of runs, planned again after each (its lists compacted as they go)', () => {
    // Past the points where the drawn runs and the queued ones are moved down in their arrays:
    // the same times as the gaps give, every index once, in order.
    const { sim, t, runs } = timer();
    t.plan();
    let at = 1000;
    const expected: Array<[number, number]> = [];
    for (let i = 0; i < 3000; i++) {
      expected.push([at, i]);
      at += 100 + i;
    }
    sim.run(expected[2999][0]);
    expect(runs).toEqual(expected);
  });

  it('a hundred superseded plans fall due in turn and run nothing; a plan after them runs from the drawn time it is due at', () => {
    let dueUs = Infinity;
    const { sim, t, runs } = timer({ due: () => dueUs });
    const drawn = [1000];
    for (let i = 1; i <= 101; i++) drawn.push(drawn[i - 1] + 99 + i);
    // Each plan for an earlier run than the one planned supersedes it; every one stays queued.
    for (let k = 100; k >= 1; k--) {
      dueUs = drawn[k];
      t.plan();
    }
    dueUs = Infinity; // after the run at drawn[1], nothing more is due
    sim.run(drawn[100]);
    expect(runs).toEqual([[drawn[1], 1]]);
    dueUs = 0; // due now, at drawn[100]: that run, and every one after
    t.plan();
    sim.run(drawn[101]);
    expect(runs).toEqual([
      [drawn[1], 1],
      [drawn[100], 100],
      [drawn[101], 101],
    ]);
  });

  it('firstRunWhere finds the first drawn time from now whose index passes the test, drawing ahead as needed', () => {
    const { sim, t } = timer({ due: () => Infinity });
    t.plan();
    expect(t.firstRunWhere((i) => i % 3 === 0)).toBe(1000);
    expect(t.firstRunWhere((i) => i === 5)).toBe(1000 + 100 + 101 + 102 + 103 + 104);
    sim.run(1050);
    expect(t.firstRunWhere((i) => i % 3 === 0)).toBe(1303);
    expect(t.firstRunWhere(() => true)).toBe(1100);
  });
});
