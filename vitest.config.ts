import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Simulation runs are CPU-bound; two cores on the reference machine.
    pool: 'threads',
    testTimeout: 60_000,
  },
});
