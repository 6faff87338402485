/**
 * Checks a variant's lock module when the scenario loads, so a bad module is a located
 * error (exit 2) rather than a crash mid-run: the file exists, it loads, the export exists
 * and is a function, and the factory returns { acquire, release } (called once with clients
 * that never answer; a factory that waits for Redis is checked when the run calls it). The
 * probe runs in the user-code worker (dispatch.ts), as the runs do.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve, dirname } from 'node:path';
import type { LockModuleSpec } from '../../spec/variant.js';
import { probeInWorker } from './dispatch.js';
import { UserThreadEnded, UserThreadStuck } from '../../own-code/user-thread.js';

/** The module path as the scenario gives it, from the scenario file's directory. */
export function resolveModulePath(module: string, scenarioFile: string): string {
  return isAbsolute(module) ? module : resolve(dirname(scenarioFile), module);
}

/** null when the module is usable, else what is wrong with it. */
export function probeModule(spec: LockModuleSpec, scenarioFile: string, connections: number, options: Record<string, unknown>): string | null {
  const file = spec.file;
  if (!existsSync(file) || !statSync(file).isFile()) return `no such file: ${file}`;
  let result;
  try {
    result = probeInWorker({ file, exportName: spec.export ?? 'default', connections, options, baseDir: scenarioFile === '' ? '' : dirname(scenarioFile), timeZone: spec.timeZone, locale: spec.locale, client: spec.client });
  } catch (err) {
    if (err instanceof UserThreadStuck) return `${err.message} while loading the module or calling its factory: a busy loop, or a wait on real I/O?`;
    if (err instanceof UserThreadEnded) return err.detail;
    throw err;
  }
  const r = result as { ok: boolean; code?: string; message?: string } | null;
  if (r?.ok) return null;
  const message = r?.message ?? 'unknown failure';
  if (r?.code === 'no-export' || r?.code === 'shape') return message;
  return `the module throws while loading or in its factory: ${message}`;
}
