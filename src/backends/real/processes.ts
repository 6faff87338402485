/**
 * The redis-server and redis-sentinel processes of a real run. Every process started is
 * registered; a process-wide hook kills them (SIGKILL, which also ends a SIGSTOPped one) and
 * removes their temporary directories on exit, on SIGINT/SIGTERM/SIGHUP and on an uncaught
 * error, so a run never leaves a server or a directory behind. Even lock-sim's own SIGKILL
 * (which runs no hook) leaves no server: each is started under `setpriv --pdeathsig KILL`
 * (util-linux), so the kernel kills it when the thread that started it dies (Linux
 * prctl(2) PR_SET_PDEATHSIG); setpriv execs the server, so the pid lock-sim signals
 * (SIGSTOP, SIGCONT, SIGKILL) is the server's own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INSTALL_HINT, RealBackendError } from './errors.js';

const live = new Set<ChildProcess>();
/** Temporary directories of the processes not yet disposed (removed by the exit hook too). */
const dirs = new Set<string>();
let hooked = false;

/** Whether a start failed because its port was taken meanwhile (redis 7.0.15 server.c listenToPort: "bind: Address already in use"). */
export function portTaken(err: unknown): boolean {
  return /Address already in use/.test(String(err));
}

function killAllNow(): void {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

/** A temporary directory for one process, registered for the exit hook. */
function tempDir(name: string): string {
  hookExit();
  const dir = mkdtempSync(join(tmpdir(), `lock-sim-${name}-`));
  dirs.add(dir);
  return dir;
}

function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

/** Whether util-linux setpriv with --pdeathsig runs here (checked once). */
let pdeathsig: boolean | null = null;
function hasPdeathsig(): boolean {
  if (pdeathsig === null) {
    const r = spawnSync('setpriv', ['--pdeathsig', 'KILL', 'true'], { stdio: 'ignore' });
    pdeathsig = r.status === 0;
  }
  return pdeathsig;
}

/** Installs the exit, signal and crash hooks once per Node process. */
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      killAllNow();
      // 128 + signal number, as a shell reports a process ended by it.
      process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 129);
    });
  }
}

/** The pids of the processes this Node process started and has not stopped (tests). */
export function livePids(): number[] {
  return [...live].map((c) => c.pid ?? -1);
}

export { checkRedisServer } from './redis-binary.js';

interface ServerOptions {
  port: number;
  /** Port this node announces to its primary (its proxy), so Sentinel reaches it through the proxy. */
  announcePort: number;
  replicaOf: number | null;
  /** AOF with fsync always (a restart keeps the data) rather than no persistence. */
  persistent: boolean;
  replTimeoutS: number;
  minReplicasToWrite: number;
  minReplicasMaxLagS: number;
}

export class RedisProcess {
  child: ChildProcess | null = null;
  readonly dir: string;

  constructor(
    readonly name: string,
    private readonly binary: string,
    readonly options: ServerOptions,
  ) {
    this.dir = tempDir(name);
  }

  /** Starts the server and resolves once it accepts connections. */
  async start(): Promise<void> {
    const o = this.options;
    // redis.conf 7.0 directives given as arguments; `save ""` with appendonly no is Redis
    // without persistence (redis.io "Redis persistence"). A diskless sync without its 5 s
    // wait for more replicas (redis.conf 7.0 repl-diskless-sync-delay 5) lets replicas sync
    // before the run begins rather than 5 s into it.
    const args = [
      '--port', String(o.port), '--bind', '127.0.0.1', '--protected-mode', 'no', '--daemonize', 'no',
      '--dir', this.dir, '--save', '', '--appendonly', o.persistent ? 'yes' : 'no', '--appendfsync', 'always',
      '--replica-announce-ip', '127.0.0.1', '--replica-announce-port', String(o.announcePort),
      '--repl-timeout', String(o.replTimeoutS), '--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0',
      '--min-replicas-to-write', String(o.minReplicasToWrite), '--min-replicas-max-lag', String(o.minReplicasMaxLagS),
      '--loglevel', 'notice',
    ];
    if (o.replicaOf !== null) args.push('--replicaof', '127.0.0.1', String(o.replicaOf));
    // The child is ours from the moment it exists: a stop during its start kills it too.
    await startProcess(this.binary, args, this.dir, /Ready to accept connections/, this.name, (child) => (this.child = child));
  }

