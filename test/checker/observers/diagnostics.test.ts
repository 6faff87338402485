/**
 * Failed and unknown requests by first error text, and the client processes' diagnostics by
 * kind and text, on hand-written histories with DiagnosticOps: each listing next to the
 * request or record that must not be listed.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import { MAX_GROUPS, NO_TEXT } from '../../../src/checker/observers/diagnostics.js';
import type { DiagnosticOp, NewOperation } from '../../../src/history/operation.js';
import { REFUSED_WHILE_FREE } from '../../../src/checker/observers/unexplained-refusals.js';
import { end, history, lockOp, requestOp, section, setup, type Entry } from '../histories.js';

const diagnostic = (process: string, kind: DiagnosticOp['kind'], detail: string, frame?: string): NewOperation => ({ process, type: 'info', f: 'diagnostic', kind, detail, frame });
/** A request whose acquire ends `type` with `detail`, then the request ends with `outcome` (null: never). */
function failing(id: string, at: number, type: 'fail' | 'info', detail: string | undefined, outcome: string | null): Entry[] {
  const entries: Entry[] = [[at, requestOp('invoke', id)], [at, lockOp('acquire', 'invoke', id)], [at + 10, lockOp('acquire', type, id, { detail })]];
  if (outcome !== null) entries.push([at + 20, requestOp('fail', id, { outcome })]);
  return entries;
}
const failuresOf = (entries: Entry[]) => checkHistory(history([[0, setup()], ...entries, [100_000, end()]])).failures;

describe('failed requests', () => {
  it('are grouped by their first error text and outcome, the largest group first', () => {
    const f = failuresOf([
      ...failing('r1', 100, 'fail', 'ERR syntax error (at locks/x.mjs:3:5)', 'lock-error'),
      ...failing('r2', 200, 'info', 'command timed out', 'lock-error'),
      ...failing('r3', 300, 'fail', 'ERR syntax error (at locks/x.mjs:3:5)', 'lock-error'),
      [400, requestOp('invoke', 'r4')],
      [400, { process: 'client-1/w1', type: 'fail', f: 'write-stock', request: 'r4', sku: 1, mode: 'deduct', qty: 1, detail: 'deadlock found' }],
      [410, { process: 'client-1/w1', type: 'fail', f: 'order', request: 'r4', sku: 1, qty: 1, orderKey: 'o4', detail: 'connection lost' }],
      [420, requestOp('fail', 'r4', { outcome: 'db-error' })],
    ]);
    expect(f.failed).toBe(4);
    expect(f.requests).toEqual([
      { outcome: 'lock-error', text: 'ERR syntax error (at locks/x.mjs:3:5)', count: 2, firstRequest: 'r1', firstUs: 120 },
      { outcome: 'lock-error', text: 'command timed out', count: 1, firstRequest: 'r2', firstUs: 220 },
      // The first text of r4, not its later one.
      { outcome: 'db-error', text: 'deadlock found', count: 1, firstRequest: 'r4', firstUs: 420 },
    ]);
  });
  it('leave out requests that were answered, "no" included, whatever their operations said', () => {
    const f = failuresOf([
      ...section('r0', 50, 150, 'client-2/w1'),
      ...failing('r1', 100, 'fail', 'lock is held by r0', 'lock-busy'),
      ...failing('r2', 200, 'fail', 'ERR syntax error', 'sold-out'),
      [300, requestOp('invoke', 'r3')],
      [320, requestOp('ok', 'r3', { outcome: 'ordered' })],
    ]);
    expect(f).toEqual({ failed: 0, refusedWhileFree: 0, requests: [], otherRequests: 0, diagnostics: [], otherDiagnostics: 0 });
  });
  it('list a "lock busy" no holder explains with the failures, by what the lock said', () => {
    const f = failuresOf([
      ...section('r0', 50, 150, 'client-2/w1'),
      // Refused after r0's release was answered, and again with nobody working under the lock.
      ...failing('r1', 160, 'fail', 'lock is held by r0', 'lock-busy'),
      ...failing('r2', 300, 'fail', 'lock is held by r0', 'lock-busy'),
      ...failing('r3', 400, 'fail', undefined, 'lock-busy'),
    ]);
    expect([f.failed, f.refusedWhileFree]).toEqual([3, 3]);
    expect(f.requests).toEqual([
      { outcome: 'lock-busy', text: `${REFUSED_WHILE_FREE}: lock is held by r0`, count: 2, firstRequest: 'r1', firstUs: 180 },
      { outcome: 'lock-busy', text: REFUSED_WHILE_FREE, count: 1, firstRequest: 'r3', firstUs: 420 },
    ]);
  });
  it('without an error text are described by how they ended', () => {
    const f = failuresOf([
      [100, requestOp('invoke', 'r1')],
      [100, requestOp('fail', 'r1', { outcome: 'unavailable' })],
      [200, requestOp('invoke', 'r2')],
      [250, requestOp('info', 'r2')],
      [300, requestOp('invoke', 'r3')],
    ]);
    expect(f.requests.map((g) => [g.outcome, g.text, g.firstUs])).toEqual([
      ['unavailable', NO_TEXT.unavailable, 100],
      ['unknown', NO_TEXT.lost, 250],
      ['unknown', NO_TEXT.running, 100_000],
    ]);
  });
  it("keep a text's first line, and count texts beyond MAX_GROUPS without keeping them", () => {
    const entries: Entry[] = [];
    for (let i = 0; i < MAX_GROUPS + 5; i++) entries.push(...failing(`r${i + 1}`, 100 * (i + 1), 'fail', `ERR no such key k${i}\n  at stack line`, 'lock-error'));
    const f = failuresOf(entries);
    expect([f.failed, f.requests.length, f.otherRequests]).toEqual([MAX_GROUPS + 5, MAX_GROUPS, 5]);
    expect(f.requests[0].text).toBe('ERR no such key k0');
  });
});

