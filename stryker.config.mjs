// Mutation testing (`npm run mutate`, not in CI: it takes a long while): StrykerJS mutates the
// checker and the Redis model and runs vitest.mutate.config.ts against each mutant. Targets
// (the project's goal): a mutation score of at least 80% on src/checker and 70% on src/world/redis.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  mutate: ['src/checker/**/*.ts', 'src/world/redis/**/*.ts'],
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 80, low: 70, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
