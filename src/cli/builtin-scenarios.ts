/**
 * The scenarios shipped with the package (`scenarios/*.yaml`), by name: `lock-sim run failover`
 * works from any folder, including a project that installed lock-sim, where the files sit in
 * node_modules/lock-sim/scenarios and `scenarios/failover.yaml` does not exist.
 *
 * A path that exists always wins over a built-in name: a user's own file must never be
 * shadowed by one shipped in the package, and what ran before built-ins existed still runs
 * the same file. Only an argument that names no file falls back to the built-ins.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScenarioError } from '../spec/errors.js';
import { loadScenario, parseScenario, type LoadOptions } from '../scenario/load.js';
import { readYaml } from '../scenario/yaml-document.js';
import { closest } from '../scenario/suggest.js';
import { SCHEMA_FILE_NAME } from '../scenario/schema-line.js';
import type { Scenario } from '../spec/scenario.js';
import { scenarioInputs } from '../scenario/inputs.js';
import { UsageError } from './option-parsers.js';

/** The package's scenarios folder: src/cli/ and dist/cli/ both sit two levels below the package root. */
const BUILTIN_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/** The JSON Schema of scenario files the package ships (`npm run generate` writes it). */
export const PACKAGE_SCHEMA_FILE = fileURLToPath(new URL(`../../schema/${SCHEMA_FILE_NAME}`, import.meta.url));

interface BuiltinScenario {
  name: string;
  file: string;
}

/** Every built-in scenario, in name order (the folder only: nothing is parsed). */
export function builtinScenarios(): BuiltinScenario[] {
  let files: string[];
  try {
    files = readdirSync(BUILTIN_DIR).filter((f) => f.endsWith('.yaml'));
  } catch {
    return [];
  }
  return files
    .map((f) => ({ name: f.slice(0, -'.yaml'.length), file: join(BUILTIN_DIR, f) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** With each scenario's own `description:` (for `lock-sim list`). */
export function describedBuiltinScenarios(): Array<BuiltinScenario & { description: string }> {
  return builtinScenarios().map((s) => {
    const yaml = readYaml(readFileSync(s.file, 'utf8'));
    const data = (yaml.ok ? yaml.doc.toJS() : null) as { description?: unknown } | null;
    return { ...s, description: typeof data?.description === 'string' ? data.description : '' };
  });
}

export function builtinScenario(name: string): BuiltinScenario | undefined {
  return builtinScenarios().find((s) => s.name === name);
}

/** A bare name (no folder, no extension) can only mean a built-in scenario. */
export const isBareName = (arg: string): boolean => !/[\\/]/.test(arg) && !/\.ya?ml$/i.test(arg);

interface ScenarioSource {
  /** Where to read it. */
  file: string;
  /** What reports and replay commands call it: the path as given, or the built-in's name. */
  display: string;
  builtin: boolean;
  /** A local `<name>.yaml` that the built-in name does NOT run (worth a note). */
  shadowed?: string;
}

/** What a scenario argument refers to; exit 2 (with did-you-mean) when it is neither a file nor a built-in. */
export function resolveScenarioArg(arg: string): ScenarioSource {
  if (existsSync(arg)) return { file: arg, display: arg, builtin: false };
  const all = builtinScenarios();
  const names = all.map((s) => s.name);
  const found = all.find((s) => s.name === arg);
  if (found) {
    const local = `${arg}.yaml`;
    return { file: found.file, display: arg, builtin: true, ...(existsSync(local) ? { shadowed: local } : {}) };
  }
  if (isBareName(arg)) {
    const near = closest(arg, names);
    throw new UsageError(
      `no such file or built-in scenario "${arg}"${near ? ` (did you mean "${near}"?)` : ''}; built-in scenarios: ${names.join(', ')} (lock-sim list describes them)`,
    );
  }
  const stem = basename(arg).replace(/\.ya?ml$/i, '');
  const hint = names.includes(stem) ? ` (there is a built-in scenario "${stem}": give its bare name)` : '';
  throw new ScenarioError(arg, [{ path: [], message: `no such file${hint}` }]);
}

/** The files a scenario given as `arg` was made from (inputs.ts), which no output may overwrite. */
export function inputsOf(arg: string, scenario: Scenario): string[] {
  return scenarioInputs(scenario, resolveScenarioArg(arg).file);
}

/** Loads a scenario given as a path or a built-in name; `note` hears about a shadowed local file. */
export function loadScenarioArg(arg: string, note?: (text: string) => void, options: LoadOptions = {}): Scenario {
  const source = resolveScenarioArg(arg);
  if (!source.builtin) return loadScenario(source.file, options);
  if (source.shadowed) note?.(`lock-sim: note: "${arg}" runs the built-in scenario, not ./${source.shadowed} (give the file name to run that one)`);
  return parseScenario(readFileSync(source.file, 'utf8'), source.display, options);
}

