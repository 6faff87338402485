import { availableParallelism } from 'node:os';
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
    // Simulation runs are CPU-bound; two cores on the reference machine. Vitest's default
    // leaves one core to its main thread, which idles: on two cores that ran the files one at
    // a time (measured: 1,017 s of wall time for 949 s of tests), so use every core.
    pool: 'threads',
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    // Prints a notice when a test is skipped for a missing browser.
    globalSetup: ['test/notices.ts'],
  },
});
