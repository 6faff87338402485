/**
 * The caller picks where a run executes (src/backends): a user lock module's variant in the
 * user-code worker, a built-in protocol's in-process; the runner never redirects itself.
 */
import { describe, expect, it } from 'vitest';
import { backendFor, runSimulated } from '../../src/backends/default-backend.js';
import { inProcess } from '../../src/backends/in-process.js';
import { userCodeWorker } from '../../src/backends/user-code-worker.js';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';

describe('the default backend of a variant', () => {
  const scenario = loadScenario('scenarios/own-code/twin-lua-unlock.yaml');
  const module = scenario.variants.find((v) => v.lockModule !== undefined)!;
  const builtin = scenario.variants.find((v) => v.lockModule === undefined)!;

  it('is the user-code worker for a lock module, in-process for a built-in lock', () => {
    expect(backendFor(module)).toBe(userCodeWorker);
    expect(backendFor(builtin)).toBe(inProcess);
  });

  it('runs a lock module in the worker, with the result the worker thread gets in-process', () => {
    const run = runSimulated(scenario, module, 2, { history: 'none' });
    expect(run.variant).toBe(module);
    expect(run.events).toBeGreaterThan(0);
    expect(userCodeWorker.run(scenario, module, 2, { history: 'none' }).metrics).toEqual(run.metrics);
  });

  it('runs a built-in lock in this thread, as the runner does', () => {
    expect(runSimulated(scenario, builtin, 3, { history: 'none' }).metrics).toEqual(runVariant(scenario, builtin, 3, { history: 'none' }).metrics);
  });

  it('leaves a lock module to its caller: the runner runs it in this thread, which cannot run user code', () => {
    expect(() => inProcess.run(scenario, module, 1, { history: 'none' })).toThrow(/lock-sim/);
  });
});