describe('diagnostics', () => {
  it('are grouped by kind, text and frame, with the first process and time', () => {
    const f = failuresOf([
      [100, diagnostic('client-1', 'uncaught', 'TypeError: x is undefined', 'locks/x.mjs:12:5')],
      [200, diagnostic('client-2', 'uncaught', 'TypeError: x is undefined', 'locks/x.mjs:12:5')],
      [300, diagnostic('client-1', 'uncaught', 'TypeError: x is undefined', 'locks/x.mjs:40:1')],
      [400, diagnostic('client-2', 'refused-call', 'child_process.exec is not available in a lock module')],
      [500, diagnostic('client-2', 'watchdog-stop', 'renewal loop stopped: ERR unknown command')],
      [600, diagnostic('client-2', 'watchdog-stop', 'renewal loop stopped: ERR unknown command')],
      [700, diagnostic('client-1', 'unhandled-rejection', 'Error: socket closed')],
    ]);
    expect(f.diagnostics).toEqual([
      { kind: 'uncaught', text: 'TypeError: x is undefined', frame: 'locks/x.mjs:12:5', count: 2, process: 'client-1', firstUs: 100 },
      { kind: 'watchdog-stop', text: 'renewal loop stopped: ERR unknown command', frame: null, count: 2, process: 'client-2', firstUs: 500 },
      { kind: 'uncaught', text: 'TypeError: x is undefined', frame: 'locks/x.mjs:40:1', count: 1, process: 'client-1', firstUs: 300 },
      { kind: 'refused-call', text: 'child_process.exec is not available in a lock module', frame: null, count: 1, process: 'client-2', firstUs: 400 },
      { kind: 'unhandled-rejection', text: 'Error: socket closed', frame: null, count: 1, process: 'client-1', firstUs: 700 },
    ]);
    // Diagnostics fail no request and break nothing.
    const r = checkHistory(history([[0, setup()], [100, diagnostic('client-1', 'uncaught', 'boom')], [200, end()]]));
    expect([r.failures.failed, r.violations, r.metrics.liveness.verdict]).toEqual([0, [], 'LIVE']);
  });
  it('beyond MAX_GROUPS distinct ones are counted, not kept', () => {
    const entries: Entry[] = Array.from({ length: MAX_GROUPS + 3 }, (_, i): Entry => [100 + i, diagnostic('client-1', 'uncaught', `Error ${i}`)]);
    const f = failuresOf(entries);
    expect([f.diagnostics.length, f.otherDiagnostics]).toEqual([MAX_GROUPS, 3]);
  });
});
