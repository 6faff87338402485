/** `agree --report`: the agreement tables as one self-contained HTML page. */
import type { AgreeResult } from '../agree/agree.js';
import { agreementWord, formatDetectable, formatEstimate, formatPairs, formatTest } from './agree-text.js';
import { page } from './html.js';
import { escapeHtml } from './html-svg.js';

export function renderAgreeHtml(result: AgreeResult, redisVersion: string): string {
  const parts: string[] = [];
  parts.push(`<h1>${escapeHtml(result.scenario)}: model vs real Redis</h1>`);
  parts.push(
    `<p class="meta">${escapeHtml(result.file)} &middot; simulated over ${result.seeds.length} seeds &middot; ${result.repeat} real runs against redis-server ${escapeHtml(redisVersion)} (real time, not deterministic) &middot; real run i replays seed i &middot; a metric differs when its two-sample test, Holm-corrected over every judged metric and variant, gives p &lt; 0.05</p>`,
  );
  for (const v of result.variants) {
    parts.push(`<h2>${escapeHtml(v.variant)} <span class="${v.consistent ? 'pass' : 'fail'}">${v.consistent ? 'consistent' : 'NOT consistent'}</span></h2>`);
    parts.push(`<table><tr><th>metric</th><th>simulated (${v.simulatedRuns} runs)</th><th>real (${v.realRuns} runs)</th><th>test</th><th>detects</th><th></th></tr>`);
    for (const row of v.rows) {
      const word = agreementWord(row);
      parts.push(
        `<tr><td>${escapeHtml(row.metric)}</td><td>${escapeHtml(formatEstimate(row.metric, row.simulated))}</td><td>${escapeHtml(formatEstimate(row.metric, row.real))}</td><td>${escapeHtml(formatTest(row))}</td><td>${escapeHtml(formatDetectable(row))}</td><td class="${row.consistent === false ? 'fail' : 'pass'}">${escapeHtml(word)}</td></tr>`,
      );
    }
    parts.push('</table>');
    parts.push(`<p class="meta">pairs (model/real): ${escapeHtml(formatPairs(v))}</p>`);
  }
  parts.push('<p>Intervals are 95% (Wilson, Student&#39;s t); &ldquo;detects&rdquo; is the smallest difference these run counts show at alpha 0.05 with power 0.8. Stuck and orphan time of real runs come from keyspace notifications, read to about 20 ms: both sides are rounded to that before the test.</p>');
  return page(`${result.scenario}: agreement`, parts.join('\n'));
}
