/** A run's live verdict = its recorded history's replay, casebook part 1 of 4 (see replay.ts). */
import { describe, expect, it } from 'vitest';
import { checkReplay, partOf, type Tally } from './replay.js';

describe('live verdict vs replayed history, casebook part 1/4', () => {
  const tally: Tally = { runs: 0, declined: 0, keptInVain: 0 };
  for (const file of partOf(0, 4)) it(file, () => checkReplay(file, tally));
  it('judges nearly every run alone even when it drops finished requests at once', () => {
    expect(tally.runs).toBeGreaterThan(0);
    console.log(`part 1: ${tally.runs} runs, ${tally.declined} declined at grace 0, ${tally.keptInVain} of them not judged by checkers keeping the requests named again`);
    expect(tally.declined).toBeLessThanOrEqual(tally.runs / 10);
    expect(tally.keptInVain).toBe(0);
  });
});
