/**
 * The tests Stryker runs against each mutant (`npm run mutate`): the unit tests of the code it
 * mutates (the checker on hand-written histories, the Redis model) and the small simulations
 * of test/world and test/variants. The casebook and CLI tests also cover this code, but take
 * minutes per mutant; a mutant only they would kill is a unit test missing.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/checker/**/*.test.ts', 'test/world/**/*.test.ts', 'test/variants/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 20 * 60_000,
    hookTimeout: 20 * 60_000,
  },
});
