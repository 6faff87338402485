/** The command that replays one schedule of `lock-sim explore` (its `--replay` spec, src/explore/witness.ts). */
import type { MetricCondition } from '../scenario/types.js';
import { shellQuote } from './shell-quote.js';

export function exploreReplayCommand(file: string, variant: string, kinds: readonly string[], conditions: readonly MetricCondition[], spec: string): string {
  const k = kinds.length > 0 ? ` --kinds ${kinds.join(',')}` : '';
  const violation = conditions.map((c) => ` --violation ${shellQuote(c.text)}`).join('');
  return `npx lock-sim explore ${shellQuote(file)} --variant ${shellQuote(variant)}${k}${violation} --replay ${spec}`;
}
