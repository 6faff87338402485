/** `explore --format markdown`: the statements and witnesses for a pull-request comment or a CI job summary. */
import { tellStory } from '../checker/story.js';
import { focusViolation } from '../checker/violations.js';
import { formatMicros } from '../engine/time.js';
import { markdownCell } from './columns.js';
import type { ScenarioExplore } from '../explore/explore-scenario.js';
import { brokenText, faultLines, orderText, replayCommand } from './explore-text.js';
import { boundStatement, instantsText, levelsText, notClaimed, pctGuarantee } from '../explore/statement.js';
import { describeViolation } from '../explore/violation.js';

export function renderExploreMarkdown(e: ScenarioExplore): string {
  const s = e.scenario;
  const o = e.options;
  const out: string[] = [];
  out.push(`### ${markdownCell(s.name)}: explore, up to ${o.maxFaults} fault${o.maxFaults === 1 ? '' : 's'}, budget ${o.budget} schedules per variant`);
  const first = e.variants[0]?.result;
  if (first) out.push('', `Fault kinds${first.fromScenario ? '' : ` (default set for ${s.redis.topology})`}: ${first.templates.map((t) => `#${t.id} ${markdownCell(t.label)}`).join(', ') || 'none'}. Violation: ${markdownCell(describeViolation(e.conditions))}.`);
  for (const v of e.variants) {
    const r = v.result;
    out.push('');
    if (v.witnesses.length === 0) out.push(`- **${markdownCell(r.variant)}**: ${markdownCell(boundStatement(r, o.maxFaults))}`);
    for (const w of v.witnesses) {
      out.push(`- **${markdownCell(r.variant)}: violation** at schedule ${w.found.schedule.id}: ${markdownCell(brokenText(w))}`);
      for (const line of faultLines(v, w)) out.push(`  - fault: ${markdownCell(line)}`);
      out.push(`  - order: ${markdownCell(orderText(w))}`);
      out.push(`  - replay: \`${replayCommand(e, r.variant, w)}\``);
      const focus = focusViolation(w.run.violations);
      if (focus) {
        const story = tellStory(focus, w.run.history);
        const text = [story.headline, ...story.lines.map((l) => `${formatMicros(l.timeUs).padStart(9)}  ${l.who.padEnd(16)} ${l.what}`)].join('\n');
        out.push('', '  ```', ...text.split('\n').map((l) => `  ${l.replace(/`/g, "'")}`), '  ```');
      }
    }
    out.push('', `  _searched: ${markdownCell(`${instantsText(r)}; ${levelsText(r)}; ${r.schedules} schedules, ${r.distinctStates} distinct states`)}_`);
    if (v.witnesses.length === 0) {
      const g = pctGuarantee(r.pct);
      if (g) out.push(`  _${markdownCell(g)}_`);
      out.push(`  _${markdownCell(notClaimed(o.maxFaults, r.pct))}_`);
    }
  }
  return out.join('\n');
}
