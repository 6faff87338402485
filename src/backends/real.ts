/**
 * The real backend: runs against redis-server processes in real time (src/real does them:
 * real-run.ts one variant, run-real.ts a scenario's variants; asynchronous, not
 * deterministic). A caller takes it by name (`run --backend redis`); agree sets it beside the
 * model, whose runs take the default backend (default-backend.ts).
 */
import { agree, type AgreeOptions, type AgreeResult } from '../real/agree.js';
import { runVariantReal } from '../real/real-run.js';
import { runScenarioReal } from '../real/run-real.js';
import type { Scenario } from '../spec/scenario.js';
import { runSimulated } from './default-backend.js';

export { runScenarioReal, runVariantReal };

/** agree (real/agree.ts): each variant's simulated runs on its default backend, its real runs on this one. */
export function agreeWithModel(scenario: Scenario, options: AgreeOptions): Promise<AgreeResult> {
  return agree(scenario, options, (s, v, seed) => runSimulated(s, v, seed));
}
