/** The programmatic API: load a scenario, run it, read metrics and verdicts. */
export { loadScenario, parseScenario } from './scenario/load.js';
export { ScenarioError } from './scenario/errors.js';
export type { Scenario, VariantSpec, FaultSpec, Expectation } from './scenario/types.js';
export { runScenario, type ScenarioResult } from './runner/run-scenario.js';
export { runVariant, type RunResult } from './runner/run.js';
export { checkHistory, type RunMetrics, type CheckResult } from './checker/check.js';
export type { Operation, History } from './history/operation.js';
export { resultToJson } from './report/json.js';
export { LOCKS, GUARDS } from './variants/registry.js';
export { VERSION } from './version.js';
