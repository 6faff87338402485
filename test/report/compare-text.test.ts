/** The compare table people read: 120 columns, worst seeds only where something failed, Markdown. */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { COMPARE_COLUMNS, renderCompare, renderCompareMarkdown } from '../../src/report/compare-text.js';
import type { CompareSummary, VariantSummary } from '../../src/sweep/compare-variants.js';

const plain = new Chalk({ level: 0 });

const variant = (name: string, o: Partial<VariantSummary> = {}): VariantSummary => ({
  variant: name,
  runs: 1000,
  oversell: { estimate: 0.123, low: 0.1045, high: 0.1443 },
  oversoldMean: 12.34,
  oversoldMax: 1234,
  doubleHolders: { estimate: 0.999, low: 0.9927, high: 0.9998 },
  stuckMeanUs: 123_456_789,
  orphanMeanUs: 987_654_321,
  throughputMean: 12345.67,
  p99MeanUs: 123_456_789,
  oversoldHistogram: [],
  // At their widest: every run sold out late, thousands of requests a second, long p99s.
  flashSale: { soldOutRuns: 1000, soldOutMeanUs: 3_599_999_999, arrivalsMean: 12345.67, busyShareMean: 1, p99MeanUs: { ordered: 123_456_789, refused: 123_456_789, error: 123_456_789 } },
  worst: { seed: 9_999_999, oversold: 3, doubleHolders: 1, replay: `npx lock-sim run x.yaml --seed 9999999 --variant ${name}` },
  // At their widest too: the longest class name, every run of it, thousands of lost units.
  worstVerdict: 'UNAVAILABLE',
  verdicts: { SAFE: 0, DEGRADED: 0, STALLED: 0, UNAVAILABLE: 1000, LEAKY: 0, UNSAFE: 0 },
  lostUpdates: { runs: { estimate: 1, low: 0.9962, high: 1 }, mean: 1234.567, unitsMean: 12345.678 },
  liveness: { runs: { LIVE: 0, STALLED: 0, UNAVAILABLE: 1000 }, failedShareMean: 1, longestStallMeanUs: 3_599_999_999 },
  ...o,
});

const summary = (variants: VariantSummary[]): CompareSummary => ({
  scenario: 'a-scenario', file: 'scenarios/a-scenario.yaml', seeds: '1..1000', runsPerVariant: 1000, variants, paired: [],
});

