/**
 * Every process a real run starts is stopped: at the end, on Ctrl-C (SIGINT to lock-sim) and
 * on an error (real-run.test.ts); a missing redis-server is exit 2 with the install hint;
 * ports in use are never handed out.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { addressInUse, freePort, onFreePort } from '../../../src/backends/real/ports.js';
import { checkRedisServer, livePids, RedisProcess } from '../../../src/backends/real/processes.js';
import { RealBackendError } from '../../../src/backends/real/errors.js';
import { hasRedis, REDIS_SERVER } from './redis-available.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Alive and not a zombie (a killed child waits for its parent to collect it). */
function alive(pid: number): boolean {
  const r = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() !== '' && !r.stdout.trim().startsWith('Z');
}

function childrenOf(pid: number): number[] {
  const r = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
  return r.stdout.split('\n').filter((l) => l.trim() !== '').map(Number);
}

describe('redis-server processes', () => {
  it('a missing redis-server is refused with the install hint', () => {
    expect(() => checkRedisServer('/nonexistent/redis-server')).toThrow(RealBackendError);
    expect(() => checkRedisServer('/nonexistent/redis-server')).toThrow(/apt-get install -y redis-server/);
  });

  it('never hands out a port something listens on, nor one port twice', async () => {
    const held: Server[] = [];
    const heldPorts = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const s = createServer();
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      held.push(s);
      heldPorts.add((s.address() as { port: number }).port);
    }
    const given = new Set<number>();
    for (let i = 0; i < 50; i++) {
      const p = await freePort();
      expect(heldPorts.has(p)).toBe(false);
      expect(given.has(p)).toBe(false);
      given.add(p);
    }
    for (const s of held) s.close();
  });

  it('a port taken between the pick and the bind is tried again on another, and any other error is not', async () => {
    const tried: number[] = [];
    const inUse = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    const port = await onFreePort(async (p) => {
      tried.push(p);
      if (tried.length < 3) throw inUse;
    }, addressInUse);
    expect(tried.length).toBe(3);
    expect(port).toBe(tried[2]);
    expect(new Set(tried).size).toBe(3);
    await expect(onFreePort(async () => { throw new Error('EACCES'); }, addressInUse)).rejects.toThrow('EACCES');
  });

  it.skipIf(!hasRedis)('a server killed while it is still starting is stopped too', async () => {
    const port = await freePort();
    const p = new RedisProcess('early', REDIS_SERVER, { port, announcePort: port, replicaOf: null, persistent: false, replTimeoutS: 60, minReplicasToWrite: 0, minReplicasMaxLagS: 10 });
    const started = p.start().catch((err: unknown) => err);
    p.dispose();
    await started;
    expect(livePids()).toEqual([]);
  });

  it.skipIf(!hasRedis)('Ctrl-C (SIGINT) to lock-sim during a real run stops every redis-server and Sentinel it started', async () => {
    const child = spawn(process.execPath, ['bin/lock-sim.js', 'run', 'scenarios/real/failover-backlog-race.yaml', '--backend', 'redis'], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // 2 servers and 3 Sentinels.
    let servers: number[] = [];
    while (servers.length < 5) {
      await tick(50);
      servers = childrenOf(child.pid as number);
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    for (const pid of servers) {
      while (alive(pid)) await tick(50); // a hang here is the failure (vitest's hang limit)
    }
    expect(servers.filter(alive)).toEqual([]);
  });

  it.skipIf(!hasRedis)('SIGKILL of lock-sim (no exit hook runs) still ends every server it started; SIGTERM also removes their directories', async () => {
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      const child = spawn(process.execPath, ['bin/lock-sim.js', 'run', 'scenarios/real/failover-backlog-race.yaml', '--backend', 'redis'], { stdio: 'ignore' });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      let servers: number[] = [];
      while (servers.length < 5) {
        await tick(50);
        servers = childrenOf(child.pid as number);
      }
      // Each server runs in its own temporary directory (--dir, and Sentinel's `dir`).
      const dirs = servers.map((pid) => readlinkSync(`/proc/${pid}/cwd`));
      expect(dirs.every((d) => d.includes('lock-sim-'))).toBe(true);
      child.kill(signal);
      await exited;
      for (const pid of servers) {
        while (alive(pid)) await tick(50); // a hang here is the failure (vitest's hang limit)
      }
      if (signal === 'SIGTERM') expect(dirs.filter((d) => existsSync(d))).toEqual([]);
    }
  });

  it.skipIf(!hasRedis)('a run that ends normally leaves no process behind', async () => {
    const child = spawn(process.execPath, ['bin/lock-sim.js', 'run', 'scenarios/real/constant-value-del.yaml', '--backend', 'redis', '--variant', 'token+lua'], { stdio: 'ignore' });
    const seen = new Set<number>();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let done = false;
    void exited.then(() => (done = true));
    while (!done) {
      for (const pid of childrenOf(child.pid as number)) seen.add(pid);
      await tick(50);
    }
    expect(await exited).toBe(0);
    expect(seen.size).toBeGreaterThan(0);
    expect([...seen].filter(alive)).toEqual([]);
  });
});
