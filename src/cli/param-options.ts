/**
 * The `--param path=value(s)` options that `run` and `sweep` share: the option parser, and
 * the scenario argument loaded with those fields set (sweep's grid of cells; run's one cell).
 */
import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import type { Budget } from '../scenario/cost.js';
import type { Scenario } from '../spec/scenario.js';
import { checkDistinct, checkParam, ParamError, parseParamOption, readScenarioText, scenarioText, type ParamOption, type SweepParam } from '../sweep/params.js';
import { SweepGrid } from '../sweep/sweep-grid.js';
import { loadScenarioArg, resolveScenarioArg } from './builtin-scenarios.js';
import { budgetOf, UsageError } from './option-parsers.js';

/** commander's collector of repeated --param options. */
export function collectParam(value: string, previous: ParamOption[]): ParamOption[] {
  const p = parseParamOption(value);
  if (!p.ok) throw new InvalidArgumentError(p.message);
  return [...previous, p.value];
}

/** The grid of a scenario argument and its --param options; a bad path or value is exit 2, located. */
export function buildGrid(arg: string, params: readonly ParamOption[], maxRequests: number | undefined, note?: (text: string) => void, budget?: Budget, oneValue = false): SweepGrid {
  const load = { budget: budget ?? budgetOf(maxRequests) };
  const base = loadScenarioArg(arg, note, load);
  const where = resolveScenarioArg(arg);
  const source = where.builtin ? scenarioText(readFileSync(where.file, 'utf8'), where.file, where.display) : readScenarioText(where.file);
  try {
    const checked: SweepParam[] = params.map((p) => checkParam(source, p.path, p.values));
    checkDistinct(source, checked);
    for (const p of oneValue ? checked : []) {
      if (p.spec.values.length !== 1) throw new UsageError(`--param ${p.path}: run takes one value, found ${p.spec.values.length} (sweep takes several)`);
    }
    const grid = new SweepGrid(base, source, checked, load);
    grid.loadAll();
    return grid;
  } catch (err) {
    if (err instanceof ParamError) throw new UsageError(err.message, true);
    if (err instanceof RangeError) throw new UsageError(err.message);
    throw err;
  }
}

/** `run --param path=value`: the scenario with fields set, as a sweep's cell (how sweep's replay commands run one cell). */
export function loadWithParams(arg: string, params: readonly ParamOption[], budget: Budget, note?: (text: string) => void): Scenario {
  return buildGrid(arg, params, undefined, note, budget, true).scenarioAt(params.map(() => 0));
}