describe('renderCompare', () => {
  it('fits 120 columns with every column at its widest, a 20-character variant name and a 7-digit seed', () => {
    const wide = variant('x'.repeat(20), { worst: { seed: 9_999_999, oversold: 3, doubleHolders: 1, replay: 'npx lock-sim run x.yaml --seed 9999999 --variant x' } });
    const text = renderCompare(summary([wide, variant('short')]), plain);
    const widths = text.split('\n').map((l) => l.length);
    expect(Math.max(...widths)).toBeLessThanOrEqual(120);
    // The table, not only the lines below it, stays within 120 columns, and shows the verdict and lost updates.
    const head = text.split('\n')[2];
    expect(head).toContain('worst verdict');
    expect(head).toContain('lost upd/');
    expect(text).toContain('UNAVAILABLE (1000)');
  });

  it('names a worst seed only for a variant whose worst run broke something', () => {
    const ok = variant('safe', { worst: { seed: 7, oversold: 0, doubleHolders: 0, replay: 'npx lock-sim run x.yaml --seed 7 --variant safe' } });
    const broke = variant('holds-twice', { worst: { seed: 9, oversold: 0, doubleHolders: 1, replay: 'npx lock-sim run x.yaml --seed 9 --variant holds-twice' } });
    const text = renderCompare(summary([ok, broke]), plain, ['oversell', 'worst-seed']);
    const row = (name: string): string => text.split('\n').find((l) => l.startsWith(`${name} `)) as string;
    expect(row('safe').trimEnd().endsWith(' -')).toBe(true);
    expect(row('holds-twice').trimEnd().endsWith(' 9')).toBe(true);
    expect(text).not.toContain('--variant safe');
    expect(text).toContain('--variant holds-twice');
  });

  it('shows only the chosen columns, the variant first', () => {
    const text = renderCompare(summary([variant('a')]), plain, ['p99', 'oversell']);
    const head = text.split('\n')[2];
    expect(head.split(/\s{2,}/).map((h) => h.trim())).toEqual(['variant', 'p99 of all', 'P(oversell) %']);
    // Extra columns at their widest still fit: the liveness figures with the columns before them.
    const extras = renderCompare(summary([variant('x'.repeat(20))]), plain, ['verdict', 'liveness', 'failed-share', 'longest-stall', 'stuck-orphan', 'p99']);
    expect(extras).toContain('0/0/1000');
  });

  it('leaves extra columns out of the default table and shows them when named', async () => {
    const { selectColumns } = await import('../../src/report/columns.js');
    const cols = [
      { id: 'name', head: 'name', align: 'left' as const, cell: (r: string) => r },
      { id: 'more', head: 'more', align: 'right' as const, cell: () => '1', extra: true },
      { id: 'base', head: 'base', align: 'right' as const, cell: () => '2' },
    ];
    expect(selectColumns(cols, undefined).map((c) => c.id)).toEqual(['name', 'base']);
    expect(selectColumns(cols, ['more']).map((c) => c.id)).toEqual(['name', 'more']);
  });

  it('gives every column an id that --columns can select', () => {
    const ids = COMPARE_COLUMNS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    ids.forEach((id) => expect(id).toMatch(/^[a-z0-9-]+$/));
  });
});

describe('renderCompareMarkdown', () => {
  it('writes a GitHub table, right-aligning numbers, and escapes a pipe in a name', () => {
    const md = renderCompareMarkdown(summary([variant('a|b')]));
    const lines = md.split('\n');
    expect(lines[2]).toBe('| variant | worst verdict (its runs) | P(oversell) % [95% CI] | oversold mean/max | P(2 holders) % [95% CI] | lost upd/ units mean | orders/s mean |');
    expect(lines[3]).toBe('|---|---|---:|---:|---:|---:|---:|');
    expect(lines[4].startsWith('| a\\|b | UNAVAILABLE (1000) | 12.3 [10.4, 14.4] |')).toBe(true);
    expect(md).toContain('**Worst runs**');
  });

  it('has no worst-runs list when nothing failed', () => {
    const md = renderCompareMarkdown(summary([variant('safe', { worst: { seed: 1, oversold: 0, doubleHolders: 0, replay: 'r' } })]), ['worst-seed']);
    expect(md).not.toContain('Worst runs');
    expect(md).toContain('| - |');
  });
});

describe('paired differences', () => {
  const withPaired = (): CompareSummary => ({
    ...summary([variant('base'), variant('fix')]),
    paired: [{ variant: 'fix', baseline: 'base', runs: 1000, oversold: { estimate: -12.345678, low: -13.0000001, high: -11.7 }, oversell: { estimate: -0.1234567, low: -0.14, high: -0.1 }, throughput: { estimate: 0.333333, low: -1.25, high: 2 } }],
  });

  it('rounds them the same way in the text, Markdown and HTML reports', async () => {
    const { renderCompareHtml } = await import('../../src/report/html.js');
    const expected = ['-12.35 [-13.00, -11.70]', '-12.3 pp [-14.0, -10.0]', '+0.33 [-1.25, +2.00]'];
    for (const out of [renderCompare(withPaired(), plain), renderCompareMarkdown(withPaired()), renderCompareHtml(withPaired())]) {
      for (const figure of expected) expect(out).toContain(figure);
      expect(out).not.toContain('12.345678');
    }
  });

  it('leaves them out when no baseline was named', async () => {
    const { renderCompareHtml } = await import('../../src/report/html.js');
    expect(renderCompareHtml(summary([variant('a')]))).not.toContain('Paired differences');
  });
});
