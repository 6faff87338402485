/**
 * The redis-server binary a real run starts (its own file so the package's type declarations
 * of `checkRedisServer` need no Node types).
 */
import { spawnSync } from 'node:child_process';
import { INSTALL_HINT, RealBackendError } from './errors.js';

/** Checks that `path` runs and is a Redis server; exit 2 with the install hint otherwise. */
export function checkRedisServer(path: string): string {
  const r = spawnSync(path, ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0 || !/Redis server v=/.test(r.stdout)) {
    throw new RealBackendError(`redis-server not found or not runnable at "${path}": ${INSTALL_HINT}`);
  }
  return (/v=([0-9.]+)/.exec(r.stdout) as RegExpExecArray)[1];
}
