/**
 * User code that ends the own-code run worker's thread (process.exit, which in a worker thread
 * ends that thread) must not leave the caller waiting for an answer that never comes: the
 * worker's 'exit' path says so in shared memory, and the run fails with a user error
 * (ScenarioError: exit 2) naming the module and what it was running. The next run gets a new
 * worker.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runVariant } from '../../src/runner/run.js';
import { ScenarioError } from '../../src/scenario/errors.js';
import { oneRequestScenario } from './module-scenario.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function run(where: string) {
  const scenario = oneRequestScenario('exits', 'exits.mjs', `{ where: ${where} }`);
  return runVariant(scenario, scenario.variants[0]);
}

describe('a lock module that calls process.exit', () => {
  it('in acquire: the run fails with a user error naming the module, acquire and its key, the client and the simulated time', () => {
    let err: unknown;
    try {
      run('acquire');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    const message = (err as Error).message;
    expect(message).toContain(join(HERE, 'modules/exits.mjs'));
    expect(message).toMatch(/the own-code run worker ended \(exit code 3\) during acquire\("[^"]+"\) of client-1, at simulated time 1(\.0+)?s: user code must not call process\.exit/);
  });

  it('that never calls it runs to the end (in a new worker after the one that ended)', () => {
    expect(run('never').metrics.orders).toBe(1);
  });
});
