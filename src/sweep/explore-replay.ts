/** The command that replays one schedule of `lock-sim explore` (its `--replay` spec, src/explore/witness.ts). */
import type { MetricCondition } from '../spec/expectations.js';
import { shellQuote } from './shell-quote.js';

/**
 * `fileConditions`: the scenario's own explore: violation, which the command reads itself.
 * The seed is always given: the schedule's instants are that seed's.
 */
export function exploreReplayCommand(file: string, seed: number, variant: string, kinds: readonly string[], conditions: readonly MetricCondition[], spec: string, fileConditions: readonly MetricCondition[] = []): string {
  const k = kinds.length > 0 ? ` --kinds ${kinds.join(',')}` : '';
  const same = conditions.length === fileConditions.length && conditions.every((c, i) => c.text === fileConditions[i].text);
  const violation = same ? '' : conditions.map((c) => ` --violation ${shellQuote(c.text)}`).join('');
  return `npx lock-sim explore ${shellQuote(file)} --seed ${seed} --variant ${shellQuote(variant)}${k}${violation} --replay ${spec}`;
}
