/** A run's failed requests by first error text and its diagnostics by kind and text (checker/observers/diagnostics.ts), as an HTML section. */
import type { Failures } from '../checker/observers/diagnostics.js';
import { formatMicros } from '../engine/time.js';
import { escapeHtml } from './html-svg.js';

export function failuresHtml(f: Failures): string {
  const parts: string[] = [];
  if (f.failed > 0) {
    parts.push(`<h3>Failed requests (${f.failed}), by first error text</h3>`);
    parts.push('<table class="failures"><thead><tr><th>requests</th><th>outcome</th><th>first error text</th><th>first</th></tr></thead><tbody>');
    for (const g of f.requests) parts.push(`<tr><td>${g.count}</td><td>${escapeHtml(g.outcome)}</td><td>${escapeHtml(g.text)}</td><td>${escapeHtml(`${g.firstRequest} at ${formatMicros(g.firstUs)}`)}</td></tr>`);
    if (f.otherRequests > 0) parts.push(`<tr><td>${f.otherRequests}</td><td></td><td>other texts (not kept)</td><td></td></tr>`);
    parts.push('</tbody></table>');
  }
  const reported = f.diagnostics.reduce((n, g) => n + g.count, 0) + f.otherDiagnostics;
  if (reported > 0) {
    parts.push(`<h3>Diagnostics of the client processes (${reported})</h3>`);
    parts.push('<table class="diagnostics"><thead><tr><th>count</th><th>kind</th><th>text</th><th>at</th><th>first</th></tr></thead><tbody>');
    for (const g of f.diagnostics) parts.push(`<tr><td>${g.count}</td><td>${escapeHtml(g.kind)}</td><td>${escapeHtml(g.text)}</td><td>${escapeHtml(g.frame ?? '')}</td><td>${escapeHtml(`${g.process} at ${formatMicros(g.firstUs)}`)}</td></tr>`);
    if (f.otherDiagnostics > 0) parts.push(`<tr><td>${f.otherDiagnostics}</td><td></td><td>other kinds or texts (not kept)</td><td></td><td></td></tr>`);
    parts.push('</tbody></table>');
  }
  return parts.join('\n');
}
