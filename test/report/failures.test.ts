/**
 * The liveness verdict and the failures listing in every report of a run: text, Markdown,
 * JSON and HTML, on never-sells.yaml (a lock every write of which is refused) beside the
 * variant that sells, and a run's diagnostics as a lock module would record them.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { Failures } from '../../src/checker/observers/diagnostics.js';
import { runScenario } from '../../src/backends/run-scenario.js';
import { loadScenario } from '../../src/scenario/load.js';
import { failureLines } from '../../src/report/failures-text.js';
import { failuresHtml } from '../../src/report/html-failures.js';
import { renderRunHtml } from '../../src/report/html.js';
import { resultToJson } from '../../src/report/json.js';
import { renderRunMarkdown } from '../../src/report/markdown.js';
import { renderRun } from '../../src/report/text.js';

const plain = new Chalk({ level: 0 });
const result = runScenario(loadScenario('scenarios/never-sells.yaml'));
const NOREPLICAS = 'NOREPLICAS Not enough good replicas to write.';

describe('a variant that never sells', () => {
  it('is UNAVAILABLE in the text report, with its cause and its error text; the one that sells is SAFE and lists nothing', () => {
    const text = renderRun(result, plain);
    const row = (name: string) => text.split('\n').find((l) => l.startsWith(`│ ${name} `)) ?? '';
    expect(row('lua')).toContain('UNAVAILABLE');
    expect(row('guard-only')).toContain('SAFE');
    expect(text).toMatch(/lua: UNAVAILABLE: 100\.0% of the \d+ requests in the run \(no fault\) failed or got no answer; most often \(\d+ of \d+, lock-error\): NOREPLICAS/);
    expect(text).toContain(`lock-error  ${NOREPLICAS}`);
    expect(text).not.toContain('guard-only: UNAVAILABLE');
    expect(text).not.toContain('guard-only: 0 requests failed');
  });
  it('says so in JSON: verdict, safety and liveness apart, the figures, and the failures by text', () => {
    const json = resultToJson(result) as { variants: Array<Record<string, any>> };
    const [lua, guard] = json.variants;
    expect([lua.verdict, lua.safety, lua.liveness, lua.broken]).toEqual(['UNAVAILABLE', 'SAFE', 'UNAVAILABLE', ['availability (most requests failed)']]);
    expect(lua.metrics.liveness).toMatchObject({ verdict: 'UNAVAILABLE', failedShare: 1, judgedFromUs: 0 });
    expect(lua.failures.requests[0]).toMatchObject({ outcome: 'lock-error', text: NOREPLICAS, count: lua.metrics.requests });
    expect([guard.verdict, guard.liveness, guard.failures.failed]).toEqual(['SAFE', 'LIVE', 0]);
  });
  it('says so in Markdown and HTML', () => {
    const md = renderRunMarkdown(result);
    expect(md).toContain('| **UNAVAILABLE** |');
    expect(md).toContain('- lua: **UNAVAILABLE**: 100.0% of the');
    expect(md).toContain(NOREPLICAS);
    const html = renderRunHtml(result, {});
    expect(html).toContain('<td class="UNAVAILABLE">UNAVAILABLE</td>');
    expect(html).toContain('<td class="LIVE">LIVE</td>');
    expect(html).toContain(`<td>lock-error</td><td>${NOREPLICAS}</td>`);
  });
});

describe('diagnostics', () => {
  const f: Failures = {
    failed: 0,
    refusedWhileFree: 0,
    requests: [],
    otherRequests: 0,
    diagnostics: [
      { kind: 'uncaught', text: 'TypeError: <x> is undefined', frame: 'locks/x.mjs:12:5', count: 3, process: 'client-1', firstUs: 1_500_000 },
      { kind: 'refused-call', text: 'child_process.exec is not available', frame: null, count: 1, process: 'client-2', firstUs: 2_000_000 },
    ],
    otherDiagnostics: 2,
  };
  it('are listed by kind and text in the text report, the others counted', () => {
    expect(failureLines('mod', f)).toEqual([
      '  mod: 6 diagnostics from its client processes',
      '         3  uncaught            TypeError: <x> is undefined (at locks/x.mjs:12:5)  (first client-1 at 1.5s)',
      '         1  refused-call        child_process.exec is not available  (first client-2 at 2s)',
      '         2  with other kinds or texts (--json lists them)',
    ]);
    expect(failureLines('quiet', { ...f, diagnostics: [], otherDiagnostics: 0 })).toEqual([]);
  });
  it('count the "lock busy" answers nobody held the lock for among the failed requests, and say so', () => {
    const refused = { outcome: 'lock-busy' as const, text: '"lock busy" while nobody held the lock: held by another', count: 5, firstRequest: 'r2', firstUs: 900_000 };
    const lost = { outcome: 'unknown' as const, text: 'lost with its client process (killed)', count: 1, firstRequest: 'r1', firstUs: 100_000 };
    const quiet = { ...f, diagnostics: [], otherDiagnostics: 0 };
    expect(failureLines('delex', { ...quiet, failed: 6, refusedWhileFree: 5, requests: [refused, lost] })).toEqual([
      '  delex: 6 requests failed, got no answer or were refused "lock busy" while nobody held the lock (5)',
      '         5  lock-busy   "lock busy" while nobody held the lock: held by another  (first r2 at 900ms)',
      '         1  unknown     lost with its client process (killed)  (first r1 at 100ms)',
    ]);
    expect(failureLines('lua', { ...quiet, failed: 1, requests: [lost] })[0]).toBe('  lua: 1 request failed or got no answer');
  });
  it('are escaped in HTML', () => {
    const html = failuresHtml(f);
    expect(html).toContain('<td>TypeError: &lt;x&gt; is undefined</td><td>locks/x.mjs:12:5</td>');
    expect(html).toContain('Diagnostics of the client processes (6)');
    expect(failuresHtml({ ...f, diagnostics: [], otherDiagnostics: 0 })).toBe('');
  });
});
