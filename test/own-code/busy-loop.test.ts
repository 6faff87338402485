/**
 * User code that never returns control (a busy loop on the simulated clock, or a wait on real
 * I/O) is stopped by the watchdog and reported as a user error (ScenarioError: exit 2) that
 * names the module, what it was running, the client and the simulated time. The watchdog is
 * lowered here to keep the test fast; the thread it ends is replaced for the next run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserCodeWatchdogMs, USER_CODE_WATCHDOG_MS } from '../../src/own-code/user-thread.js';
import { runSimulated } from '../../src/backends/default-backend.js';
import { ScenarioError } from '../../src/spec/errors.js';
import { oneRequestScenario } from './module-scenario.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function run(options: string) {
  const scenario = oneRequestScenario('busy', 'busy.mjs', options);
  return () => runSimulated(scenario, scenario.variants[0]);
}

function failure(options: string): ScenarioError {
  try {
    run(options)();
  } catch (err) {
    if (err instanceof ScenarioError) return err;
    throw err;
  }
  throw new Error('the run finished');
}

describe('a lock module that never returns control', () => {
  let previous = USER_CODE_WATCHDOG_MS;
  beforeAll(() => {
    previous = setUserCodeWatchdogMs(500);
  });
  afterAll(() => {
    setUserCodeWatchdogMs(previous);
  });

  it('spinning in acquire: a user error naming the module, acquire and its key, the client and the simulated time', () => {
    const err = failure('{ where: acquire }');
    expect(err.message).toContain(join(HERE, 'modules/busy.mjs'));
    expect(err.message).toMatch(/acquire\("[^"]+"\) of client-1 did not return control within 0.5 s of real time, at simulated time 1(\.0+)?s: a busy loop/);
  });

  it('spinning in a timer callback: names the timer', () => {
    const err = failure('{ where: timer }');
    expect(err.message).toMatch(/a timer callback \(setTimeout\/setInterval\) of client-1 did not return control .* at simulated time 1\.1/);
  });

  it('spinning after a reply: names the reply continuation', () => {
    expect(failure('{ where: reply }').message).toContain('the code a command reply resumed of client-1 did not return control');
  });

  it('a module that spins a while and returns runs to the end (and the thread the watchdog ended was replaced)', () => {
    const r = run('{ where: acquire, spins: 1000 }')();
    expect(r.metrics.orders).toBe(1);
  });
});

describe('lock-sim run with a module that spins in acquire (the built CLI)', () => {
  it('exits 2 with the message, the watchdog set by LOCK_SIM_USER_CODE_WATCHDOG_MS', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-sim-busy-'));
    const file = join(dir, 'busy.yaml');
    writeFileSync(file, `# a lock module that spins in acquire
name: busy
seed: 1
duration: 2s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }] }
variants:
  v: { lock: { module: ${JSON.stringify(join(HERE, 'modules/busy.mjs'))}, options: { where: acquire } } }
`);
    const r = spawnSync(process.execPath, ['bin/lock-sim.js', 'run', file], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', LOCK_SIM_USER_CODE_WATCHDOG_MS: '500' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/busy\.mjs: acquire\("[^"]+"\) of client-1 did not return control within 0\.5 s of real time/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
