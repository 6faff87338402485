/** Streaming checker = batch checker, casebook part 4 of 4 (see equivalence.ts). */
import { describe, expect, it } from 'vitest';
import { checkEquivalence, partOf, type Tally } from './equivalence.js';

describe('streaming checker vs batch checker, casebook part 4/4', () => {
  const tally: Tally = { runs: 0, fallbacks: 0, wholeHistory: 0 };
  for (const file of partOf(3, 4)) it(file, () => checkEquivalence(file, tally));
  it('judges nearly every run alone even when it drops finished requests at once', () => {
    expect(tally.runs).toBeGreaterThan(0);
    console.log(`part: ${tally.runs} runs, ${tally.fallbacks} declined at grace 0, ${tally.wholeHistory} of them not judged by re-runs keeping the requests named again`);
    expect(tally.fallbacks).toBeLessThanOrEqual(tally.runs / 10);
    expect(tally.wholeHistory).toBe(0);
  });
});
