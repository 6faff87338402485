/**
 * Whether Debian's redis-server is here. Without it the real-backend tests are skipped (a
 * developer machine without Redis); under CI=true a missing redis-server fails instead,
 * since .ci/run installs it.
 */
import { spawnSync } from 'node:child_process';

export const REDIS_SERVER = process.env.LOCK_SIM_REDIS_SERVER ?? 'redis-server';

export const hasRedis = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' }).status === 0;

if (!hasRedis && process.env.CI === 'true') throw new Error(`CI=true but ${REDIS_SERVER} is missing: .ci/run installs it (apt-get install redis-server)`);
