/**
 * Each own-code run starts as in a fresh vm context (src/own-code/user-code.ts): module-level
 * state of the lock module and of the CommonJS packages it imports starts over in every run,
 * while within a run it is kept; so does what user code set on the context's global object or
 * built-ins (such a context is not kept for the next run). CommonJS require cycles see the partial exports, JSON loads; an
 * unhandled rejection is recorded in the history.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function scenario(options = '{}') {
  return parseScenario(`
name: context
seed: 1
duration: 5s
drain: 5s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }, { at: 2s, sku: 1, client: 1 }] }
network: { redis-latency: 1ms }
variants:
  v: { lock: { module: ./modules/stateful.mjs, options: ${options} } }
`, join(HERE, 'context.yaml'));
}

interface Seen { moduleCalls: number; pkgCalls: number; sawEarly: string; version: string; marked?: number }

function seen(options?: string): { reports: Seen[]; history: ReturnType<typeof runSimulated>['history'] } {
  const s = scenario(options);
  const r = runSimulated(s, s.variants[0], 1);
  const reports = r.history
    .filter((o) => o.f === 'acquire' && o.type === 'fail')
    .map((o) => {
      const detail = 'detail' in o ? String(o.detail) : '';
      return JSON.parse(detail.slice(detail.indexOf('RESULTS ') + 8).replace(/ \(at [^)]*\)$/, '')) as Seen;
    });
  return { reports, history: r.history };
}

describe('a fresh context per run', () => {
  it('keeps module-level state within a run: the second acquire sees counters of 2', () => {
    const { reports } = seen();
    expect(reports.map((r) => [r.moduleCalls, r.pkgCalls])).toEqual([[1, 1], [2, 2]]);
  });

  it('starts module-level state over in the next run, in the module and in the package it imports', () => {
    // The second and third runs get the context the first left unchanged (context-watch.ts), with new module instances.
    seen();
    const { reports } = seen();
    expect(reports[0]).toMatchObject({ moduleCalls: 1, pkgCalls: 1 });
    expect(seen().reports.map((r) => [r.moduleCalls, r.pkgCalls])).toEqual([[1, 1], [2, 2]]);
  });

  it('starts over a property user code set on the global object: each run sees it unset at its first acquire', () => {
    // The run worker keeps a context for the module's next run only when user code changed
    // none of its shared objects (src/own-code/context-watch.ts); this one did.
    const runs = [seen("{ mark: 'global' }"), seen("{ mark: 'global' }"), seen("{ mark: 'global' }")]
    expect(runs.map((r) => r.reports.map((x) => x.marked))).toEqual([[0, 1], [0, 1], [0, 1]]);
  });

  it('... and one set on a built-in constructor (Error)', () => {
    const runs = [seen("{ mark: 'Error' }"), seen("{ mark: 'Error' }")];
    expect(runs.map((r) => r.reports.map((x) => x.marked))).toEqual([[0, 1], [0, 1]]);
  });

  it('loads CommonJS as Node does: a require cycle sees the partial exports, JSON loads', () => {
    const { reports } = seen();
    expect(reports[0]).toMatchObject({ sawEarly: 'set before the cycle', version: '1.0.0' });
  });
});

describe('unhandled rejections in user code', () => {
  it('are recorded in the history at the call that left them', () => {
    const { history } = seen('{ unhandled: true }');
    const unhandled = history.filter((o) => o.f === 'diagnostic' && o.kind === 'unhandled-rejection');
    expect(unhandled.map((o) => 'detail' in o && o.detail)).toEqual(['Error: left unhandled', 'Error: left unhandled']);
    expect(unhandled.map((o) => o.f === 'diagnostic' && o.frame)).toEqual(['modules/stateful.mjs:21:37', 'modules/stateful.mjs:21:37']);
  });

  it('... and none is recorded when every rejection is handled', () => {
    const { history } = seen();
    expect(history.filter((o) => o.f === 'diagnostic')).toEqual([]);
  });
});
