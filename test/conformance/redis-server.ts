/**
 * Starts a real redis-server for the conformance suite: on a free loopback port, without
 * persistence (no RDB snapshots, no AOF), and stops it afterwards. Where no redis-server is
 * installed the suite is skipped with a message, except under CI (CI set), where that fails:
 * .ci/run installs Debian's redis-server package.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { RespClient } from './resp.js';

/** The redis-server executable: LOCK_SIM_REDIS_SERVER if set, else on PATH (or /usr/bin); null if none. */
export function findRedisServer(): string | null {
  const chosen = process.env.LOCK_SIM_REDIS_SERVER;
  if (chosen !== undefined) return existsSync(chosen) ? chosen : null;
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  for (const dir of dirs) {
    const path = join(dir, 'redis-server');
    if (dir !== '' && existsSync(path)) return path;
  }
  return null;
}

/** Whether this is a CI run (CI=true, as test/report/html-browser.test.ts reads it): then a missing redis-server fails. */
export const inCi = (): boolean => process.env.CI === 'true';

/** The notice printed when the conformance suite is skipped, or null when it runs. */
export function redisServerSkipNotice(): string | null {
  if (findRedisServer() !== null || inCi()) return null;
  return 'NOTICE: no redis-server found: the Redis conformance suite (test/conformance/) is SKIPPED. Install Redis 7 (Debian: apt-get install redis-server; .ci/run does); with CI=true a missing server fails the run.';
}

export interface RunningServer {
  port: number;
  version: string;
  client: RespClient;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function connectWhenUp(port: number, child: ChildProcess): Promise<RespClient> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode} before it answered`);
    try {
      const client = await RespClient.connect(port);
      if ((await client.send(['PING'])) === 'PONG') return client;
      client.close();
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not answer PING on 127.0.0.1:${port}`);
}

export async function startRedisServer(executable: string): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(
    executable,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning', '--dir', tmpdir()],
    { stdio: 'ignore' },
  );
  const client = await connectWhenUp(port, child);
  const info = String(await client.send(['INFO', 'server']));
  const version = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  return {
    port,
    version,
    client,
    stop: () =>
      new Promise<void>((resolve) => {
        client.close();
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
