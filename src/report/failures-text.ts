/** The failed and unknown requests by first error text, and the diagnostics by kind and text (checker/observers/diagnostics.ts), as lines of the run report. */
import type { Failures } from '../checker/observers/diagnostics.js';
import { formatMicros } from '../engine/time.js';

/** Groups shown per list in a terminal; JSON and HTML show every group kept. */
const SHOWN_GROUPS = 3;

/** A variant's lines (none when nothing failed and nothing was reported). */
export function failureLines(variant: string, f: Failures): string[] {
  const out: string[] = [];
  if (f.failed > 0) {
    const how = f.refusedWhileFree > 0 ? `failed, got no answer or were refused "lock busy" while nobody held the lock (${f.refusedWhileFree})` : 'failed or got no answer';
    out.push(`  ${variant}: ${f.failed} request${f.failed === 1 ? '' : 's'} ${how}`);
    for (const g of f.requests.slice(0, SHOWN_GROUPS)) out.push(`    ${String(g.count).padStart(6)}  ${g.outcome.padEnd(11)} ${g.text}  (first ${g.firstRequest} at ${formatMicros(g.firstUs)})`);
    const more = f.requests.slice(SHOWN_GROUPS).reduce((n, g) => n + g.count, 0) + f.otherRequests;
    if (more > 0) out.push(`    ${String(more).padStart(6)}  with other texts (--json lists them)`);
  }
  const reported = f.diagnostics.reduce((n, g) => n + g.count, 0) + f.otherDiagnostics;
  if (reported > 0) {
    out.push(`  ${variant}: ${reported} diagnostic${reported === 1 ? '' : 's'} from its client processes`);
    for (const g of f.diagnostics.slice(0, SHOWN_GROUPS)) {
      out.push(`    ${String(g.count).padStart(6)}  ${g.kind.padEnd(19)} ${g.text}${g.frame ? ` (at ${g.frame})` : ''}  (first ${g.process} at ${formatMicros(g.firstUs)})`);
    }
    const more = f.diagnostics.slice(SHOWN_GROUPS).reduce((n, g) => n + g.count, 0) + f.otherDiagnostics;
    if (more > 0) out.push(`    ${String(more).padStart(6)}  with other kinds or texts (--json lists them)`);
  }
  return out;
}
