/**
 * process.exit in a lock module is refused (sandbox/process.ts): it throws in user code and is
 * recorded as a refused call, naming the call and the file; the simulation goes on. A
 * neighbour that never calls it orders.
 */
import { describe, expect, it } from 'vitest';
import { runSimulated } from '../../src/backends/default-backend.js';
import { oneRequestScenario } from './module-scenario.js';

function run(where: string) {
  const scenario = oneRequestScenario('exits', 'exits.mjs', `{ where: ${where} }`);
  return runSimulated(scenario, scenario.variants[0]);
}

describe('a lock module that calls process.exit', () => {
  it('in acquire: the call is refused, that request fails with the refusal, and the refusal is recorded', () => {
    const r = run('acquire');
    const failed = r.history.filter((o) => o.f === 'acquire' && o.type === 'fail');
    expect(failed.map((o) => ('detail' in o ? o.detail : ''))).toEqual([
      'Error: lock-sim refused node:process exit() (called at modules/exits.mjs:6:40): a lock module must not end the process that runs the simulation; throw or reject instead',
    ]);
    expect(r.history.filter((o) => o.f === 'diagnostic')).toMatchObject([{ kind: 'refused-call', process: 'client-1', frame: 'modules/exits.mjs:6:40' }]);
  });

  it('that never calls it runs to the end', () => {
    expect(run('never').metrics.orders).toBe(1);
  });
});
