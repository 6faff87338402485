/**
 * Where in user code something happened: the first frame of a V8 stack trace that is user
 * code (not lock-sim's glue, not Node's internals), as `file:line:col` with the file relative
 * to the scenario's directory (so a history reads the same on any machine), and the refusal
 * errors the sandbox throws, which name the module, the call and that file.
 */
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** lock-sim's own compiled code (dist/, or src/ under vitest): its frames are not user code. */
const OWN_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..') + sep;
const OWN_URL = `file://${OWN_ROOT}`;

/** A frame of lock-sim's own code (in a context: glue, drain, checks; or the host side of the sandbox) or of Node's internals. */
function internal(location: string): boolean {
  return location.startsWith('lock-sim:') || location.startsWith('node:') || location === 'native' || location.startsWith('evalmachine.') || location.startsWith(OWN_ROOT) || location.startsWith(OWN_URL);
}

/** `at fn (loc:1:2)` or `at loc:1:2`: the location, or null. */
function locationOf(line: string): string | null {
  const t = line.trim();
  if (!t.startsWith('at ')) return null;
  const paren = t.lastIndexOf('(');
  const loc = paren !== -1 && t.endsWith(')') ? t.slice(paren + 1, -1) : t.slice(3);
  return loc;
}

/** `loc` with its file made relative to `baseDir` (file URLs become paths first). */
function relativeLocation(loc: string, baseDir: string): string {
  const m = /^(.*?):(\d+):(\d+)$/.exec(loc);
  let file = m ? m[1] : loc;
  const tail = m ? `:${m[2]}:${m[3]}` : '';
  if (file.startsWith('file://')) {
    try {
      file = fileURLToPath(file);
    } catch {
      return loc;
    }
  }
  if (isAbsolute(file) && baseDir !== '') file = relative(baseDir, file) || file;
  return file.split('\\').join('/') + tail;
}

/** The first user-code frame of `stack` (an Error's `stack`), relative to `baseDir`, or null. */
export function firstUserFrame(stack: unknown, baseDir: string): string | null {
  if (typeof stack !== 'string') return null;
  for (const line of stack.split('\n')) {
    const loc = locationOf(line);
    if (loc === null) continue;
    const inner = loc.startsWith('async ') ? loc.slice(6) : loc;
    if (internal(inner)) continue;
    if (!/:\d+:\d+$/.test(inner)) continue;
    return relativeLocation(inner, baseDir);
  }
  return null;
}

/** The first user-code frame of the code running now (a refused call's caller). */
export function callerFrame(baseDir: string): string | null {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  Error.captureStackTrace(holder);
  Error.stackTraceLimit = limit;
  return firstUserFrame(holder.stack, baseDir);
}
