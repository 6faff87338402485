/**
 * A lock module that fills the heap ends the run with its own message (exit 2, no stack): the
 * run worker runs under a heap limit (LOCK_SIM_USER_CODE_HEAP_MB, 64 MB here) set by its
 * supervisor, which tells the waiting thread at once, instead of the busy-loop watchdog after
 * 60 s. A module that allocates and lets go runs to the end under the same limit.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));

function cli(module: string): { status: number; stdout: string; stderr: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'lock-sim-heap-')), 'heap.yaml');
  writeFileSync(file, `name: heap\nseed: 1\nduration: 2s\nstock: { sku: 1, available: 10 }\nworkload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }] }\nvariants:\n  v: { lock: { module: ${JSON.stringify(join(HERE, 'modules', module))} } }\n`);
  try {
    const stdout = execFileSync('node', ['bin/lock-sim.js', 'run', file], { encoding: 'utf8', env: { ...process.env, LOCK_SIM_USER_CODE_HEAP_MB: '64' } });
    return { status: 0, stdout, stderr: '' };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { status: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('a lock module that fills the heap', () => {
  it('ends the run with exit 2 and a message naming the module, what ran and the limit, without a stack', () => {
    const r = cli('fills-heap.mjs');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/fills-heap\.mjs: ran out of memory during acquire\("lock:stock:1"\) of client-1, at simulated time 1(\.0+)?s: the run worker's heap limit is 64 MB/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('... while a module that lets go of what it allocates runs to the end under the same limit', () => {
    const r = cli('refresh-lock.mjs');
    expect(r.status).toBe(0);
  });
});
