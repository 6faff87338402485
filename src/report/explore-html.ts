/** `explore --report`: one self-contained page with each variant's statement, or its witness with timeline and story. */
import { tellStory } from '../checker/story.js';
import { focusViolation } from '../checker/violations.js';
import { formatMicros } from '../engine/time.js';
import { page } from './html.js';
import { escapeHtml, timelineSvg } from './html-svg.js';
import { timelineOf } from './timeline-select.js';
import { VERSION } from '../version.js';
import type { ScenarioExplore } from '../explore/explore-scenario.js';
import { brokenText, faultLines, orderText, replayCommand } from './explore-text.js';
import { boundStatement, instantsText, levelsText, notClaimed, pctGuarantee } from '../explore/statement.js';
import { describeViolation } from '../explore/violation.js';

export function renderExploreHtml(e: ScenarioExplore): string {
  const s = e.scenario;
  const o = e.options;
  const parts: string[] = [];
  parts.push(`<h1>${escapeHtml(s.name)}: explore</h1>`);
  parts.push(`<p class="meta">${escapeHtml(s.file)} &middot; seed ${s.seed} &middot; up to ${o.maxFaults} fault(s), budget ${o.budget} schedules per variant &middot; lock-sim ${VERSION}</p>`);
  const first = e.variants[0]?.result;
  if (first) parts.push(`<p>Fault kinds: ${escapeHtml(first.templates.map((t) => `#${t.id} ${t.label}`).join(', ') || 'none')}. Violation: ${escapeHtml(describeViolation(e.conditions))}.</p>`);
  for (const v of e.variants) {
    const r = v.result;
    parts.push(`<h2>${escapeHtml(r.variant)}</h2>`);
    if (v.witnesses.length === 0) {
      parts.push(`<p class="SAFE">${escapeHtml(boundStatement(r, o.maxFaults))}</p>`);
      const g = pctGuarantee(r.pct);
      if (g) parts.push(`<p class="meta">${escapeHtml(g)}</p>`);
      parts.push(`<p class="meta">${escapeHtml(notClaimed(o.maxFaults, r.pct))}</p>`);
    }
    for (const w of v.witnesses) {
      parts.push(`<p class="UNSAFE">Violation at schedule ${w.found.schedule.id}: ${escapeHtml(brokenText(w))}</p>`);
      parts.push(`<ul>${faultLines(v, w).map((l) => `<li>${escapeHtml(l)}</li>`).join('')}<li>${escapeHtml(orderText(w))}</li></ul>`);
      parts.push(`<p class="meta">replay: <code>${escapeHtml(replayCommand(e, r.variant, w))}</code></p>`);
      const model = timelineOf(w.run, {});
      if (typeof model !== 'string') {
        parts.push(`<h3>Timeline of ${escapeHtml(model.key)}</h3>`);
        parts.push(timelineSvg(model));
      }
      const focus = focusViolation(w.run.violations);
      if (focus) {
        const story = tellStory(focus, w.run.history);
        parts.push(`<div class="story">${escapeHtml([story.headline, ...story.lines.map((l) => `${formatMicros(l.timeUs).padStart(9)}  ${l.who.padEnd(16)} ${l.what}`)].join('\n'))}</div>`);
      }
    }
    parts.push(`<p class="meta">searched: ${escapeHtml(`${instantsText(r)}; ${levelsText(r)}; ${r.schedules} schedules, ${r.distinctStates} distinct states`)}</p>`);
  }
  return page(`lock-sim explore: ${s.name}`, parts.join('\n'));
}
