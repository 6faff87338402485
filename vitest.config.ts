import { defineConfig } from 'vitest/config';

/**
 * No test may fail because the machine is slow or loaded: the per-test and per-hook time
 * limits only catch a hang, far above what any test takes on an idle machine (the longest,
 * `lock-sim check scenarios/`, about a minute), so a heavily loaded CI runner cannot turn them
 * into failures.
 */
const HANG_MS = 20 * 60_000;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Simulation runs are CPU-bound; two cores on the reference machine.
    pool: 'threads',
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    // Prints a notice when a test is skipped for a missing browser.
    globalSetup: ['test/notices.ts'],
  },
});
