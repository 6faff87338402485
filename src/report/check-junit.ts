/**
 * `check --reporter junit`: JUnit XML as CI systems read it (Jenkins, GitLab, GitHub
 * actions that publish test reports): a testsuite per scenario file, a testcase per
 * expectation, a <failure> with the measured value and the replay command. No timestamps
 * or durations: the same check prints the same bytes.
 */
import type { ScenarioCheck } from '../sweep/check-scenario.js';
import { formatMeasured, IMPLICIT_HINT, IMPLICIT_NOTE, noExpectations } from './check-text.js';

/**
 * Characters XML 1.0 does not allow anywhere, even escaped (W3C XML 1.0, 2.2 Characters:
 * Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]): C0
 * controls but tab, LF and CR, U+FFFE, U+FFFF, and halves of a surrogate pair.
 */
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escaped for an attribute or text; what XML cannot carry becomes U+FFFD, so the file still parses. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '\uFFFD')
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/** A scenario with no expectations is one test case: failed, or skipped with --pass-with-no-expectations. */
const emptyCases = (c: ScenarioCheck): number => (c.empty ? 1 : 0);
const emptyFailures = (c: ScenarioCheck): number => (c.empty && !c.passed ? 1 : 0);

export function renderJunit(checks: readonly ScenarioCheck[]): string {
  const tests = checks.reduce((n, c) => n + c.expectations.length + emptyCases(c), 0);
  const failures = checks.reduce((n, c) => n + c.expectations.filter((e) => !e.passed).length + emptyFailures(c), 0);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="lock-sim check" tests="${tests}" failures="${failures}" errors="0">`];
  for (const c of checks) {
    const f = c.expectations.filter((e) => !e.passed).length + emptyFailures(c);
    const skipped = c.empty && c.passed ? 1 : 0;
    lines.push(`  <testsuite name="${escapeXml(c.scenario.file)}" tests="${c.expectations.length + emptyCases(c)}" failures="${f}" errors="0" skipped="${skipped}">`);
    if (c.empty) {
      const open = `    <testcase classname="${escapeXml(c.scenario.name)}" name="no expectations"`;
      lines.push(`${open}>`, c.passed ? '      <skipped/>' : `      <failure message="${escapeXml(noExpectations(c))}" type="no-expectations">${escapeXml(c.scenario.file)}</failure>`, '    </testcase>');
    }
    for (const e of c.expectations) {
      const name = `${e.expectation.variant}: ${e.expectation.text}${e.implicit ? ' (implicit)' : ''}`;
      const open = `    <testcase classname="${escapeXml(c.scenario.name)}" name="${escapeXml(name)}"`;
      if (e.passed) {
        lines.push(`${open}/>`);
        continue;
      }
      const message = `measured ${formatMeasured(e)}${e.expectation.statistic === 'run' && e.runs > 1 ? ` (failed in ${e.failedRuns} of ${e.runs} runs)` : ''}${e.implicit ? `; ${IMPLICIT_NOTE}; ${IMPLICIT_HINT}` : ''}`;
      lines.push(`${open}>`);
      lines.push(`      <failure message="${escapeXml(message)}" type="expectation">${escapeXml(`${e.expectation.location}\nreplay: ${e.replay ?? '-'}`)}</failure>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n');
}
