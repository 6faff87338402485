/**
 * Random fault schedules: a fault kind with a rate and a duration distribution becomes a
 * list of fixed faults drawn from the run's seed, so the same seed always gives the same
 * schedule and a shrinker can work on it as data. Occurrences never overlap: the next one
 * is drawn from the end of the previous one (a Poisson process paused while a fault is on).
 */
import { sample } from '../engine/distribution.js';
import type { RandomStream, RandomStreams } from '../engine/random.js';
import type { Micros } from '../engine/time.js';
import type { FaultSpec, RandomFaultSpec } from '../spec/faults.js';
import type { Scenario } from '../spec/scenario.js';

/**
 * Every fault of a run as fixed data: the scenario's fixed faults, then each random schedule
 * drawn from its own named stream of the run's seed. The runner injects these, and the
 * shrinker writes them out, so both see the same schedule.
 */
export function faultsOfRun(scenario: Scenario, random: RandomStreams): FaultSpec[] {
  return [
    ...scenario.faults,
    ...scenario.randomFaults.flatMap((schedule, i) => expandRandomFaults(schedule, random.fork(`faults/random/${i}`), scenario.durationUs)),
  ];
}

export function expandRandomFaults(spec: RandomFaultSpec, rng: RandomStream, runDurationUs: Micros): FaultSpec[] {
  const out: FaultSpec[] = [];
  const meanGapUs = 1_000_000 / spec.ratePerS;
  let t = 0;
  for (;;) {
    t += Math.max(1, Math.round(rng.exponential(meanGapUs)));
    if (t >= runDurationUs) return out;
    const durationUs = Math.max(0, Math.round(sample(spec.duration, rng)));
    out.push(withTime(spec.template, t, durationUs));
    t += durationUs;
  }
}

function withTime(template: FaultSpec, atUs: Micros, durationUs: Micros): FaultSpec {
  return 'durationUs' in template ? { ...template, atUs, durationUs } : { ...template, atUs };
}
