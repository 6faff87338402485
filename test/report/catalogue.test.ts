/** `lock-sim list`: the Redisson version table, from the one table the model consults. */
import { describe, expect, it } from 'vitest';
import { catalogue, renderCatalogue } from '../../src/report/catalogue.js';
import { behaviourOf, REDISSON_CHANGES } from '../../src/variants/locks/redisson/versions.js';

describe('list: Redisson versions', () => {
  it('lists every change with its version and source, oldest first, and the redisson options', () => {
    const c = catalogue();
    expect(c.redisson.default).toBe('4.7.0');
    expect(c.redisson.changes.map((x) => x.since)).toEqual(['3.11.0', ...REDISSON_CHANGES.map((x) => x.since)]);
    const since = c.redisson.changes.map((x) => x.since);
    expect([...since].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))).toEqual(since);
    for (const x of c.redisson.changes) expect(x.source).toMatch(/@ redisson-\d+\.\d+\.\d+/);
    const text = renderCatalogue(c);
    expect(text).toContain('redisson versions (redisson-version: 3.11.0 to 4.7.0, default 4.7.0)');
    expect(text).toMatch(/ {2}3\.25\.0 {3}the error text gains/);
    const options = c.locks.find((l) => l.name === 'redisson')?.options.map((o) => o.option);
    expect(options).toEqual(['redisson-version', 'sync-replicas', 'slaves-sync-timeout', 'lock-watchdog-timeout', 'watchdog-on-error', 'command-retries', 'command-retry-interval']);
  });

  it('each row changes what the model does at that version and not before', () => {
    for (const change of REDISSON_CHANGES) {
      const [major, minor, patch] = change.since.split('.').map(Number);
      const before = c(major, minor, patch);
      if (before === null) continue;
      expect(behaviourOf(change.since), change.since).not.toEqual(behaviourOf(before));
    }
  });
});

/** The release just before major.minor.patch, if there is one. */
function c(major: number, minor: number, patch: number): string | null {
  const versions = catalogue().redisson.versions;
  const i = versions.indexOf(`${major}.${minor}.${patch}`);
  return i > 0 ? versions[i - 1] : null;
}