  /** kill -9. */
  kill(): void {
    const child = this.child;
    this.child = null;
    if (!child) return;
    child.kill('SIGKILL');
    live.delete(child);
  }

  /** Deletes the data files, so the next start comes up empty. */
  wipe(): void {
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
  }

  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  get running(): boolean {
    return this.child !== null;
  }

  dispose(): void {
    this.kill();
    removeDir(this.dir);
  }
}

interface SentinelOptions {
  port: number;
  primaryPort: number;
  quorum: number;
  downAfterMs: number;
  failoverTimeoutMs: number;
}

/** One redis-sentinel with its own config file (Sentinel rewrites it, redis.io "High availability with Redis Sentinel"). */
export class SentinelProcess {
  child: ChildProcess | null = null;
  private readonly dir: string;

  constructor(
    readonly name: string,
    private readonly binary: string,
    readonly options: SentinelOptions,
  ) {
    this.dir = tempDir(name);
  }

  async start(): Promise<void> {
    const o = this.options;
    const file = join(this.dir, 'sentinel.conf');
    writeFileSync(
      file,
      [
        `port ${o.port}`,
        'bind 127.0.0.1',
        'protected-mode no',
        `dir ${this.dir}`,
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${o.primaryPort} ${o.quorum}`,
        `sentinel down-after-milliseconds ${MASTER_NAME} ${o.downAfterMs}`,
        `sentinel failover-timeout ${MASTER_NAME} ${o.failoverTimeoutMs}`,
        `sentinel parallel-syncs ${MASTER_NAME} 1`,
        '',
      ].join('\n'),
    );
    // redis-server started with --sentinel is redis-sentinel (the same binary, redis 7.0.15 server.c checkForSentinelMode).
    // "+monitor master" is logged at warning level (sentinel.c sentinelEvent): ready to watch.
    await startProcess(this.binary, [file, '--sentinel', '--loglevel', 'warning'], this.dir, /Sentinel ID is|monitor master/, this.name, (child) => (this.child = child));
  }

  dispose(): void {
    const child = this.child;
    this.child = null;
    if (child) {
      child.kill('SIGKILL');
      live.delete(child);
    }
    removeDir(this.dir);
  }
}

export const MASTER_NAME = 'lock-sim';

/**
 * Spawns a process in `dir` and waits until a line of its output matches `ready`. The process
 * starts in its own directory (not only after it reads --dir / `dir`), so anything it writes
 * before its config is read, and anyone looking at its cwd, finds the temporary directory.
 */
function startProcess(binary: string, args: string[], dir: string, ready: RegExp, name: string, spawned: (child: ChildProcess) => void): Promise<ChildProcess> {
  hookExit();
  return new Promise<ChildProcess>((resolve, reject) => {
    const child = hasPdeathsig()
      ? spawn('setpriv', ['--pdeathsig', 'KILL', binary, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(binary, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    spawned(child);
    let output = '';
    let settled = false;
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!settled && ready.test(output)) {
        settled = true;
        resolve(child);
      }
      if (output.length > 65536) output = output.slice(-8192);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (err) => {
      live.delete(child);
      if (!settled) {
        settled = true;
        reject(new RealBackendError(`${name}: could not start ${binary}: ${err.message}; ${INSTALL_HINT}`));
      }
    });
    child.once('exit', (code, signal) => {
      live.delete(child);
      if (!settled) {
        settled = true;
        reject(new Error(`${name} exited before it was ready (code ${code}, signal ${signal}): ${output.trim().split('\n').slice(-3).join(' | ')}`));
      }
    });
  });
}
