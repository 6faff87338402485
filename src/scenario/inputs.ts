/**
 * Every file a loaded scenario was made from: the scenario file, each `empirical(...)` and
 * `histogram(...)` file, each own-code module and the user's files it imports. An output of
 * a command must be none of them (cli/output-files.ts).
 */
import type { Distribution } from '../engine/distribution.js';
import { fullPath } from './distribution-files.js';
import { localModuleFiles } from './module-files.js';
import type { Scenario } from '../spec/scenario.js';

function distributionFiles(value: unknown, scenarioFile: string, out: Set<string>): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const d = v as Partial<Distribution>;
    if ((d.kind === 'empirical' || d.kind === 'histogram') && typeof (d as { file?: unknown }).file === 'string') out.add(fullPath(scenarioFile, (d as { file: string }).file));
    if (Array.isArray(v)) stack.push(...v);
    // Samples and buckets are numbers: nothing to walk.
    else for (const [k, child] of Object.entries(v)) if (k !== 'samplesUs' && k !== 'buckets') stack.push(child);
  }
}

/** `scenarioFile`: where the scenario was read (a built-in's file, not its name). */
export function scenarioInputs(scenario: Scenario, scenarioFile: string): string[] {
  const files = new Set<string>([scenarioFile]);
  distributionFiles(scenario, scenarioFile, files);
  for (const v of scenario.variants) if (v.lockModule) for (const f of localModuleFiles(v.lockModule.file)) files.add(f.file);
  return [...files];
}
