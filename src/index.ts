/**
 * The programmatic API: load a scenario, run it, compare variants over many seeds, check
 * expectations, read metrics and verdicts. Everything here is what the CLI uses.
 */
export { loadScenario, parseScenario } from './scenario/load.js';
export { ScenarioError } from './spec/errors.js';
export type { Scenario } from './spec/scenario.js';
export type { VariantSpec } from './spec/variant.js';
export type { FaultSpec, RandomFaultSpec } from './spec/faults.js';
export type { Expectation, Statistic } from './spec/expectations.js';
export { parseSeedSpec } from './scenario/seeds.js';
export { runScenario } from './backends/run-scenario.js';
export type { ScenarioResult } from './runner/scenario-result.js';
// A variant's run on its default backend (a user lock module's in the user-code worker), as runVariant.
export { runSimulated as runVariant } from './backends/default-backend.js';
export type { RunResult, RunOptions } from './runner/run.js';
export type { ExpectationResult } from './runner/expectations.js';
export {
  compare,
  summarise,
  mergeCompareResults,
  type CompareOptions,
  type CompareResult,
  type CompareSummary,
  type VariantSummary,
  type PairedSummary,
} from './sweep/compare-variants.js';
export { checkScenario, type CheckOptions, type ScenarioCheck, type CheckedExpectation } from './sweep/check-scenario.js';
export { wilson, meanInterval, type Interval } from './sweep/stats.js';
export { fisherExact, mannWhitney, holm, type MannWhitney } from './sweep/two-sample.js';
export { checkHistory, type RunMetrics, type CheckResult } from './checker/check-history.js';
export { Checker, type CheckerOptions } from './checker/checker.js';
export { CheckerArena } from './checker/arena.js';
export type { Operation, History } from './history/operation.js';
export { resultToJson } from './report/json.js';
export { verdictOf, safetyOf, livenessOf, type Verdict, type SafetyVerdict, type LivenessVerdict } from './checker/verdict.js';
export { LOCKS, GUARDS } from './variants/registry.js';
export { scenarioJsonSchema } from './scenario/json-schema.js';
export { VERSION } from './version.js';
export type { OwnLockFactory, OwnLock, OwnLockOptions, SimRedisClient, SimPipeline } from './own-code/contract.js';
export { runScenarioReal } from './backends/real/run-real.js';
export { runVariantReal } from './backends/real/real-run.js';
export { agreeWithModel as agree } from './agree/agree.js';
export type { RealScenarioOptions } from './backends/real/run-real.js';
export type { RealRunOptions } from './backends/real/real-run.js';
export {
  compareRuns,
  estimate,
  judge,
  testRuns,
  ALPHA,
  AGREE_METRICS,
  REAL_RESOLUTION,
  type AgreeMetric,
  type AgreeOptions,
  type AgreeResult,
  type AgreeRow,
  type AgreeVariant,
} from './agree/agree.js';
export { checkRedisServer } from './backends/real/redis-binary.js';
export { RealBackendError } from './backends/real/errors.js';
