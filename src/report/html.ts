/**
 * The HTML report: one self-contained file (inline CSS and SVG, no scripts, nothing fetched)
 * with the scenario, the verdict table, each variant's timeline and first-violation story,
 * the expectations; for compare, the summary table and the oversold chart. Every name that
 * comes from a scenario file is escaped.
 */
import { tellStory } from '../checker/story.js';
import { formatMicros } from '../engine/time.js';
import type { ScenarioResult } from '../runner/scenario-result.js';
import { formatMetric } from '../checker/metric-names.js';
import { scenarioToYaml } from '../scenario/to-yaml.js';
import type { CompareSummary } from '../sweep/compare-variants.js';
import { VERSION } from '../version.js';
import { escapeHtml, oversoldChartSvg, timelineSvg } from './html-svg.js';
import type { TimelineWindow } from './timeline-model.js';
import { focusViolation } from '../checker/violations.js';
import { timelineOf, type TimelineGap } from './timeline-select.js';
import { forestPlotSvg, scatterSvg } from './html-charts.js';
import { difference, failedWorst, verdictLine } from './compare-text.js';
import { failuresHtml } from './html-failures.js';
import { livenessOf, verdictOf } from './verdict-paint.js';

/** Why a variant has no timeline, in a report's words (no command-line flags in a page). */
const GAP_TEXT: Record<TimelineGap, string> = {
  'no-key': 'No lock key was used in this run, so there is no timeline to draw.',
  'no-violation': 'No violation in this run: the timeline zooms on one, so none is drawn.',
  'bad-window': 'The window asked for is empty (its end is not after its start), so no timeline is drawn.',
};

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1000px; color: #1a1a1a; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; margin-top: 28px; } h3 { font-size: 15px; }
table { border-collapse: collapse; margin: 8px 0; } th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; } th { background: #f3f3f3; }
.SAFE { color: #137333; font-weight: 600; } .DEGRADED { color: #00639b; font-weight: 600; } .LEAKY { color: #b06000; font-weight: 600; } .UNSAFE { color: #c5221f; font-weight: 600; }
.STALLED, .UNAVAILABLE { color: #8e24aa; font-weight: 600; } .LIVE { color: #137333; }
.pass { color: #137333; } .fail { color: #c5221f; font-weight: 600; }
.story { font-family: ui-monospace, monospace; font-size: 12px; background: #fafafa; border: 1px solid #eee; padding: 8px; white-space: pre-wrap; }
svg text { font: 11px system-ui, sans-serif; } svg .holder { font-weight: 700; fill: #fff; } svg .lane { font-size: 12px; }
svg .grid { stroke: #e5e5e5; } svg .tick { fill: #444; } svg .fault { fill: #a855f7; fill-opacity: 0.12; } svg .faultlabel { fill: #7e22ce; }
svg .event { stroke: #7e22ce; stroke-width: 1.5; stroke-dasharray: 3 2; } svg .eventlabel { fill: #7e22ce; font-weight: 700; }
.meta { color: #555; }`;

export function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="lock-sim ${VERSION}">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

export function renderRunHtml(result: ScenarioResult, window: TimelineWindow): string {
  const s = result.scenario;
  const parts: string[] = [];
  parts.push(`<h1>${escapeHtml(s.name)}</h1>`);
  if (s.description) parts.push(`<p>${escapeHtml(s.description)}</p>`);
  parts.push(`<p class="meta">${escapeHtml(s.file)} &middot; seed ${result.seed} &middot; ${escapeHtml(formatMicros(s.durationUs))} simulated &middot; lock-sim ${VERSION}</p>`);
  // The scenario as it ran, every default spelled out.
  parts.push(`<details class="scenario"><summary>Scenario (every value, defaults included)</summary><pre class="story">${escapeHtml(scenarioToYaml({ ...s, seed: result.seed }))}</pre></details>`);
  parts.push('<h2>Verdicts</h2>');
  parts.push('<table class="verdicts"><thead><tr><th>variant</th><th>lock + guard</th><th>verdict</th><th>liveness</th><th>oversold</th><th>double holders</th><th>lock lost</th><th>stuck / orphan (sum of keys)</th><th>orders</th><th>orders/s</th><th>p99 of all answers</th></tr></thead><tbody>');
  for (const run of result.runs) {
    const m = run.metrics;
    const verdict = verdictOf(m);
    const live = livenessOf(m);
    parts.push(
      `<tr><td>${escapeHtml(run.variant.name)}</td><td>${escapeHtml(`${run.variant.lock} + ${run.variant.guard}`)}</td><td class="${verdict}">${verdict}</td><td class="${live}">${live}</td><td>${m.oversold}</td><td>${m.doubleHolders}${m.doubleHolders > 0 ? ` (${escapeHtml(formatMicros(m.doubleHolderUs))})` : ''}</td><td>${m.lockLost}</td><td>${escapeHtml(`${formatMicros(m.stuckLockUs)} / ${formatMicros(m.orphanLockUs)}`)}</td><td>${m.orders}</td><td>${m.throughputPerS.toFixed(2)}</td><td>${escapeHtml(formatMicros(m.latencyP99Us))}</td></tr>`,
    );
  }
  parts.push('</tbody></table>');
  parts.push('<p class="meta">Stuck and orphan times are summed over lock keys, up to the end of the drain; p99 is over every answered request, whatever its outcome.</p>');
  for (const run of result.runs) {
    if (run.metrics.liveness.cause !== null) parts.push(`<p><span class="${livenessOf(run.metrics)}">${escapeHtml(run.variant.name)}: ${livenessOf(run.metrics)}</span>: ${escapeHtml(run.metrics.liveness.cause)}</p>`);
  }
  for (const run of result.runs) {
    parts.push(`<h2>${escapeHtml(run.variant.name)}</h2>`);
    const model = timelineOf(run, window);
    if (typeof model === 'string') parts.push(`<p class="meta">${escapeHtml(GAP_TEXT[model])}</p>`);
    else {
      parts.push(`<h3>Timeline of ${escapeHtml(model.key)}</h3>`);
      parts.push(timelineSvg(model));
      if (model.legend.length > 0) parts.push(`<p class="meta">${model.legend.map((l) => `${escapeHtml(l.letter)} = ${escapeHtml(l.request)}${l.thread ? ` (${escapeHtml(l.thread)})` : ''}`).join(', ')}</p>`);
      const events = model.faults.filter((f) => f.toUs === f.fromUs);
      if (events.length > 0) parts.push(`<ol class="events">${events.map((e) => `<li>${escapeHtml(`${formatMicros(e.fromUs)} ${e.fault}: ${e.detail}`)}</li>`).join('')}</ol>`);
    }
    const first = focusViolation(run.violations);
    if (first) {
      const story = tellStory(first, run.history);
      parts.push(`<h3>${first === run.violations[0] ? 'First violation' : 'Two holders'}: ${escapeHtml(first.kind)}</h3>`);
      parts.push(`<div class="story">${escapeHtml([story.headline, ...story.lines.map((l) => `${formatMicros(l.timeUs).padStart(9)}  ${l.who.padEnd(16)} ${l.what}`)].join('\n'))}</div>`);
    } else parts.push('<p class="SAFE">No invariant broken.</p>');
    parts.push(failuresHtml(run.failures));
  }
  if (result.expectations.length > 0) {
    parts.push('<h2>Expectations</h2><ul class="expectations">');
    for (const e of result.expectations) {
      parts.push(`<li class="${e.passed ? 'pass' : 'fail'}">${e.passed ? 'pass' : 'FAIL'}: ${escapeHtml(`${e.expectation.variant}: ${e.expectation.text} (measured ${formatMetric(e.expectation.metric, e.measured)})`)}</li>`);
    }
    parts.push('</ul>');
  }
  return page(`lock-sim: ${s.name}`, parts.join('\n'));
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

export function renderCompareHtml(s: CompareSummary): string {
  const parts: string[] = [];
  parts.push(`<h1>${escapeHtml(s.scenario)}: compare</h1>`);
  parts.push(`<p class="meta">${escapeHtml(s.file)} &middot; seeds ${escapeHtml(s.seeds)} (${s.runsPerVariant} runs per variant) &middot; lock-sim ${VERSION}</p>`);
  parts.push('<table class="verdicts"><thead><tr><th>variant</th><th>worst verdict (its runs)</th><th>P(oversell) [95% CI]</th><th>oversold mean / max</th><th>P(double holders) [95% CI]</th><th>lost updates / units mean</th><th>stuck / orphan mean (sum of keys)</th><th>orders/s</th><th>p99 of all answers, mean</th><th>live / stalled / unavailable</th><th>worst seed</th></tr></thead><tbody>');
  for (const v of s.variants) {
    const l = v.liveness.runs;
    parts.push(
      `<tr><td>${escapeHtml(v.variant)}</td><td class="${v.worstVerdict}">${v.worstVerdict} (${v.verdicts[v.worstVerdict]})</td><td>${pct(v.oversell.estimate)} [${pct(v.oversell.low)}, ${pct(v.oversell.high)}]</td><td>${v.oversoldMean.toFixed(2)} / ${v.oversoldMax}</td><td>${pct(v.doubleHolders.estimate)} [${pct(v.doubleHolders.low)}, ${pct(v.doubleHolders.high)}]</td><td>${v.lostUpdates.mean.toFixed(2)} / ${v.lostUpdates.unitsMean.toFixed(2)}</td><td>${escapeHtml(`${formatMicros(v.stuckMeanUs)} / ${formatMicros(v.orphanMeanUs)}`)}</td><td>${v.throughputMean.toFixed(2)}</td><td>${escapeHtml(formatMicros(v.p99MeanUs))}</td><td>${l.LIVE} / ${l.STALLED} / ${l.UNAVAILABLE}</td><td>${failedWorst(v) ? v.worst?.seed : '-'}</td></tr>`,
    );
  }
  parts.push('</tbody></table>');
  parts.push(`<ul class="verdict-runs">${s.variants.map((v) => `<li>${escapeHtml(`${v.variant}: ${verdictLine(v)}`)}</li>`).join('')}</ul>`);
  parts.push('<h2>How often each variant broke</h2>');
  parts.push('<p class="meta">Each square is the share of runs, the line its Wilson 95% interval.</p>');
  parts.push(forestPlotSvg(s.variants));
  parts.push('<h2>Safety against throughput</h2>');
  parts.push('<p class="meta">One point per variant: lower is safer, further right sells faster; the bar is the 95% interval of P(oversell).</p>');
  parts.push(scatterSvg(s.variants));
  parts.push('<h2>Units oversold per run</h2>');
  parts.push(oversoldChartSvg(s.variants));
  const worst = s.variants.filter(failedWorst);
  if (worst.length > 0) {
    parts.push('<h2>Worst runs</h2><ul>');
    for (const v of worst) parts.push(`<li>${escapeHtml(v.variant)}: <code>${escapeHtml(v.worst?.replay ?? '')}</code></li>`);
    parts.push('</ul>');
  }
  if (s.paired.length > 0) {
    parts.push(`<h2>Paired differences against ${escapeHtml(s.paired[0].baseline)}</h2><table><thead><tr><th>variant</th><th>oversold per run</th><th>P(oversell)</th><th>orders/s</th></tr></thead><tbody>`);
    for (const p of s.paired) {
      parts.push(`<tr><td>${escapeHtml(p.variant)}</td><td>${difference(p.oversold, 2)}</td><td>${difference(p.oversell, 1, true)}</td><td>${difference(p.throughput, 2)}</td></tr>`);
    }
    parts.push('</tbody></table>');
  }
  return page(`lock-sim compare: ${s.scenario}`, parts.join('\n'));
}
