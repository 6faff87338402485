import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * No test may fail because the machine is slow or loaded: the per-test and per-hook time
 * limits only catch a hang, far above what any test takes on an idle machine (the longest,
 * `lock-sim check scenarios/`, about a minute), so a heavily loaded CI runner cannot turn them
 * into failures.
 */
const HANG_MS = 20 * 60_000;

/**
 * The files that take longest (measured: a whole-suite run on two cores, 2026-12-08, seconds
 * per file), started first. A fresh clone has no timing cache, and vitest then starts files
 * in the order it found them: the run ended on the documentation examples alone, minutes
 * after everything else. Only the order depends on this list, never what runs.
 */
const LONGEST_FIRST = [
  'test/own-code/determinism.test.ts', // 203 s: two compares of every own-code scenario, one CLI process each
  'test/backends/real/real-run.test.ts', // 171 s, mostly waiting on real Redis and Sentinel
  'test/docs/examples.test.ts', // 149 s: every example of the docs, one CLI process each
  'test/cli/sweep-commands.test.ts', // 130 s
  'test/cli/check-shards.test.ts', // 126 s
  'test/report/html-browser.test.ts', // 123 s
  'test/checker/replay/replay-3.test.ts', // 83 s
  'test/cli/builtin-scenarios.test.ts', // 80 s
  'test/backends/real/redisson-kinds.test.ts', // 71 s, real time
  'test/cli/merge-identity.test.ts', // 69 s
  'test/deploy/deploy.test.ts', // 62 s
  'test/cli/program.test.ts', // 57 s
  'test/checker/replay/replay-4.test.ts', // 55 s
  'test/checker/replay/replay-2.test.ts', // 54 s
  'test/fuzz/features-fuzz.test.ts', // 53 s
  'test/cli/real-backend.test.ts', // 52 s, real time
  'test/backends/real/key-watch.test.ts', // 52 s, real time
  'test/backends/real/partition-modes.test.ts', // 51 s, real time
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => {
      const i = LONGEST_FIRST.findIndex((f) => spec.moduleId.endsWith(f));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted.map((spec, i) => ({ spec, i })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i).map((x) => x.spec);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two cores on the reference machine, but about a quarter of the suite's time is real
    // time: the real backend's tests wait on redis-server, Sentinel and partitions rather
    // than compute. Four workers let CPU-bound files run while those wait (measured on two
    // cores, the whole suite with other work loading the machine: 2 workers 872 s, 4 workers 728 s). Simulation
    // results do not depend on the number of workers (determinism tests), only wall time does.
    pool: 'threads',
    maxWorkers: 4,
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    sequence: { sequencer: LongestFirst },
    // Prints a notice when a test is skipped for a missing browser.
    globalSetup: ['test/notices.ts'],
  },
});
