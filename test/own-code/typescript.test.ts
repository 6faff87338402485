/**
 * TypeScript lock modules (src/own-code/typescript.ts): `.ts`, `.mts` and `.cts` load with
 * their types stripped (amaro, positions kept), imports of `./x.js` find x.ts, and errors are
 * located in the .ts file: a throw in acquire at its line and column, an enum refused where it
 * stands. Next to it, the same lock's correct run.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { parseScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/spec/errors.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function scenario(lock: string) {
  return parseScenario(`
name: typescript
seed: 1
duration: 5s
stock: { sku: 1, available: 100 }
workload: { clients: 2, workers: 2, users: 4, think: 50ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 20ms }
variants:
  v: { lock: ${lock}, lease: 2s }
`, join(HERE, 'typescript.yaml'));
}

describe('a TypeScript lock module', () => {
  it('runs: its types stripped, ./token.js found as token.ts, a .cts required', () => {
    const s = scenario('{ module: ./modules/ts/token-lock.ts }');
    const r = runSimulated(s, s.variants[0]);
    expect(r.metrics.orders).toBeGreaterThan(20);
    expect(r.metrics.doubleHolders).toBe(0);
    expect(r.history.filter((o) => o.f === 'acquire' && o.type === 'fail' && 'detail' in o && o.detail && o.detail !== 'held by another').map((o) => ('detail' in o ? o.detail : ''))).toEqual([]);
  });

  it('fails a request with its error located in the .ts file', () => {
    const s = scenario('{ module: ./modules/ts/token-lock.ts, options: { fail: true } }');
    const r = runSimulated(s, s.variants[0]);
    const op = r.history.find((o) => o.f === 'acquire' && o.type === 'fail');
    expect(op && 'detail' in op ? op.detail : '').toBe('Error: refused [lock:stock:1] (at modules/ts/token-lock.ts:17:23)');
  });

  it('refuses an enum at its line and column, exit-2 style, without a stack', () => {
    let message = '';
    try {
      scenario('{ module: ./modules/ts/enum-lock.mts }');
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioError);
      message = (err as Error).message;
    }
    expect(message).toContain('TypeScript that needs a transform, not just its types stripped: TypeScript enum is not supported in strip-only mode (at modules/ts/enum-lock.mts:3:3)');
    expect(message).not.toMatch(/\n\s+at /);
  });
});
