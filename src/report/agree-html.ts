/** `agree --report`: the agreement tables as one self-contained HTML page. */
import type { AgreeResult } from '../real/agree.js';
import { formatEstimate, agreementWord } from './agree-text.js';
import { page } from './html.js';
import { escapeHtml } from './html-svg.js';

export function renderAgreeHtml(result: AgreeResult, redisVersion: string): string {
  const parts: string[] = [];
  parts.push(`<h1>${escapeHtml(result.scenario)}: model vs real Redis</h1>`);
  parts.push(
    `<p class="meta">${escapeHtml(result.file)} &middot; simulated over ${result.seeds.length} seeds &middot; ${result.repeat} real runs against redis-server ${escapeHtml(redisVersion)} (real time, not deterministic) &middot; 95% intervals, consistent when they overlap</p>`,
  );
  for (const v of result.variants) {
    parts.push(`<h2>${escapeHtml(v.variant)} <span class="${v.consistent ? 'pass' : 'fail'}">${v.consistent ? 'consistent' : 'NOT consistent'}</span></h2>`);
    parts.push(`<table><tr><th>metric</th><th>simulated (${v.simulatedRuns} runs)</th><th>real (${v.realRuns} runs)</th><th></th></tr>`);
    for (const row of v.rows) {
      const word = agreementWord(row);
      parts.push(
        `<tr><td>${escapeHtml(row.metric)}</td><td>${escapeHtml(formatEstimate(row.metric, row.simulated))}</td><td>${escapeHtml(formatEstimate(row.metric, row.real))}</td><td class="${row.consistent === false ? 'fail' : 'pass'}">${escapeHtml(word)}</td></tr>`,
      );
    }
    parts.push('</table>');
  }
  parts.push('<p>Stuck and orphan time of real runs come from keyspace notifications, read to about 20 ms: the real interval is widened by that before the overlap test.</p>');
  return page(`${result.scenario}: agreement`, parts.join('\n'));
}
