/** `redisson-version`: a released version or a minor line, checked against the behaviour table. */
import { quote } from '../spec/errors.js';
import { REDISSON_VERSIONS } from '../variants/locks/redisson/versions.js';
import { closest } from './suggest.js';
import type { Parsed } from './value-parsers.js';

/**
 * A released version ("3.25.0"), or a minor line ("3.25", "3.25.x": its last release). A
 * bare 3.25 in YAML is a number, and 3.10 would read as 3.1: versions are written as text.
 */
export function parseRedissonVersion(v: unknown): Parsed<string> {
  const range = `${REDISSON_VERSIONS[0]} to ${REDISSON_VERSIONS[REDISSON_VERSIONS.length - 1]}`;
  if (typeof v === 'number') {
    return { ok: false, message: `write the version in quotes ("${Number.isInteger(v) ? `${v}.0.0` : `${v}.0`}"): YAML reads ${v} as a number` };
  }
  if (typeof v !== 'string') return { ok: false, message: `expected a Redisson version (${range}), found ${String(v)}` };
  const text = v.trim();
  if (REDISSON_VERSIONS.includes(text)) return { ok: true, value: text };
  const minor = /^(\d+\.\d+)(\.x)?$/.exec(text);
  if (minor) {
    const line = REDISSON_VERSIONS.filter((r) => r.startsWith(`${minor[1]}.`));
    if (line.length > 0) return { ok: true, value: line[line.length - 1] };
  }
  // A typo in the patch number: the minor line's last release; otherwise the nearest spelling.
  const sameLine = /^(\d+\.\d+)\./.exec(text);
  const line = sameLine ? REDISSON_VERSIONS.filter((r) => r.startsWith(`${sameLine[1]}.`)) : [];
  const near = line.length > 0 ? line[line.length - 1] : closest(text, REDISSON_VERSIONS);
  return {
    ok: false,
    message: `unknown Redisson version ${quote(text)}${near ? ` (did you mean "${near}"?)` : ''}; known: released versions ${range}, or a minor line such as "3.25"`,
  };
}
