/**
 * The tests Stryker runs against each mutant (`npm run mutate`): the unit tests of the code it
 * mutates (the checker on hand-written histories, the Redis model) and the small simulations
 * of test/world and test/variants. The casebook and CLI tests also cover this code, but take
 * minutes per mutant; a mutant only they would kill is a unit test missing.
 *
 * Left out as well: the statistical comparisons of failover timing with real Redis
 * (test/world/redis/*/timing.test.ts, hundreds of seeded runs each). Their runs happen while
 * vitest collects the file, outside any test, so Stryker counts every mutant they reach as
 * "static" and runs the whole suite against it: minutes per mutant. The failover model's
 * phase order and timing bounds are pinned by the unit tests of sentinel/ and cluster/
 * instead.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/checker/**/*.test.ts', 'test/world/**/*.test.ts', 'test/variants/**/*.test.ts'],
    exclude: ['test/world/redis/*/timing.test.ts'],
    pool: 'threads',
    testTimeout: 20 * 60_000,
    hookTimeout: 20 * 60_000,
  },
});
