/**
 * `explore` of a scenario: each selected variant searched in turn (search.ts) on one worker
 * pool, and each violation found turned into a witness (witness.ts). What the CLI prints and
 * what `check` judges an `explore:` expectation with.
 */
import type { Scenario } from '../spec/scenario.js';
import { ExplorePool } from './pool.js';
import { explore, type ExploreResult, type ExploreSettings } from './search.js';
import { templatesOf } from './templates.js';
import { SAFETY_VIOLATION, type ViolationCondition } from './violation.js';
import { makeWitness, type Witness } from './witness.js';

/** When neither a flag, an expectation nor the scenario's explore: block says: one fault (small counts find most: Majumdar and Niksic, POPL 2018, on partition faults), and a budget that runs a few hundred critical instants in full. */
export const DEFAULT_EXPLORE_FAULTS = 1;
export const DEFAULT_EXPLORE_BUDGET = 1000;

export interface ExploreOptions {
  /** Variants to explore (empty: every variant). */
  variants: readonly string[];
  maxFaults: number;
  budget: number;
  kinds: readonly string[];
  /** Empty: a broken safety invariant. */
  conditions: readonly ViolationCondition[];
  pct: ExploreSettings['pct'];
  merge: boolean;
  all: boolean;
  jobs: number;
  /** Witnesses keep their whole history (timelines, the HTML report). */
  wholeHistory: boolean;
  /** Asked between batches (--time); never inside the simulation. */
  outOfTime?: () => boolean;
  /** Told as each variant starts and ends (progress). */
  onVariant?: (variant: string, done: boolean) => void;
}

export interface VariantExplore {
  result: ExploreResult;
  witnesses: Witness[];
}

export interface ScenarioExplore {
  scenario: Scenario;
  options: ExploreOptions;
  conditions: readonly ViolationCondition[];
  variants: VariantExplore[];
}

/** Refused before anything runs: a fault kind the scenario does not list (the default set is used only when it lists none). */
export function unknownKinds(scenario: Scenario, kinds: readonly string[]): string[] {
  const have = new Set<string>(templatesOf(scenario).templates.map((t) => t.spec.kind));
  return kinds.filter((k) => !have.has(k));
}

export async function exploreScenario(scenario: Scenario, options: ExploreOptions): Promise<ScenarioExplore> {
  const conditions = options.conditions.length > 0 ? options.conditions : SAFETY_VIOLATION;
  const selected = options.variants.length > 0 ? scenario.variants.filter((v) => options.variants.includes(v.name)) : scenario.variants;
  const pool = new ExplorePool(scenario, options.jobs);
  const variants: VariantExplore[] = [];
  try {
    for (const variant of selected) {
      options.onVariant?.(variant.name, false);
      const settings: ExploreSettings = {
        variant: variant.name,
        maxFaults: options.maxFaults,
        budget: options.budget,
        kinds: options.kinds,
        conditions,
        pct: options.pct,
        merge: options.merge,
        all: options.all,
      };
      const result = await explore(scenario, settings, pool, options.outOfTime);
      const witnesses = result.found.map((f) => makeWitness(scenario, variant, result.templates, f, conditions, options.wholeHistory));
      variants.push({ result, witnesses });
      options.onVariant?.(variant.name, true);
    }
  } finally {
    await pool.close();
  }
  return { scenario, options, conditions, variants };
}
