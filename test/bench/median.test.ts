import { describe, expect, it } from 'vitest';
import { median } from '../../src/bench/median.js';

describe('the bench median', () => {
  it('is the middle of an odd count, in any order', () => {
    expect(median([0.56, 0.5, 0.57])).toBe(0.56);
    expect(median([3])).toBe(3);
  });

  it('is the mean of the middle two of an even count, not the lower one', () => {
    expect(median([0.37, 0.21])).toBeCloseTo(0.29, 10);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
