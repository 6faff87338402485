/**
 * The generated parts of the reference pages are current: each region between
 * `<!-- generated: NAME -->` and `<!-- end generated -->` is what scripts/reference.mjs builds
 * from the code now (npm run generate writes them).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without types
import { REGIONS, generated, regionOf } from '../../scripts/reference.mjs';

interface Region { page: string; name: string }

describe('generated reference', () => {
  it.each((REGIONS as Region[]).map((r) => ({ ...r, label: `${r.page} (${r.name})` })))('$label is current', async (region) => {
    const shown = regionOf(readFileSync(region.page, 'utf8'), region.name) as string | null;
    expect(shown, `${region.page} has no region ${region.name}`).not.toBeNull();
    expect(shown, `${region.page}: the ${region.name} part is stale; run npm run generate`).toBe(await generated(region));
  });
});
